// Stage 1, read: [[buffer]] tables (their init, slots and check keys).
#include "harness/manifest/manifest.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "harness/manifest/reader.hpp"
#include "harness/manifest/stage.hpp"

namespace csbench {
using namespace manifest_detail;

namespace manifest_detail {

std::optional<std::string> InitValueProblem(const ElementType& type, double value) {
  const int bits = static_cast<int>(8 * type.scalar_bytes);
  const double least = type.scalar == Scalar::kInt ? -std::ldexp(1.0, bits - 1) : 0;
  const double most = type.scalar == Scalar::kInt ? std::ldexp(1.0, bits - 1) - 1 : std::ldexp(1.0, bits) - 1;
  if (type.scalar != Scalar::kFloat && (value != std::floor(value) || value < least || value > most) &&
      // A 32-bit buffer took any whole number of 32 bits, signed or not, before types had widths.
      !(bits == 32 && value == std::floor(value) && value >= -2147483648.0 && value <= 4294967295.0)) {
    return fmt::format("{}: an {} buffer takes a whole number that fits {} bits", value, type.glsl, bits);
  }
  if (type.scalar == Scalar::kFloat && type.scalar_bytes == 2 && std::abs(value) > 65504) {
    return fmt::format("{}: beyond a 16-bit float", value);
  }
  if (type.scalar == Scalar::kFloat && type.scalar_bytes == 4 && std::abs(value) > 3.4028234663852886e38) {
    return fmt::format("{}: beyond a 32-bit float", value);
  }
  return std::nullopt;
}

ManifestBuffer::MemberInit ReadInit(const Reader& r, const toml::node& init, const std::string& where,
                                    const ElementType* type) {
  ManifestBuffer::MemberInit b;
  b.line = Reader::LineOf(init);
  if (init.is_integer() || init.is_floating_point()) {
    b.init = ManifestBuffer::Init::kValue;
    b.value = init.is_integer() ? static_cast<double>(init.as_integer()->get()) : init.as_floating_point()->get();
    if (!std::isfinite(b.value)) r.Fail(b.line, where, "expected a finite number");
    if (type != nullptr) {
      if (auto problem = InitValueProblem(*type, b.value)) r.Fail(b.line, where, *problem);
    }
  } else if (init.is_string() && init.as_string()->get() == "random") {
    b.init = ManifestBuffer::Init::kRandom;
  } else if (init.is_string() && init.as_string()->get() == "zero") {
    b.init = ManifestBuffer::Init::kZero;
  } else if (init.is_string() && init.as_string()->get() == "iota") {
    b.init = ManifestBuffer::Init::kIota;
  } else if (init.is_string()) {
    b.init = ManifestBuffer::Init::kExpression;
    b.expression = r.Expanded(init.as_string()->get(), b.line, where);
    r.CheckExpression(InitExpressionText(b.expression), InitVariables(), b.line, where);
  } else {
    r.Fail(b.line, where,
           type != nullptr && init.is_table()
               ? "a table of member = init is for type = \"struct\" buffers"
               : "expected \"random\", \"zero\", \"iota\", a number or an expression of i, c and rand()"
                 " (a struct buffer: or a table by member)");
  }
  return b;
}

std::vector<SlotPlace> ReadSlots(const Reader& r, const toml::table& t, const std::string& where, uint32_t line) {
  std::vector<SlotPlace> slots;
  // "set 0 binding 2", and " element 1" for an array's element past the first.
  auto text = [](SlotPlace slot) {
    return fmt::format("set {} binding {}{}", slot.set, slot.binding,
                       slot.element != 0 ? fmt::format(" element {}", slot.element) : "");
  };
  if (const toml::node* list = t.get("bindings")) {
    if (t.get("binding") != nullptr || t.get("set") != nullptr) {
      r.Fail(Reader::LineOf(*list), where + ".bindings", "give bindings or binding (and set), not both");
    }
    if (t.get("element") != nullptr) {
      r.Fail(Reader::LineOf(*list), where + ".bindings",
             "element goes with binding: in bindings, give [set, binding, element] triples");
    }
    if (!list->is_array() || list->as_array()->empty() || list->as_array()->size() > 64) {
      r.Fail(Reader::LineOf(*list), where + ".bindings", "expected a list of [set, binding] pairs, e.g. [[0, 0], [1, 0]]");
    }
    for (const toml::node& pair : *list->as_array()) {
      const toml::array* two = pair.as_array();
      auto number = [&](size_t k, int64_t most) {
        const toml::node* n = two->get(k);
        return n != nullptr && n->is_integer() && n->as_integer()->get() >= 0 && n->as_integer()->get() <= most;
      };
      // [set, binding], or [set, binding, element] for an element of an array of descriptors.
      if (two == nullptr || (two->size() != 2 && two->size() != 3) || !number(0, 31) || !number(1, 1023) ||
          (two->size() == 3 && !number(2, 1023))) {
        r.Fail(Reader::LineOf(pair), where + ".bindings",
               "expected [set, binding] pairs: a set from 0 to 31 and a binding from 0 to 1023 (or [set, binding, "
               "element] triples: the element of an array of descriptors, from 0 to 1023)");
      }
      SlotPlace slot{static_cast<uint32_t>(two->get(0)->as_integer()->get()),
                     static_cast<uint32_t>(two->get(1)->as_integer()->get())};
      if (two->size() == 3) slot.element = static_cast<uint32_t>(two->get(2)->as_integer()->get());
      if (std::find(slots.begin(), slots.end(), slot) != slots.end()) {
        r.Fail(Reader::LineOf(pair), where + ".bindings", fmt::format("{} is listed twice", text(slot)));
      }
      slots.push_back(slot);
    }
    return slots;
  }
  const toml::node* binding = t.get("binding");
  if (binding == nullptr || !binding->is_integer()) {
    r.Fail(line, where + ".binding", "expected an integer binding (or bindings = [[set, binding], ...])");
  }
  const int64_t value = binding->as_integer()->get();
  if (value < 0 || value > 1023) r.Fail(line, where + ".binding", fmt::format("{}: expected 0 to 1023", value));
  SlotPlace slot{0, static_cast<uint32_t>(value)};
  if (const toml::node* set = t.get("set")) {
    if (!set->is_integer() || set->as_integer()->get() < 0 || set->as_integer()->get() > 31) {
      r.Fail(Reader::LineOf(*set), where + ".set", "expected a descriptor set from 0 to 31");
    }
    slot.set = static_cast<uint32_t>(set->as_integer()->get());
  }
  if (const toml::node* element = t.get("element")) {
    if (!element->is_integer() || element->as_integer()->get() < 0 || element->as_integer()->get() > 1023) {
      r.Fail(Reader::LineOf(*element), where + ".element",
             "expected the element of the binding's array of descriptors: an integer from 0 to 1023");
    }
    slot.element = static_cast<uint32_t>(element->as_integer()->get());
  }
  return {slot};
}

void ReadBuffers(const Reader& r, const toml::array& buffers, Manifest& m) {
  std::set<std::string> names;
  std::set<SlotPlace> bindings;
  for (const toml::node& node : buffers) {
    const toml::table& t = *node.as_table();
    const uint32_t line = Reader::LineOf(t);
    r.OnlyKeys(t, "[[buffer]]", {"name", "binding", "set", "element", "bindings", "type", "count", "init", "output", "restore",
                                   "header", "expect"});
    ManifestBuffer b;
    b.line = line;
    b.name = *r.String(t, "[[buffer]]", "name", true);
    const std::string where = fmt::format("[[buffer]] {}", Quoted(b.name));
    if (!IsVariableName(b.name) || kReservedNames.contains(b.name)) {
      r.Fail(line, where + ".name",
             "expected a name of letters, digits and '_' that starts with a letter and is not W, H, WG_X, WG_Y, SUBGROUP_SIZE, VENDOR_ID, DEVICE_ID or i "
             "(check expressions use it as a variable)");
    }
    if (!names.insert(b.name).second) r.Fail(line, where + ".name", "two buffers have this name");
    b.slots = ReadSlots(r, t, where, line);
    b.set = b.slots.front().set;
    b.binding = b.slots.front().binding;
    for (const SlotPlace& slot : b.slots) {
      if (!bindings.insert(slot).second) {
        r.Fail(line, where + ".binding",
               fmt::format("set {} binding {}{} is given to two buffers", slot.set, slot.binding,
                           slot.element != 0 || t.get("element") != nullptr ? fmt::format(" element {}", slot.element)
                                                                           : ""));
      }
    }
    const std::string type = *r.String(t, where, "type", true);
    const ElementType* element = FindElementType(type);
    if (element == nullptr) {
      r.Fail(line, where + ".type",
             fmt::format("{}: expected a std430 element type: a scalar (float, int, uint, float16_t, int8_t, "
                         "uint8_t, int16_t, uint16_t, int64_t, uint64_t, double), a vector of 2 to 4 of one "
                         "(vec4, ivec2, uvec3, f16vec4, i8vec4, u16vec2, dvec2, ...) or \"struct\"",
                         Quoted(type)));
    }
    b.type = *element;
    auto count = r.ExpressionText(t.get("count"), where + ".count");
    if (!count) r.Fail(line, where + ".count", "missing: expected the number of elements (e.g. \"W * H\")");
    b.count = *count;
    b.output = r.Bool(t, where, "output");
    // `init = { file = ... }` and `expect` (read_files.cpp); a file init is read there alone.
    const bool init_file = ReadBufferFiles(r, t, where, b);
    if (const toml::node* init = t.get("init"); init != nullptr && !init_file) {
      b.init_given = true;
      if (init->is_table() && b.type.is_struct) {
        for (auto&& [key, value] : *init->as_table()) {
          const std::string member(key.str());
          // The member's type is the shader's: numbers are checked against it once it is read.
          b.member_inits[member] = ReadInit(r, value, fmt::format("{}.init.{}", where, member), nullptr);
        }
      } else {
        const ManifestBuffer::MemberInit whole =
            ReadInit(r, *init, where + ".init", b.type.is_struct ? nullptr : &b.type);
        b.init = whole.init;
        b.value = whole.value;
        b.init_expression = whole.expression;
      }
    }
    if (const toml::node* header = t.get("header")) {
      // Members are checked against the shader's block once it is read (ResolveHeader).
      b.header = ReadNamedValues(r, *header, where + ".header");
      b.header_given = true;
      b.header_line = Reader::LineOf(*header);
    }
    b.restore = r.Bool(t, where, "restore");
    if (b.restore && !(b.output && b.init_given)) {
      r.Fail(Reader::LineOf(*t.get("restore")), where + ".restore",
             "restore copies an output's initial contents back before each timed dispatch: it needs output = true "
             "and an init");
    }
    m.buffers.push_back(b);
  }
  // The order the pipeline's descriptors and dynamic offsets take. Bindings need not be 0..N-1:
  // they must be the shader's, which the loader checks against its reflection.
  std::sort(m.buffers.begin(), m.buffers.end(),
            [](const auto& a, const auto& b) { return a.slots.front() < b.slots.front(); });
}

}  // namespace manifest_detail

}  // namespace csbench
