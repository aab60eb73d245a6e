#include "harness/manifest/expression.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
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
  EXPECT_EQ(ParseError(std::string(4097, '1')), "an expression of 4097 characters (at most 4096)");
  EXPECT_EQ(ParseError("1" + std::string(4095, ' ')), "(no error)");
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

// FunctionCalls' calls as "name/arguments" in order, for a compact comparison.
std::vector<std::string> Calls(const std::string& text) {
  std::vector<std::string> calls;
  for (const FunctionCall& call : FunctionCalls(text)) calls.push_back(call.name + "/" + std::to_string(call.arguments));
  return calls;
}

TEST(FunctionCalls, EachCallWithItsArgumentsInOrder) {
  EXPECT_EQ(Calls("a(1) + b(2, 3) * c(i, j, k)"), (std::vector<std::string>{"a/1", "b/2", "c/3"}));
  EXPECT_TRUE(Calls("W * H + 1").empty());
  // Names that are no function (muparser's min, max) are listed too: the caller picks its own.
  EXPECT_EQ(Calls("min(x, 1)"), (std::vector<std::string>{"min/2"}));
  // An argument's arithmetic and parentheses are one argument.
  EXPECT_EQ(Calls("f((i + 1) * 2, (3))"), (std::vector<std::string>{"f/2"}));
  // A struct member's name holds its '.'.
  EXPECT_EQ(Calls("s.a(i)"), (std::vector<std::string>{"s.a/1"}));
}

TEST(FunctionCalls, NestedCallsCountTheirOwnCommasOnly) {
  EXPECT_EQ(Calls("f(g(1, 2), h(3))"), (std::vector<std::string>{"f/2", "g/2", "h/1"}));
  EXPECT_EQ(Calls("img(x - 1, y, min(c, 2))"), (std::vector<std::string>{"img/3", "min/2"}));
  // A call as the only argument is one argument of the outer call.
  EXPECT_EQ(Calls("f(g())"), (std::vector<std::string>{"f/1", "g/0"}));
  EXPECT_EQ(Calls("out(out(i))"), (std::vector<std::string>{"out/1", "out/1"}));
  EXPECT_EQ(Calls("i + 1 >= W ? 1 : out(i) <= out(i + 1)"), (std::vector<std::string>{"out/1", "out/1"}));
}

TEST(FunctionCalls, ZeroArguments) {
  EXPECT_EQ(Calls("f()"), (std::vector<std::string>{"f/0"}));
  EXPECT_EQ(Calls("f( )"), (std::vector<std::string>{"f/0"}));
  EXPECT_EQ(Calls("rand() + g(1)"), (std::vector<std::string>{"rand/0", "g/1"}));
}

TEST(FunctionCalls, ANumberOrNothingBeforeAParenthesisIsNoCall) {
  EXPECT_TRUE(Calls("2(3)").empty());
  EXPECT_TRUE(Calls("1e2(3)").empty());
  EXPECT_TRUE(Calls("(1, 2) + (W)").empty());
  EXPECT_EQ(Calls("2 * (x(1) + 3)"), (std::vector<std::string>{"x/1"}));
  // A name right after a digit is part of a number's text ("2x" is no name): not a call either.
  EXPECT_TRUE(Calls("2x(1)").empty());
}

TEST(FunctionCalls, UnbalancedParenthesesAreLeftToTheParser) {
  EXPECT_EQ(Calls("f(1, 2"), (std::vector<std::string>{"f/1"}));
  EXPECT_TRUE(Calls(") + 1)").empty());
}

TEST(Expression, AFunctionsValueComesFromTheCall) {
  Expression e("a(1) + b(2, 3) * 10", {"W"}, {"a", "b"});
  // Each function by its index in the names given, with its arguments.
  e.SetCall([](size_t function, const double* args, int count) {
    if (function == 0) return count == 1 ? args[0] + 100 : -1.0;
    return count == 2 ? args[0] * args[1] : -1.0;
  });
  EXPECT_EQ(e.Evaluate({{"W", 5}}), 101 + 6 * 10);
  // Arguments are expressions of the variables.
  Expression f("a(W * 2 - 1)", {"W"}, {"a"});
  f.SetCall([](size_t, const double* args, int) { return args[0]; });
  EXPECT_EQ(f.Evaluate({{"W", 5}}), 9);
  EXPECT_EQ(f.Evaluate({{"W", 7}}), 13);
}

TEST(Expression, ANameCanBeAVariableAndAFunction) {
  Expression e("x(i + 1) * 2 + x", {"i", "x"}, {"x"});
  std::vector<double> args_seen;
  e.SetCall([&](size_t function, const double* args, int count) {
    EXPECT_EQ(function, 0u);
    EXPECT_EQ(count, 1);
    args_seen.push_back(args[0]);
    return args[0] * 10;
  });
  // x(4) = 40 through the call; x = 5 the variable.
  EXPECT_EQ(e.Evaluate({{"i", 3}, {"x", 5}}), 85);
  EXPECT_EQ(args_seen.back(), 4);
  // The variable alone is used; calls are no use of the variable.
  std::vector<std::string> used = e.Used();
  std::sort(used.begin(), used.end());
  EXPECT_EQ(used, (std::vector<std::string>{"i", "x"}));
  Expression only_call("x(i)", {"i", "x"}, {"x"});
  EXPECT_EQ(only_call.Used(), (std::vector<std::string>{"i"}));
}

