#include "capture/tool/block_values.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <stdexcept>

#include "harness/base/half.hpp"

namespace csbench::capture {

namespace {

uint64_t Little(const uint8_t* data, size_t width) {
  uint64_t value = 0;
  for (size_t i = 0; i < width; ++i) value |= uint64_t{data[i]} << (8 * i);
  return value;
}

// `unnamed`: some struct around `members` has no name in the SPIR-V.
void Collect(const std::vector<Member>& members, uint32_t base, const std::string& prefix, bool unnamed,
             const uint8_t* data, size_t size, std::vector<MemberValues>& out) {
  for (const Member& member : members) {
    const std::string name = prefix + member.name;
    const bool positional = unnamed || member.positional;
    const TypeLayout* type = &member.type;
    uint32_t count = 1, stride = 0;
    bool array = type->kind == TypeLayout::Kind::kArray && type->element != nullptr;
    if (array) {
      count = type->length;
      stride = type->array_stride;
      type = type->element.get();
    }
    if (type->kind == TypeLayout::Kind::kStruct) {
      for (uint32_t e = 0; e < count; ++e)
        Collect(type->members, base + member.offset + e * stride, array ? fmt::format("{}[{}].", name, e) : name + ".",
                positional, data, size, out);
      continue;
    }
    if (type->kind != TypeLayout::Kind::kScalar && type->kind != TypeLayout::Kind::kVector &&
        type->kind != TypeLayout::Kind::kMatrix)
      throw std::runtime_error(
          fmt::format("member {} is a {}, which a manifest cannot give values for", name, type->glsl));
    const uint32_t scalar_bytes = type->scalar.kind == ScalarKind::kBool ? 4 : type->scalar.bits / 8;
    const uint32_t columns = type->kind == TypeLayout::Kind::kMatrix ? type->columns : 1;
    MemberValues values{.name = name,
                        .glsl = array ? fmt::format("{}[{}]", type->glsl, count) : type->glsl,
                        .positional = positional};
    for (uint32_t e = 0; e < count; ++e)
      for (uint32_t c = 0; c < columns; ++c)
        for (uint32_t r = 0; r < type->components; ++r) {
          const uint32_t inner = type->kind != TypeLayout::Kind::kMatrix ? r * scalar_bytes
                                 : type->row_major                       ? r * type->matrix_stride + c * scalar_bytes
                                                                         : c * type->matrix_stride + r * scalar_bytes;
          const size_t at = size_t{base} + member.offset + size_t{e} * stride + inner;
          if (at + scalar_bytes > size)
            throw std::runtime_error(fmt::format("member {} lies past the {} bytes the program gave", name, size));
          std::optional<std::string> text = ScalarText(type->scalar, data + at, scalar_bytes);
          if (!text) throw std::runtime_error(fmt::format("member {} holds a value an expression cannot give", name));
          values.values.push_back(*text);
        }
    out.push_back(std::move(values));
  }
}

}  // namespace

std::optional<std::string> ScalarText(const ScalarType& type, const uint8_t* data, size_t size) {
  const size_t width = type.kind == ScalarKind::kBool ? 4 : type.bits / 8;
  uint64_t raw = Little(data, std::min(width, size));
  // Expressions are evaluated in double: integers are exact up to 2^53.
  constexpr uint64_t kExact = 1ull << 53;
  switch (type.kind) {
    case ScalarKind::kBool:
      return raw != 0 ? "1" : "0";
    case ScalarKind::kUint:
      if (raw > kExact) return std::nullopt;
      return fmt::format("{}", raw);
    case ScalarKind::kInt: {
      int64_t value = type.bits == 64 ? static_cast<int64_t>(raw)
                                      : static_cast<int64_t>(raw << (64 - type.bits)) >> (64 - type.bits);
      if (value > static_cast<int64_t>(kExact) || value < -static_cast<int64_t>(kExact)) return std::nullopt;
      return fmt::format("{}", value);
    }
    case ScalarKind::kFloat: {
      double value = 0;
      if (type.bits == 16) value = HalfToFloat(static_cast<uint16_t>(raw));
      if (type.bits == 32) {
        float f = 0;
        uint32_t word = static_cast<uint32_t>(raw);
        std::memcpy(&f, &word, 4);
        value = f;
      }
      if (type.bits == 64) std::memcpy(&value, &raw, 8);
      if (!std::isfinite(value)) return std::nullopt;
      // 9 significant digits give a float back exactly through a double, 17 a double.
      std::string text = type.bits == 64 ? fmt::format("{:.17g}", value) : fmt::format("{:.9g}", value);
      // A float's text keeps a point, as manifests read one.
      if (text.find_first_of(".en") == std::string::npos) text += ".0";
      return text;
    }
  }
  return std::nullopt;
}

std::vector<MemberValues> BlockValues(const std::vector<Member>& members, const uint8_t* data, size_t size) {
  if (auto clash = MemberNameClash(members, "the block")) throw std::runtime_error(*clash);
  std::vector<MemberValues> out;
  Collect(members, 0, "", false, data, size, out);
  return out;
}

std::string ValuesToml(const std::vector<MemberValues>& values) {
  std::string text;
  for (const MemberValues& v : values) {
    std::string list;
    for (const std::string& value : v.values) list += fmt::format("{}\"{}\"", list.empty() ? "" : ", ", value);
    text += fmt::format("\"{}\" = {}  # {}{}\n", v.name, v.values.size() == 1 ? list : "[" + list + "]", v.glsl,
                        v.positional ? ", named by position (the SPIR-V gives no name)" : "");
  }
  return text;
}

}  // namespace csbench::capture
