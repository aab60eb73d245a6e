// A check expression as GLSL (check_glsl.hpp): a parse of muparser's grammar into a tree, written
// out as GLSL or evaluated on the host for the tests.
#include "harness/manifest/check_glsl.hpp"

#include <fmt/format.h>

#include <cmath>
#include <initializer_list>
#include <cstdlib>
#include <memory>
#include <numbers>
#include <set>

namespace csbench {

namespace {

// The highest whole power ^ is written out for: x^16 is 15 multiplications.
constexpr int kMostPower = 16;

struct Node {
  enum class Kind { kNumber, kVariable, kCall, kNegate, kBinary, kChoose };
  Kind kind = Kind::kNumber;
  double number = 0;
  std::string name;  // a variable's or function's; a binary operator's text
  std::vector<std::unique_ptr<Node>> parts;
};
using NodePtr = std::unique_ptr<Node>;

// Thrown inside the parser: the text has no float64 form (or is not one this parser follows).
struct Refused {
  std::string why;
};

// muparser's built-in functions with an exact float64 form, and the least and most arguments.
const std::map<std::string, std::pair<int, int>>& ExactFunctions() {
  static const std::map<std::string, std::pair<int, int>> functions = {
      {"abs", {1, 1}},   {"sign", {1, 1}}, {"rint", {1, 1}}, {"floor", {1, 1}}, {"ceil", {1, 1}},
      {"sqrt", {1, 1}},  {"min", {1, 64}}, {"max", {1, 64}}, {"sum", {1, 64}},  {"avg", {1, 64}}};
  return functions;
}

class Parser {
 public:
  explicit Parser(const std::string& text) : text_(text) {}

  NodePtr Whole() {
    NodePtr node = Choose();
    Skip();
    if (at_ < text_.size()) throw Refused{fmt::format("unexpected '{}' at position {}", text_[at_], at_ + 1)};
    return node;
  }

 private:
  void Skip() {
    while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\t')) ++at_;
  }
  bool Eat(std::string_view token) {
    Skip();
    if (text_.compare(at_, token.size(), token) != 0) return false;
    // "<" is not the start of "<=", nor "=" of "==".
    if (token.size() == 1 && (token == "<" || token == ">" || token == "=" || token == "!") &&
        at_ + 1 < text_.size() && text_[at_ + 1] == '=') {
      return false;
    }
    at_ += token.size();
    return true;
  }
  static NodePtr Binary(std::string op, NodePtr a, NodePtr b) {
    auto node = std::make_unique<Node>();
    node->kind = Node::Kind::kBinary;
    node->name = std::move(op);
    node->parts.push_back(std::move(a));
    node->parts.push_back(std::move(b));
    return node;
  }