TEST(Expression, AFunctionNotGivenIsAnUnknownName) {
  try {
    Expression e("g(1) + x(2)", {"i"}, {"x"});
    FAIL() << "no error";
  } catch (const ExpressionError& error) {
    EXPECT_EQ(error.message, "unknown name 'g' (at character 1)");
  }
  // With no functions, a resource's name followed by '(' is no variable either.
  EXPECT_NE(ParseError("W(1)").find("(at character"), std::string::npos);
}

TEST(Expression, WithoutACallAFunctionGivesNaNAndTheEvaluationFails) {
  Expression e("x(1) + 1", {"i"}, {"x"});
  try {
    e.Evaluate({{"i", 0}});
    FAIL() << "no error";
  } catch (const ExpressionError& error) {
    EXPECT_NE(error.message.find("nan"), std::string::npos) << error.message;
  }
}

TEST(Expression, EvaluateEachCallsTheFunctionAtEveryPointWithThatPointsArguments) {
  // More points than one chunk (4096) of the bulk evaluation, and not a multiple of it.
  const size_t count = 10000;
  Expression e("f(i, 2) + g(i + 1) + v", {"i", "v"}, {"f", "g"});
  std::mutex mutex;
  std::vector<int> f_calls(count), g_calls(count + 1);
  bool wrong = false;
  e.SetCall([&](size_t function, const double* args, int n) {
    std::lock_guard lock(mutex);
    if (function == 0) {
      if (n != 2 || args[1] != 2 || args[0] < 0 || args[0] >= static_cast<double>(count)) {
        wrong = true;
        return 0.0;
      }
      ++f_calls[static_cast<size_t>(args[0])];
      return args[0] * args[1];
    }
    if (n != 1 || args[0] < 1 || args[0] > static_cast<double>(count)) {
      wrong = true;
      return 0.0;
    }
    ++g_calls[static_cast<size_t>(args[0])];
    return -args[0];
  });
  std::vector<double> out(count);
  e.EvaluateEach(
      count,
      [](size_t variable, size_t start, size_t n, double* values) {
        for (size_t k = 0; k < n; ++k) values[k] = variable == 0 ? static_cast<double>(start + k) : 0.5;
      },
      out.data());
  EXPECT_FALSE(wrong);
  for (size_t p = 0; p < count; ++p) {
    // 2i - (i + 1) + 0.5
    ASSERT_EQ(out[p], static_cast<double>(p) - 0.5) << "point " << p;
    ASSERT_EQ(f_calls[p], 1) << "f at point " << p;
    ASSERT_EQ(g_calls[p + 1], 1) << "g at point " << p;
  }
}

TEST(Expression, EvaluateEachNamesThePointWhereACallGivesNaN) {
  Expression e("x(i)", {"i"}, {"x"});
  e.SetCall([](size_t, const double* args, int) {
    return args[0] == 4100 ? std::numeric_limits<double>::quiet_NaN() : args[0];
  });
  std::vector<double> out(5000);
  try {
    e.EvaluateEach(
        out.size(),
        [](size_t, size_t start, size_t n, double* values) {
          for (size_t k = 0; k < n; ++k) values[k] = static_cast<double>(start + k);
        },
        out.data());
    FAIL() << "no error";
  } catch (const ExpressionError& error) {
    EXPECT_NE(error.message.find("at point 4100"), std::string::npos) << error.message;
  }
}

TEST(Expression, AGuardedCallIsNotMadeOnTheBranchNotTaken) {
  // [require]'s sorted test: out(i + 1) only where i + 1 < W.
  Expression e("i + 1 >= W ? 1 : out(i) <= out(i + 1)", {"i", "W"}, {"out"});
  const double W = 8;
  std::mutex mutex;
  double most = -1;
  e.SetCall([&](size_t, const double* args, int) {
    std::lock_guard lock(mutex);
    most = std::max(most, args[0]);
    return args[0] < W ? args[0] : std::numeric_limits<double>::quiet_NaN();
  });
  std::vector<double> out(static_cast<size_t>(W));
  e.EvaluateEach(
      out.size(),
      [&](size_t variable, size_t start, size_t n, double* values) {
        for (size_t k = 0; k < n; ++k) values[k] = variable == 0 ? static_cast<double>(start + k) : W;
      },
      out.data());
  EXPECT_EQ(most, W - 1);
  for (double v : out) EXPECT_EQ(v, 1);
}

TEST(Expression, ACallWithNoArgumentsDoesNotParse) {
  try {
    Expression e("x() + 1", {"i"}, {"x"});
    FAIL() << "no error";
  } catch (const ExpressionError& error) {
    EXPECT_NE(error.message.find("Too few parameters for function \"x\""), std::string::npos) << error.message;
  }
}

}  // namespace
}  // namespace csbench
