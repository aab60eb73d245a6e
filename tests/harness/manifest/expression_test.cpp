#include "harness/manifest/expression.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

namespace csbench {
namespace {

const std::vector<std::string> kSizeNames = {"W", "H", "WG_X", "WG_Y"};

// The error's message, or "(no error)".
std::string ParseError(const std::string& text, const std::vector<std::string>& names = kSizeNames) {
  try {
    Expression e(text, names);
  } catch (const ExpressionError& e) {
    return e.message;
  }
  return "(no error)";
}

std::string EvaluateError(const std::string& text, const std::map<std::string, double>& values) {
  std::vector<std::string> names;
  for (const auto& [name, value] : values) names.push_back(name);
  Expression e(text, names);
  try {
    e.Evaluate(values);
  } catch (const ExpressionError& e) {
    return e.message;
  }
  return "(no error)";
}

TEST(Expression, ArithmeticOverTheVariables) {
  Expression e("W * H + WG_X / WG_Y", kSizeNames);
  EXPECT_EQ(e.Evaluate({{"W", 37}, {"H", 29}, {"WG_X", 64}, {"WG_Y", 8}}), 37 * 29 + 8);
  // The values are taken anew at each evaluation.
  EXPECT_EQ(e.Evaluate({{"W", 2}, {"H", 3}, {"WG_X", 1}, {"WG_Y", 1}}), 7);
  EXPECT_EQ(e.text(), "W * H + WG_X / WG_Y");
}

TEST(Expression, CeilAndFloorRoundTowardTheirInfinities) {
  const std::map<std::string, double> w7 = {{"W", 7}, {"H", 1}, {"WG_X", 2}, {"WG_Y", 1}};
  EXPECT_EQ(Expression("ceil(W / WG_X)", kSizeNames).Evaluate(w7), 4);
  EXPECT_EQ(Expression("floor(W / WG_X)", kSizeNames).Evaluate(w7), 3);
  EXPECT_EQ(Expression("ceil(-W / WG_X)", kSizeNames).Evaluate(w7), -3);
  EXPECT_EQ(Expression("floor(-W / WG_X)", kSizeNames).Evaluate(w7), -4);
  // A whole quotient stays itself (no off-by-one from rounding an exact value).
  EXPECT_EQ(Expression("ceil(W * 4 / 4)", kSizeNames).Evaluate(w7), 7);
  // muparser's own functions beside them, as the examples use them.
  EXPECT_EQ(Expression("min(ceil(W / WG_X), 3)", kSizeNames).Evaluate(w7), 3);
  EXPECT_EQ(Expression("max(W, 65535)", kSizeNames).Evaluate(w7), 65535);
}

TEST(Expression, EvaluateInOrderTakesTheValuesInTheNamesOrder) {
  Expression e("a - 2 * b", {"a", "b"});
  const double values[] = {10, 3};
  EXPECT_EQ(e.EvaluateInOrder(values), 4);
  const double swapped[] = {3, 10};
  EXPECT_EQ(e.EvaluateInOrder(swapped), -17);
}

TEST(Expression, AnUnknownNameIsNamedWithItsPosition) {
  const std::string message = ParseError("W * PER_ITEM");
  EXPECT_EQ(message, "unknown name 'PER_ITEM' (at character 5)");
  // A name given to another expression is unknown to this one.
  EXPECT_EQ(ParseError("x + 1", {"W"}), "unknown name 'x' (at character 1)");
}

TEST(Expression, ASyntaxErrorCountsCharactersFromOne) {
  // muparser counts from 0 and writes that number into its messages; only the user's remains.
  const std::string missing = ParseError("W * (W + 1");
  EXPECT_NE(missing.find("(at character "), std::string::npos) << missing;
  EXPECT_EQ(missing.find("position"), std::string::npos) << missing;
  const std::string twice = ParseError("W ** 2");
  EXPECT_NE(twice.find("(at character 4)"), std::string::npos) << twice;
  EXPECT_EQ(twice.find("position"), std::string::npos) << twice;
  EXPECT_EQ(ParseError("W +"), ParseError("W +"));  // stable, for the manifest's message
  EXPECT_NE(ParseError("W +"), "(no error)");
}

TEST(Expression, TextThatCannotBeArithmeticIsRefusedBeforeTheParser) {
  EXPECT_EQ(ParseError(""), "an empty expression");
  EXPECT_EQ(ParseError("W\n+ 1"), "an expression may hold printable ASCII characters only");
  EXPECT_EQ(ParseError("W * \xc3\x97 2"), "an expression may hold printable ASCII characters only");
  EXPECT_EQ(ParseError(std::string(1025, '1')), "an expression of 1025 characters (at most 1024)");
  EXPECT_EQ(ParseError("1" + std::string(1023, ' ')), "(no error)");
}

TEST(Expression, ANonFiniteValueIsAnErrorAtEvaluation) {
  // It parses (the parse's trial evaluation has every variable at 1, and its value is not used).
  EXPECT_EQ(ParseError("W / (H - H)"), "(no error)");
  const std::map<std::string, double> at = {{"H", 29}, {"W", 37}};
  const std::string message = EvaluateError("W / (H - H)", at);
  EXPECT_EQ(message, "gives inf (a division by zero, or a function outside its domain)");
  EXPECT_EQ(EvaluateError("-W / (H - H)", at), "gives -inf (a division by zero, or a function outside its domain)");
  // 0 / 0: a NaN, whose sign the platform chooses.
  EXPECT_NE(EvaluateError("(W - W) / (H - H)", at).find("nan (a division by zero"), std::string::npos);
  EXPECT_EQ(EvaluateError("log2(W - W)", at), "gives -inf (a division by zero, or a function outside its domain)");
  EXPECT_EQ(EvaluateError("W / (H - 28)", at), "(no error)");
}

TEST(Expression, AMissingValueIsNamed) {
  Expression e("W * H", kSizeNames);
  try {
    e.Evaluate({{"W", 1}, {"WG_X", 1}, {"WG_Y", 1}});
    FAIL() << "no error";
  } catch (const ExpressionError& error) {
    EXPECT_EQ(error.message, "no value for H");
  }
}

TEST(Expression, UsedListsTheVariablesTheTextNames) {
  std::vector<std::string> used = Expression("2 * x + W", {"i", "W", "H", "x", "y"}).Used();
  std::sort(used.begin(), used.end());
  EXPECT_EQ(used, (std::vector<std::string>{"W", "x"}));
  EXPECT_TRUE(Expression("42", {"i", "W", "H", "x"}).Used().empty());
  // A name that only begins like another is not it.
  used = Expression("xy + 1", {"x", "xy"}).Used();
  EXPECT_EQ(used, (std::vector<std::string>{"xy"}));
}

TEST(Expression, VariableNames) {
  EXPECT_TRUE(IsVariableName("PER_ITEM"));
  EXPECT_TRUE(IsVariableName("_x1"));
  EXPECT_FALSE(IsVariableName("1x"));
  EXPECT_FALSE(IsVariableName(""));
  EXPECT_FALSE(IsVariableName("a-b"));
  EXPECT_FALSE(IsVariableName("a.b"));
  EXPECT_TRUE(IsVariableName(std::string(64, 'a')));
  EXPECT_FALSE(IsVariableName(std::string(65, 'a')));
}

}  // namespace
}  // namespace csbench