  // a ? b : c, right to left.
  NodePtr Choose() {
    NodePtr condition = Or();
    if (!Eat("?")) return condition;
    NodePtr then = Choose();
    if (!Eat(":")) throw Refused{"a ? without its :"};
    NodePtr otherwise = Choose();
    auto node = std::make_unique<Node>();
    node->kind = Node::Kind::kChoose;
    node->parts.push_back(std::move(condition));
    node->parts.push_back(std::move(then));
    node->parts.push_back(std::move(otherwise));
    return node;
  }
  // Operators of one precedence, left to right, between the parts `next` reads.
  NodePtr LeftToRight(NodePtr (Parser::*next)(), std::initializer_list<const char*> operators) {
    NodePtr a = (this->*next)();
    for (;;) {
      const char* found = nullptr;
      for (const char* op : operators) {
        if (Eat(op)) {
          found = op;
          break;
        }
      }
      if (found == nullptr) return a;
      a = Binary(found, std::move(a), (this->*next)());
    }
  }
  NodePtr Or() { return LeftToRight(&Parser::And, {"||"}); }
  NodePtr And() { return LeftToRight(&Parser::Compare, {"&&"}); }
  NodePtr Compare() { return LeftToRight(&Parser::Sum, {"<=", ">=", "==", "!=", "<", ">"}); }
  NodePtr Sum() { return LeftToRight(&Parser::Product, {"+", "-"}); }
  NodePtr Product() { return LeftToRight(&Parser::Signed, {"*", "/"}); }
  // A sign binds looser than ^ (muparser's: -2^2 is -4).
  NodePtr Signed() {
    if (Eat("-")) {
      auto node = std::make_unique<Node>();
      node->kind = Node::Kind::kNegate;
      node->parts.push_back(Signed());
      return node;
    }
    if (Eat("+")) return Signed();
    return Power();
  }
  // a ^ b, right to left; the exponent may carry a sign.
  NodePtr Power() {
    NodePtr base = Primary();
    if (!Eat("^")) return base;
    return Binary("^", std::move(base), Signed());
  }
  NodePtr Primary() {
    Skip();
    if (at_ >= text_.size()) throw Refused{"the expression ends early"};
    if (Eat("(")) {
      NodePtr inner = Choose();
      if (!Eat(")")) throw Refused{"a ( without its )"};
      return inner;
    }
    const char c = text_[at_];
    if ((c >= '0' && c <= '9') || c == '.') return Number();
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_')) {
      throw Refused{fmt::format("unexpected '{}' at position {}", c, at_ + 1)};
    }
    const size_t start = at_;
    while (at_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[at_])) != 0 || text_[at_] == '_' ||
                                  text_[at_] == '.')) {
      ++at_;
    }
    auto node = std::make_unique<Node>();
    node->name = text_.substr(start, at_ - start);
    Skip();
    if (at_ < text_.size() && text_[at_] == '(') {
      ++at_;
      node->kind = Node::Kind::kCall;
      if (!Eat(")")) {
        do {
          node->parts.push_back(Choose());
        } while (Eat(","));
        if (!Eat(")")) throw Refused{fmt::format("{}( without its )", node->name)};
      }
      return node;
    }
    if (node->name == "_pi" || node->name == "_e") {
      node->kind = Node::Kind::kNumber;
      node->number = node->name == "_pi" ? std::numbers::pi : std::numbers::e;
      return node;
    }
    node->kind = Node::Kind::kVariable;
    return node;
  }
  NodePtr Number() {
    const char* begin = text_.c_str() + at_;
    char* end = nullptr;
    const double value = std::strtod(begin, &end);
    if (end == begin) throw Refused{fmt::format("a number that does not read at position {}", at_ + 1)};
    at_ += static_cast<size_t>(end - begin);
    auto node = std::make_unique<Node>();
    node->number = value;
    return node;
  }

  const std::string& text_;
  size_t at_ = 0;
};

// A number cut to a whole one as a C++ cast to int does it on the hosts csbench runs on (x86's and
// ARM's conversions give a NaN or a number out of range as one not 0).
int64_t Whole(double v) {
  if (std::isnan(v) || std::abs(v) >= 2147483648.0) return 1;
  return static_cast<int64_t>(v);
}

// muparser's built-in function `f` of exact float64 form at `args`.
double Exact(const std::string& f, const std::vector<double>& args) {
  if (f == "abs") return std::abs(args[0]);
  if (f == "floor") return std::floor(args[0]);
  if (f == "ceil") return std::ceil(args[0]);
  if (f == "sqrt") return std::sqrt(args[0]);
  // muparser's rint is floor(v + 0.5): halves go up, not to even.
  if (f == "rint") return std::floor(args[0] + 0.5);
  if (f == "sign") return args[0] < 0 ? -1 : args[0] > 0 ? 1 : 0;
  double v = f == "sum" || f == "avg" ? 0.0 + args[0] : args[0];
  for (size_t k = 1; k < args.size(); ++k) v = f == "min" ? std::min(v, args[k]) : f == "max" ? std::max(v, args[k]) : v + args[k];
  return f == "avg" ? v / static_cast<double>(args.size()) : v;
}

// Binary operator `op` at (a, b), as muparser computes it: `folded`, as it folds numbers alone when
// it reads the text, taking the operands of && and || as whole numbers cut toward zero (0.5 is
// false); else as it evaluates, any number not 0 being true (0.5 is true).
double Apply(const std::string& op, double a, double b, bool folded) {
  if (op == "^") return std::pow(a, b);
  if (op == "+") return a + b;
  if (op == "-") return a - b;
  if (op == "*") return a * b;
  if (op == "/") return a / b;
  if (op == "&&" || op == "||") {
    const bool x = folded ? Whole(a) != 0 : a != 0, y = folded ? Whole(b) != 0 : b != 0;
    return (op == "&&" ? (x && y) : (x || y)) ? 1 : 0;
  }
  if (op == "<") return a < b ? 1 : 0;
  if (op == ">") return a > b ? 1 : 0;
  if (op == "<=") return a <= b ? 1 : 0;
  if (op == ">=") return a >= b ? 1 : 0;
  if (op == "==") return a == b ? 1 : 0;
  return a != b ? 1 : 0;
}

