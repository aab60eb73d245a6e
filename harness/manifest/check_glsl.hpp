// A check expression (muparser's syntax, as a manifest writes it) as GLSL: the expected values of
// a check computed on the device (harness/manifest/case_device_check.cpp) from the same text the
// host evaluates. The translation keeps muparser's grammar and meanings: its precedence, a sign
// binding looser than ^, comparisons and && || giving 1 or 0, ?: on a value not 0, rint rounding
// halves up, and && || of numbers alone folded as muparser folds them (their operands cut to
// whole numbers). It computes in float64 in the order the text gives, with only the operations
// GLSL has for doubles, exactly (+ - * /, sqrt, abs, sign, floor, ceil, rint, min, max, sum, avg,
// ^ to a whole power up to 16). An expression with anything else (sin, exp, log, ^ to another
// power) has no float64 form on the device: it is refused, with the reason, and the check stays on
// the host.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace csbench {

// What the names of a check expression become in GLSL.
struct GlslNames {
  // A variable: a GLSL expression of type double (a literal, a local).
  std::map<std::string, std::string> variables;
  // A function (a resource read): the GLSL function it calls, which takes every argument as a
  // double and returns one; and how many arguments it may take (least, most).
  struct Function {
    std::string glsl;
    int least = 1, most = 1;
  };
  std::map<std::string, Function> functions;
};

struct GlslTranslation {
  std::string glsl;    // one GLSL expression of type double; empty where `refused`
  std::string refused; // why the text has no float64 form on the device
};

// The GLSL functions a translation calls (csb_sign, csb_min, csb_max, csb_pow): put once in the
// shader before the expression.
extern const char* const kGlslCheckHelpers;

// `text` as GLSL over `names`. The text has been parsed by muparser already (a manifest's check
// is refused at load when it does not): a text this parser cannot follow is refused, not thrown.
GlslTranslation CheckToGlsl(const std::string& text, const GlslNames& names);

// The same parse evaluated on the host in double, with `variable` and `call` giving the names'
// values: what the tests compare with muparser's own value of the text, so that the translation's
// grammar is muparser's. nullopt where the translation refuses the text.
std::optional<double> EvaluateParsed(const std::string& text, const std::function<double(const std::string&)>& variable,
                                     const std::function<double(const std::string&, const std::vector<double>&)>& call);

}  // namespace csbench
