#include "harness/manifest/expression.hpp"

#include <fmt/format.h>
#include <muParser.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <optional>
#include <regex>
#include <vector>

#include "harness/base/fork_join.hpp"

namespace csbench {

namespace {

// Points evaluated per pass of EvaluateColumns: each variable's storage holds this many values.
constexpr size_t kChunk = 4096;

}  // namespace

// muparser, where it was built with OpenMP (Debian's is), evaluates each bulk call on a team of up
// to 16 OpenMP threads. EvaluateEach already spreads its ranges over every host thread, so each
// of those would open a team of its own: 16 x 16 threads on 16 cores, spinning at each chunk's
// barrier. An evaluating thread asks for a team of one. Weak: where muparser brought no OpenMP
// runtime, the symbol is absent and there is no team to shrink.
extern "C" void omp_set_num_threads(int) __attribute__((weak));

namespace {

void OneOpenMpThread() {
  thread_local bool done = false;
  if (done || omp_set_num_threads == nullptr) return;
  omp_set_num_threads(1);
  done = true;
}

}  // namespace

struct Expression::Parser {
  mu::Parser parser;
  // Each function's index, as muparser hands it back to Called; and what answers the calls.
  struct Function {
    Parser* parser = nullptr;
    size_t index = 0;
  };
  std::vector<std::unique_ptr<Function>> functions;
  Call call;
  // The variables' storage, `per_variable` values per name, in order: muparser reads the first of
  // each in a single evaluation, and kChunk of each in bulk mode. One each until a bulk evaluation
  // asks for more (Widen): most expressions are evaluated one point at a time, and a manifest of
  // many passes and buffers makes thousands of them, each naming every variable of its scope.
  std::vector<double> slots;
  size_t per_variable = 1;
  double& Slot(size_t variable, size_t point = 0) { return slots[variable * per_variable + point]; }
  void Bind(const std::vector<std::string>& names) {
    for (size_t i = 0; i < names.size(); ++i) parser.DefineVar(names[i], &Slot(i));
  }
  // kChunk values per variable, the first ones kept; the variables bound again to their new
  // storage (muparser parses the text again on its next evaluation).
  void Widen(const std::vector<std::string>& names) {
    if (per_variable == kChunk) return;
    std::vector<double> wide(names.size() * kChunk, 1.0);
    for (size_t i = 0; i < names.size(); ++i) wide[i * kChunk] = Slot(i);
    slots = std::move(wide);
    per_variable = kChunk;
    Bind(names);
  }
};

namespace {

double Ceil(double x) { return std::ceil(x); }

// muparser's callback for a function of any number of arguments: to the expression's Call.
double Called(void* data, const double* args, int count) {
  const auto* f = static_cast<const Expression::Parser::Function*>(data);
  if (!f->parser->call) return std::numeric_limits<double>::quiet_NaN();
  return f->parser->call(f->index, args, count);
}
double Floor(double x) { return std::floor(x); }

std::string MessageOf(const mu::Parser::exception_type& e) {
  std::string message = e.GetMsg();
  // A name that is no variable and no function: muparser calls it an unexpected token.
  if (e.GetCode() == mu::ecUNASSIGNABLE_TOKEN && IsVariableName(e.GetToken())) {
    message = fmt::format("unknown name '{}'", e.GetToken());
  }
  // muparser counts positions from 0 and writes them into most messages; a user counts
  // characters from 1: the message keeps one position, the user's.
  static const std::regex kPosition(R"(\s*\(position: \d+\)|\s+at (expression )?position \d+)");
  message = std::regex_replace(message, kPosition, "");
  if (message.ends_with('.')) message.pop_back();
  if (e.GetPos() >= 0 && static_cast<size_t>(e.GetPos()) <= e.GetExpr().size()) {
    message += fmt::format(" (at character {})", e.GetPos() + 1);
  }
  return message;
}

}  // namespace

bool IsVariableName(const std::string& name) {
  if (name.empty() || name.size() > 64) return false;
  auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (!letter(name[0])) return false;
  for (char c : name) {
    if (!letter(c) && !(c >= '0' && c <= '9')) return false;
  }
  return true;
}

Expression::Expression(const std::string& text, const std::vector<std::string>& variables,
                       const std::vector<std::string>& functions)
    : text_(text), names_(variables), functions_(functions), parser_(std::make_unique<Parser>()) {
  // muparser copes with any bytes, but a manifest's expression is a short line of arithmetic:
  // refuse what cannot be one before the library sees it.
  if (text.empty()) throw ExpressionError{"an empty expression"};
  if (text.size() > kMaxExpressionChars) {
    throw ExpressionError{fmt::format("an expression of {} characters (at most {})", text.size(), kMaxExpressionChars)};
  }
  for (char c : text) {
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e) {
      throw ExpressionError{"an expression may hold printable ASCII characters only"};
    }
  }
  parser_->slots.assign(names_.size(), 1.0);
  try {
    parser_->parser.DefineFun("ceil", Ceil);
    parser_->parser.DefineFun("floor", Floor);
    // A struct buffer's member is a variable "buffer.member": names may then hold '.'.
    if (std::any_of(names_.begin(), names_.end(), [](const std::string& n) { return n.find('.') != std::string::npos; })) {
      parser_->parser.DefineNameChars("0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.");
    }
    parser_->Bind(names_);
    for (size_t i = 0; i < functions.size(); ++i) {
      parser_->functions.push_back(std::make_unique<Parser::Function>(Parser::Function{parser_.get(), i}));
      // Not folded at parse time: a call's value is the data's, known only when evaluated.
      parser_->parser.DefineFunUserData(functions[i], Called, parser_->functions.back().get(), false);
    }
    parser_->parser.SetExpr(text);
    // muparser parses on first evaluation: do it now, so that a syntax error or an unknown name
    // is reported when the manifest loads, not when a benchmark runs. The value is not used.
    parser_->parser.Eval();
  } catch (const mu::Parser::exception_type& e) {
    throw ExpressionError{MessageOf(e)};
  }
}