// The value of a part made of numbers and operators alone (2, -3, 3^2), as muparser folds it. Its
// parts of numbers alone are folded when the text is parsed, the way muparser folds them.
std::optional<double> Constant(const Node& node) {
  std::vector<double> parts;
  for (const NodePtr& part : node.parts) {
    const std::optional<double> value = Constant(*part);
    if (!value) return std::nullopt;
    parts.push_back(*value);
  }
  switch (node.kind) {
    case Node::Kind::kNumber:
      return node.number;
    case Node::Kind::kNegate:
      return -parts[0];
    case Node::Kind::kBinary:
      return Apply(node.name, parts[0], parts[1], true);
    case Node::Kind::kCall: {
      // muparser folds its functions of one argument, not those of any number (min, max, sum, avg).
      auto exact = ExactFunctions().find(node.name);
      if (exact == ExactFunctions().end() || exact->second.second != 1 || parts.size() != 1) return std::nullopt;
      return Exact(node.name, parts);
    }
    default:
      return std::nullopt;
  }
}

// A whole power of -kMostPower .. kMostPower: an exponent of numbers alone.
std::optional<int> WholePower(const Node& exponent) {
  const std::optional<double> value = Constant(exponent);
  if (!value || *value != std::floor(*value) || std::abs(*value) > kMostPower) return std::nullopt;
  return static_cast<int>(*value);
}

std::string Literal(double value) {
  std::string text = fmt::format("{:.17g}", value);
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text + "LF";
}

std::string Glsl(const Node& node, const GlslNames& names) {
  switch (node.kind) {
    case Node::Kind::kNumber:
      return Literal(node.number);
    case Node::Kind::kVariable: {
      auto it = names.variables.find(node.name);
      if (it == names.variables.end()) throw Refused{fmt::format("{} has no value on the device", node.name)};
      return it->second;
    }
    case Node::Kind::kNegate:
      return fmt::format("(-{})", Glsl(*node.parts[0], names));
    case Node::Kind::kChoose:
      return fmt::format("({} != 0.0LF ? {} : {})", Glsl(*node.parts[0], names), Glsl(*node.parts[1], names),
                         Glsl(*node.parts[2], names));
    case Node::Kind::kBinary: {
      const std::string& op = node.name;
      if (op == "^") {
        const std::optional<int> power = WholePower(*node.parts[1]);
        if (!power) {
          throw Refused{"^ to a power that is not a whole number from -16 to 16 (GLSL has no float64 pow)"};
        }
        const std::string base = Glsl(*node.parts[0], names);
        const std::string positive = fmt::format("csb_pow({}, {})", base, std::abs(*power));
        return *power < 0 ? fmt::format("(1.0LF / {})", positive) : positive;
      }
      const std::string a = Glsl(*node.parts[0], names), b = Glsl(*node.parts[1], names);
      if (op == "+" || op == "-" || op == "*" || op == "/") return fmt::format("({} {} {})", a, op, b);
      if (op == "&&" || op == "||") {
        if (const std::optional<double> folded = Constant(node)) return Literal(*folded);
        return fmt::format("(({} != 0.0LF) {} ({} != 0.0LF) ? 1.0LF : 0.0LF)", a, op, b);
      }
      return fmt::format("({} {} {} ? 1.0LF : 0.0LF)", a, op, b);
    }
    case Node::Kind::kCall: {
      std::vector<std::string> args;
      for (const NodePtr& part : node.parts) args.push_back(Glsl(*part, names));
      const int count = static_cast<int>(args.size());
      if (auto f = names.functions.find(node.name); f != names.functions.end()) {
        if (count < f->second.least || count > f->second.most) {
          throw Refused{fmt::format("{} with {} arguments", node.name, count)};
        }
        // Every read takes its most arguments; those not given are 0 (an image's channel).
        while (static_cast<int>(args.size()) < f->second.most) args.push_back("0.0LF");
        return fmt::format("{}({})", f->second.glsl, fmt::join(args, ", "));
      }
      auto exact = ExactFunctions().find(node.name);
      if (exact == ExactFunctions().end()) {
        throw Refused{fmt::format("{}() has no float64 form in GLSL", node.name)};
      }
      if (count < exact->second.first || count > exact->second.second) {
        throw Refused{fmt::format("{} with {} arguments", node.name, count)};
      }
      const std::string& f = node.name;
      if (f == "abs" || f == "floor" || f == "ceil" || f == "sqrt") return fmt::format("{}({})", f, args[0]);
      // muparser's rint is floor(v + 0.5): halves go up, not to even.
      if (f == "rint") return fmt::format("floor({} + 0.5LF)", args[0]);
      if (f == "sign") return fmt::format("csb_sign({})", args[0]);
      // min and max as std::min and std::max take them, pair by pair from the left (muparser's).
      std::string value = f == "sum" || f == "avg" ? fmt::format("(0.0LF + {})", args[0]) : args[0];
      for (size_t k = 1; k < args.size(); ++k) {
        value = f == "min"   ? fmt::format("csb_min({}, {})", value, args[k])
                : f == "max" ? fmt::format("csb_max({}, {})", value, args[k])
                             : fmt::format("({} + {})", value, args[k]);
      }
      return f == "avg" ? fmt::format("({} / {})", value, Literal(static_cast<double>(args.size()))) : value;
    }
  }
  return "";
}

