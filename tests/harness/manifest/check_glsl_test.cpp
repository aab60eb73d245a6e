#include "harness/manifest/check_glsl.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "harness/manifest/expression.hpp"
#include "harness/vulkan/shader_compiler.hpp"

namespace csbench {
namespace {

// Texts whose grammar muparser and the translation must read alike: signs against ^, ^ to the
// right, comparisons in a row, ?: nested, the variadic built-ins, literals of every form.
const std::vector<std::string> kTexts = {
    "-2^2",
    "2^3^2",
    "-x^2",
    "x^-2",
    "-x^-3 + 1",
    "1 - -x",
    "2 * -x",
    "-(x + y) * 3",
    "x / y / 2",
    "x - y - 1",
    "x - y + 1",
    "x < y == 1",
    "x <= y != (y >= x)",
    "x > 0 && y > 0 || x < -1",
    "x > 0 || y > 0 && x < -1",
    "x > 0 ? y : 2",
    "x > 0 ? y > 0 ? 1 : 2 : 3",
    "x > 0 ? 1 : y > 0 ? 2 : 3",
    "(x > y) * 5 + (x == x)",
    "0.5 && 1",
    "(x - 0.5) && (y + 0.25) || 0.4",
    "-0.9 || x - 0.5",
    "abs(-0.5) && 1 || x && 0.5",
    "min(0.5) && 1",
    "avg(0.5, 0.5) && 1 || floor(1.5) * 0.5 && 1",
    "min(x, y, 3)",
    "max(x)",
    "max(x, -y) - min(-x, y)",
    "sum(x, y, 1.5)",
    "avg(x, y)",
    "sign(x - y) + sign(0)",
    "rint(x * 3.3)",
    "rint(2.5) + rint(-0.5)",
    "floor(x) + ceil(y)",
    "sqrt(abs(x)) * _pi + _e",
    "1e-3 * x + .5 * y + 2.5e2",
    "x^0 + (x + 1)^3 - (y - 2)^4",
    "u(x + 1) * 2 + u(3)",
    "-u(1)^2",
    "  x*  y+1  ",
};

// muparser's value of `text` at (x, y), with u(j) = 10 j + 1; NaN where it has none.
double MuparserValue(const std::string& text, double x, double y) {
  Expression e(text, {"x", "y"}, {"u"});
  e.SetCall([](size_t, const double* args, int) { return 10 * args[0] + 1; });
  try {
    return e.Evaluate({{"x", x}, {"y", y}});
  } catch (const ExpressionError&) {
    return std::nan("");
  }
}

TEST(CheckGlsl, ParsesAsMuparserDoes) {
  const std::vector<std::pair<double, double>> points = {{0.5, 2},   {-1.25, 3},  {3, -0.75}, {0, 0},
                                                        {7, 7},     {-2, -5.5},  {1e3, 1e-3}, {2.5, -2.5}};
  for (const std::string& text : kTexts) {
    for (const auto& point : points) {
      const double x = point.first, y = point.second;
      const std::optional<double> ours = EvaluateParsed(
          text, [&](const std::string& name) { return name == "x" ? x : y; },
          [](const std::string&, const std::vector<double>& args) { return 10 * args[0] + 1; });
      ASSERT_TRUE(ours.has_value()) << text;
      const double theirs = MuparserValue(text, x, y);
      if (std::isnan(theirs) || std::isinf(theirs)) {
        EXPECT_FALSE(std::isfinite(*ours)) << text << " at " << x << ", " << y;
        continue;
      }
      EXPECT_NEAR(*ours, theirs, 1e-12 * std::max(1.0, std::abs(theirs))) << text << " at " << x << ", " << y;
    }
  }
}

TEST(CheckGlsl, RefusesWhatHasNoFloat64Form) {
  const GlslNames names{.variables = {{"x", "v"}}};
  for (const char* text : {"sin(x)", "exp(x) + 1", "x^0.5", "x^x", "x^17", "log(x)", "tanh(x)"}) {
    const GlslTranslation t = CheckToGlsl(text, names);
    EXPECT_FALSE(t.refused.empty()) << text;
    EXPECT_TRUE(t.glsl.empty()) << text;
  }
  // Texts muparser refuses never reach a device, but the translation must refuse them too, never
  // read past a call's arguments (found by check_glsl_fuzz).
  for (const char* text : {"55^-abs()", "min()", "x^max()", "abs(x, x)"}) {
    EXPECT_FALSE(CheckToGlsl(text, names).refused.empty()) << text;
  }
  EXPECT_EQ(CheckToGlsl("q + 1", names).refused, "q has no value on the device");
  EXPECT_EQ(CheckToGlsl("sin(x)", names).refused, "sin() has no float64 form in GLSL");
}

TEST(CheckGlsl, WritesGlslOverTheNames) {
  GlslNames names{.variables = {{"x", "vx"}, {"i", "double(g)"}}};
  names.functions["img"] = {.glsl = "read_img", .least = 2, .most = 3};
  EXPECT_EQ(CheckToGlsl("x * 2", names).glsl, "(vx * 2.0LF)");
  EXPECT_EQ(CheckToGlsl("-x^2", names).glsl, "(-csb_pow(vx, 2))");
  EXPECT_EQ(CheckToGlsl("x^-1", names).glsl, "(1.0LF / csb_pow(vx, 1))");
  EXPECT_EQ(CheckToGlsl("x < 1 ? i : 0", names).glsl, "((vx < 1.0LF ? 1.0LF : 0.0LF) != 0.0LF ? double(g) : 0.0LF)");
  // A read takes its most arguments: the channel left out is 0.
  EXPECT_EQ(CheckToGlsl("img(x, 1)", names).glsl, "read_img(vx, 1.0LF, 0.0LF)");
  EXPECT_FALSE(CheckToGlsl("img(x)", names).refused.empty());
  EXPECT_EQ(CheckToGlsl("0.1", names).glsl, "0.10000000000000001LF");
}

// Every translated text compiles as GLSL, with the helpers, in a shader's float64 expression.
TEST(CheckGlsl, TranslationsCompile) {
  GlslNames names{.variables = {{"x", "vx"}, {"y", "vy"}}};
  names.functions["u"] = {.glsl = "read_u", .least = 1, .most = 1};
  std::string body;
  for (const std::string& text : kTexts) {
    const GlslTranslation t = CheckToGlsl(text, names);
    ASSERT_TRUE(t.refused.empty()) << text << ": " << t.refused;
    body += "  sum += " + t.glsl + ";\n";
  }
  const std::string source = std::string("#version 450\nlayout(local_size_x = 1) in;\n") + kGlslCheckHelpers +
                             "layout(std430, binding = 0) buffer B { double v[]; } b;\n"
                             "double read_u(double j) { return 10.0LF * j + 1.0LF; }\n"
                             "void main() {\n  const double vx = b.v[0], vy = b.v[1];\n  precise double sum = 0.0LF;\n" +
                             body + "  b.v[2] = sum;\n}\n";
  EXPECT_FALSE(CompileShader({.path = "check_glsl_test.comp", .text = source}).empty());
}

}  // namespace
}  // namespace csbench