Expression::~Expression() = default;
Expression::Expression(Expression&&) noexcept = default;
Expression& Expression::operator=(Expression&&) noexcept = default;

double Expression::Evaluate(const std::map<std::string, double>& values) {
  for (size_t i = 0; i < names_.size(); ++i) {
    auto it = values.find(names_[i]);
    if (it == values.end()) throw ExpressionError{fmt::format("no value for {}", names_[i])};
    parser_->Slot(i) = it->second;
  }
  return Evaluated();
}

double Expression::EvaluateInOrder(const double* values) {
  for (size_t i = 0; i < names_.size(); ++i) parser_->Slot(i) = values[i];
  return Evaluated();
}

void Expression::EvaluateEach(size_t count, const Fill& fill, double* out) {
  Evaluate(count, fill, out, nullptr);
}

void Expression::EvaluateChunks(size_t count, const Fill& fill, const Consume& consume) {
  Evaluate(count, fill, nullptr, &consume);
}

void Expression::Evaluate(size_t count, const Fill& fill, double* out, const Consume* consume) {
  // Off the measured path (a case's inputs and checks): ranges of points on every host thread, each
  // with a parser of its own (muparser's is not shared between threads), the small ones here.
  constexpr size_t kGrain = 16 * kChunk;
  if (count <= kGrain) {
    EvaluateRange(0, count, fill, out, consume);
    return;
  }
  ParallelFor(
      count, kGrain,
      [&](size_t begin, size_t end) {
        Expression local(text_, names_, functions_);
        local.parser_->call = parser_->call;
        local.EvaluateRange(begin, end, fill, out, consume);
      },
      kChunk);
}

void Expression::EvaluateRange(size_t begin, size_t end, const Fill& fill, double* out, const Consume* consume) {
  OneOpenMpThread();
  // Only the variables the text uses are filled: a check's expression names two inputs of the
  // dozen (indices, sizes, each input's sum and extremes) it could.
  std::vector<size_t> used;
  const std::vector<std::string> used_names = Used();
  for (size_t v = 0; v < names_.size(); ++v) {
    if (std::find(used_names.begin(), used_names.end(), names_[v]) != used_names.end()) used.push_back(v);
  }
  try {
    parser_->Widen(names_);
  } catch (const mu::Parser::exception_type& e) {
    throw ExpressionError{MessageOf(e)};
  }
  // Without `out`, each chunk's values live in one chunk of this thread's, handed to `consume`.
  std::vector<double> chunk(out == nullptr ? std::min(kChunk, end - begin) : 0);
  for (size_t start = begin; start < end; start += kChunk) {
    const size_t n = std::min(kChunk, end - start);
    double* values = out != nullptr ? out + start : chunk.data();
    for (size_t v : used) fill(v, start, n, &parser_->Slot(v));
    try {
      parser_->parser.Eval(values, static_cast<int>(n));
    } catch (const mu::Parser::exception_type& e) {
      throw ExpressionError{MessageOf(e)};
    }
    for (size_t k = 0; k < n; ++k) {
      if (!std::isfinite(values[k])) {
        throw ExpressionError{fmt::format("gives {} at point {} (a division by zero, or a function outside its domain)",
                                          values[k], start + k),
                              start + k};
      }
    }
    if (consume != nullptr) (*consume)(start, n, values);
  }
}

double Expression::Evaluated() {
  double value = 0;
  try {
    value = parser_->parser.Eval();
  } catch (const mu::Parser::exception_type& e) {
    throw ExpressionError{MessageOf(e)};
  }
  if (!std::isfinite(value)) {
    throw ExpressionError{fmt::format("gives {} (a division by zero, or a function outside its domain)", value)};
  }
  return value;
}

void Expression::SetCall(Call call) { parser_->call = std::move(call); }

std::vector<FunctionCall> FunctionCalls(const std::string& text) {
  std::vector<FunctionCall> calls;
  // Per open parenthesis: the call it opens (an index into calls) or none, and whether an argument
  // has been seen at its depth.
  struct Open {
    std::optional<size_t> call;
    bool any = false;
  };
  std::vector<Open> open;
  auto name_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; };
  for (size_t at = 0; at < text.size(); ++at) {
    const char c = text[at];
    if (c == '(') {
      size_t start = at;
      while (start > 0 && name_char(text[start - 1])) --start;
      Open o;
      if (start < at && !std::isdigit(static_cast<unsigned char>(text[start]))) {
        calls.push_back({text.substr(start, at - start), 0});
        o.call = calls.size() - 1;
      }
      if (!open.empty()) open.back().any = true;
      open.push_back(o);
    } else if (c == ')') {
      if (open.empty()) continue;  // muparser reports the imbalance
      if (open.back().call && open.back().any) ++calls[*open.back().call].arguments;
      open.pop_back();
    } else if (c == ',') {
      if (!open.empty() && open.back().call) ++calls[*open.back().call].arguments;
    } else if (c != ' ' && !open.empty()) {
      open.back().any = true;
    }
  }
  return calls;
}

std::vector<std::string> Expression::Used() const {
  std::vector<std::string> used;
  try {
    for (const auto& [name, pointer] : parser_->parser.GetUsedVar()) used.push_back(name);
  } catch (const mu::Parser::exception_type&) {
  }
  return used;
}

}  // namespace csbench