double Evaluated(const Node& node, const std::function<double(const std::string&)>& variable,
                 const std::function<double(const std::string&, const std::vector<double>&)>& call) {
  auto value = [&](size_t k) { return Evaluated(*node.parts[k], variable, call); };
  switch (node.kind) {
    case Node::Kind::kNumber:
      return node.number;
    case Node::Kind::kVariable:
      return variable(node.name);
    case Node::Kind::kNegate:
      return -value(0);
    case Node::Kind::kChoose:
      return value(0) != 0 ? value(1) : value(2);
    case Node::Kind::kBinary:
      // An && or || of numbers alone is folded, as muparser folds it.
      return Apply(node.name, value(0), value(1), Constant(node).has_value());
    case Node::Kind::kCall: {
      std::vector<double> args;
      for (size_t k = 0; k < node.parts.size(); ++k) args.push_back(value(k));
      const std::string& f = node.name;
      auto exact = ExactFunctions().find(f);
      if (exact == ExactFunctions().end()) return call(f, args);
      const int count = static_cast<int>(args.size());
      if (count < exact->second.first || count > exact->second.second) {
        throw Refused{fmt::format("{} with {} arguments", f, count)};
      }
      return Exact(f, args);
    }
  }
  return 0;
}

// Refuses what the GLSL would refuse (a function without a float64 form, a power it does not
// write out), so that the host evaluation of the tests covers exactly the translated texts.
void RefuseInexact(const Node& node, const std::set<std::string>& reads) {
  if (node.kind == Node::Kind::kCall && !reads.contains(node.name) && !ExactFunctions().contains(node.name)) {
    throw Refused{fmt::format("{}() has no float64 form in GLSL", node.name)};
  }
  if (node.kind == Node::Kind::kBinary && node.name == "^" && !WholePower(*node.parts[1])) {
    throw Refused{"^ to a power that is not a whole number"};
  }
  for (const NodePtr& part : node.parts) RefuseInexact(*part, reads);
}

}  // namespace

GlslTranslation CheckToGlsl(const std::string& text, const GlslNames& names) {
  try {
    Parser parser(text);
    const NodePtr tree = parser.Whole();
    return {.glsl = Glsl(*tree, names)};
  } catch (const Refused& r) {
    return {.refused = r.why};
  }
}

std::optional<double> EvaluateParsed(const std::string& text, const std::function<double(const std::string&)>& variable,
                                     const std::function<double(const std::string&, const std::vector<double>&)>& call) {
  try {
    Parser parser(text);
    const NodePtr tree = parser.Whole();
    // Any name not a built-in is a read here.
    std::set<std::string> reads;
    std::function<void(const Node&)> collect = [&](const Node& n) {
      if (n.kind == Node::Kind::kCall && !ExactFunctions().contains(n.name)) reads.insert(n.name);
      for (const NodePtr& part : n.parts) collect(*part);
    };
    collect(*tree);
    for (const char* inexact : {"sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh",
                                "atanh", "atan2", "log2", "log10", "log", "ln", "exp"}) {
      reads.erase(inexact);
    }
    RefuseInexact(*tree, reads);
    return Evaluated(*tree, variable, call);
  } catch (const Refused&) {
    return std::nullopt;
  }
}

// The helpers every translated expression may call: muparser's sign, min and max (std::min and
// std::max's order, so that a NaN goes where the host's does), a whole power by multiplications.
const char* const kGlslCheckHelpers = R"(double csb_sign(double v) { return v < 0.0LF ? -1.0LF : (v > 0.0LF ? 1.0LF : 0.0LF); }
double csb_min(double a, double b) { return b < a ? b : a; }
double csb_max(double a, double b) { return a < b ? b : a; }
double csb_pow(double a, int n) {
  double r = 1.0LF;
  for (int k = 0; k < n; ++k) r *= a;
  return r;
}
)";

}  // namespace csbench
