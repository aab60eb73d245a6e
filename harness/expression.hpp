// Arithmetic over named variables, for the numbers a manifest writes as text ("W * H",
// "ceil(W / (WG_X * PER_ITEM))"): parsed and evaluated by muparser, a maintained library, so that
// csbench keeps no expression parser of its own. Beside muparser's built-ins (min, max, abs,
// sqrt, log2, rint, the operators and ?:) there are ceil and floor, which size dispatches.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace csbench {

// Why an expression cannot be used: it does not parse, names a variable it was not given, or
// (Evaluate) gives no finite number. `message` says which, with the position where muparser
// gives one.
struct ExpressionError {
  std::string message;
};

class Expression {
 public:
  // Parses `text` over `variables` (their names; the values come with each Evaluate). Throws
  // ExpressionError when the text does not parse or uses a name not in `variables`.
  Expression(const std::string& text, const std::vector<std::string>& variables);
  ~Expression();
  Expression(Expression&&) noexcept;
  Expression& operator=(Expression&&) noexcept;

  // The value with `values` (every variable named at construction; a missing one is an
  // ExpressionError). Throws ExpressionError for a result that is not finite (a division by
  // zero, log of a negative).
  double Evaluate(const std::map<std::string, double>& values);
  // The same, with the variables' values set in order (as named at construction): the fast path
  // for a per-element check.
  double EvaluateInOrder(const double* values);

  const std::string& text() const { return text_; }
  // The variables the text uses, of those it was given.
  std::vector<std::string> Used() const;

 private:
  struct Parser;
  std::string text_;
  std::vector<std::string> names_;
  std::unique_ptr<Parser> parser_;
};

// True when `name` can be a variable: a letter or '_', then letters, digits, '_'.
bool IsVariableName(const std::string& name);

}  // namespace csbench
