// The check-expression translator's libFuzzer target (harness/manifest/check_glsl.hpp), a
// differential one: any text muparser reads over x, y and a read u(j) must be read alike by the
// translation's parser (EvaluateParsed gives muparser's value at three points, or refuses the text
// as the GLSL translation does), and the translation itself must never throw or crash. A finding is
// a text whose grammar the two read differently: a check the device would compute otherwise.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "harness/manifest/check_glsl.hpp"
#include "harness/manifest/expression.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  csbench::GlslNames names{.variables = {{"x", "vx"}, {"y", "vy"}}};
  names.functions["u"] = {.glsl = "read_u", .least = 1, .most = 1};
  (void)csbench::CheckToGlsl(text, names);
  std::optional<csbench::Expression> expression;
  try {
    expression.emplace(text, std::vector<std::string>{"x", "y"}, std::vector<std::string>{"u"});
  } catch (const csbench::ExpressionError&) {
    return 0;  // not an expression a manifest could hold
  }
  auto read = [](double j) { return 10 * j + 1; };
  expression->SetCall([&](size_t, const double* args, int count) { return count == 1 ? read(args[0]) : std::nan(""); });
  for (const auto& point : {std::pair{0.5, 2.0}, std::pair{-1.25, 3.0}, std::pair{3.0, -0.75}}) {
    const double x = point.first, y = point.second;
    double theirs = std::nan("");
    try {
      theirs = expression->Evaluate({{"x", x}, {"y", y}});
    } catch (const csbench::ExpressionError&) {
    }
    const std::optional<double> ours = csbench::EvaluateParsed(
        text, [&](const std::string& name) { return name == "x" ? x : name == "y" ? y : std::nan(""); },
        [&](const std::string&, const std::vector<double>& args) { return args.size() == 1 ? read(args[0]) : std::nan(""); });
    if (!ours) return 0;  // refused: the check stays on the host
    if (!std::isfinite(theirs)) {
      if (std::isfinite(*ours)) std::abort();
      continue;
    }
    if (!(std::abs(*ours - theirs) <= 1e-9 * std::max(1.0, std::abs(theirs)))) std::abort();
  }
  return 0;
}
