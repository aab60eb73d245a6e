// Arithmetic over named variables, for the numbers a manifest writes as text ("W * H",
// "ceil(W / (WG_X * PER_ITEM))"): parsed and evaluated by muparser, a maintained library, so that
// csbench keeps no expression parser of its own. Beside muparser's built-ins (min, max, abs,
// sqrt, log2, rint, the operators and ?:) there are ceil and floor, which size dispatches.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace csbench {

// The longest expression text, in characters (a manifest's [let] names counted as replaced).
inline constexpr size_t kMaxExpressionChars = 4096;

// Why an expression cannot be used: it does not parse, names a variable it was not given, or
// (Evaluate) gives no finite number. `message` says which, with the position where muparser
// gives one.
struct ExpressionError {
  std::string message;
  // EvaluateEach's point where the value was not finite (none: another error).
  size_t point = static_cast<size_t>(-1);
};

class Expression {
 public:
  // Parses `text` over `variables` (their names; the values come with each Evaluate). Throws
  // ExpressionError when the text does not parse or uses a name not in `variables`.
  // `functions`: names the text may call with any number of arguments (a check's neighbour reads,
  // `x(j)`, `img(px, py, c)`); a name may be a variable and a function both. Their values come
  // from the Call set before evaluating (SetCall).
  Expression(const std::string& text, const std::vector<std::string>& variables,
             const std::vector<std::string>& functions = {});
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
  // The value at each of `count` points into `out` (muparser's bulk mode: one pass of its
  // bytecode per chunk of points, several times faster than a call per point), large counts in
  // ranges on every host thread: `fill` (and a Call) must then be safe to call from several at once.
  // `fill(variable, start, n, values)` writes the values of variable `variable` (in the order
  // named at construction) at points start .. start + n - 1. Throws ExpressionError, naming the
  // point, for a result that is not finite.
  using Fill = std::function<void(size_t variable, size_t start, size_t n, double* values)>;
  void EvaluateEach(size_t count, const Fill& fill, double* out);
  // The same values, handed to `consume(start, n, values)` a chunk at a time (values[k] is point
  // start + k's) on the thread that evaluated them, instead of kept: a check of 134M points
  // compares as it goes, with no vector of 1 GiB to fill and read again. A chunk whose values are
  // not all finite is never handed on; the error is thrown as EvaluateEach's, once every thread
  // has stopped, so `consume` must be safe to call from several threads at once.
  using Consume = std::function<void(size_t start, size_t n, const double* values)>;
  void EvaluateChunks(size_t count, const Fill& fill, const Consume& consume);

  // The variables the text uses, of those it was given.
  std::vector<std::string> Used() const;

  // What function `function` (its index in the names given at construction) returns for its
  // `count` arguments. It may be called from several threads at once (muparser evaluates chunks in
  // parallel where it was built with OpenMP), and must not throw: a read it cannot answer returns
  // NaN and is reported by the caller after the evaluation fails.
  using Call = std::function<double(size_t function, const double* args, int count)>;
  void SetCall(Call call);

  // muparser's state (named here for its function callback).
  struct Parser;

 private:
  double Evaluated();  // one value from the variables' first slots
  // Into `out` where given, else chunk by chunk to `consume`.
  void Evaluate(size_t count, const Fill& fill, double* out, const Consume* consume);
  void EvaluateRange(size_t begin, size_t end, const Fill& fill, double* out, const Consume* consume);
  std::string text_;
  std::vector<std::string> names_;
  std::vector<std::string> functions_;
  std::unique_ptr<Parser> parser_;
};

// Each call of a function in `text`: the name before a '(' and its number of arguments (the commas
// at the call's own depth, plus one; 0 for "f()"), in order of appearance. Lexical: names that
// are no function are listed too, and the caller picks its own.
struct FunctionCall {
  std::string name;
  int arguments = 0;
};
std::vector<FunctionCall> FunctionCalls(const std::string& text);

// True when `name` can be a variable: a letter or '_', then letters, digits, '_'.
bool IsVariableName(const std::string& name);

}  // namespace csbench
