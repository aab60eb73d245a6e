// Stage 2, resolve: the blocks a manifest names (uniform and push blocks, struct buffers) laid
// out from the shader's reflection.
#include "harness/manifest/manifest.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "harness/manifest/stage.hpp"

namespace csbench {
using namespace manifest_detail;

namespace {

RuntimeArray RuntimeArrayOf(const Resource& d) {
  if (d.type.members.empty()) return {};
  const Member& last = d.type.members.back();
  if (last.type.kind != TypeLayout::Kind::kRuntimeArray || last.type.element == nullptr) return {};
  return {last.type.element->glsl, last.name, last.type.array_stride};
}

}  // namespace

namespace manifest_detail {

RuntimeArray ElementOf(const Resource& d) {
  RuntimeArray array = RuntimeArrayOf(d);
  if (!array.element.empty() || d.type.members.size() != 1) return array;
  const Member& only = d.type.members.front();
  // One fixed-size array of scalars or vectors (`{ vec2 data[4096]; }`, as generated code declares
  // its buffers) is taken as a runtime array would be.
  const TypeLayout* element = only.type.element.get();
  if (only.type.kind == TypeLayout::Kind::kArray && element != nullptr &&
      (element->kind == TypeLayout::Kind::kScalar || element->kind == TypeLayout::Kind::kVector))
    return {element->glsl, only.name, only.type.array_stride};
  if (only.type.kind != TypeLayout::Kind::kScalar && only.type.kind != TypeLayout::Kind::kVector) return array;
  const ElementType* type = FindElementType(only.type.glsl);
  return {only.type.glsl, only.name, type != nullptr ? type->Bytes() : 0};
}

std::string Described(const Resource& d) {
  std::string what = d.set == 0 ? fmt::format("binding {}", d.binding) : fmt::format("set {} binding {}", d.set, d.binding);
  if (d.kind != ResourceKind::kStorageBuffer) what = fmt::format("{} at {}", KindName(d.kind), what);
  const RuntimeArray array = RuntimeArrayOf(d);
  if (!d.block.empty()) {
    what += fmt::format(" (block {}{})", d.block,
                        array.member.empty() ? "" : fmt::format(", {} {}[]", array.element.empty() ? "?" : array.element,
                                                                array.member));
  } else if (!d.variable.empty()) {
    what += fmt::format(" ({})", d.variable);
  }
  return what;
}

}  // namespace manifest_detail

namespace {

// " (block Params)" after a key in messages; nothing for a block the SPIR-V does not name.
std::string OfBlock(const std::string& block) { return block.empty() ? "" : fmt::format(" (block {})", block); }

// What a message adds after a member's name when the SPIR-V gives it none.
std::string Unnamed(const Member& member) {
  return member.positional ? " (unnamed in the SPIR-V: named by its position)" : "";
}

// The names of `members`, for a message: "pos, _m1 (unnamed in the SPIR-V), vel".
std::string MemberNames(const std::vector<Member>& members) {
  std::string names;
  for (const Member& member : members) {
    names += fmt::format("{}{}{}", names.empty() ? "" : ", ", member.name,
                         member.positional ? " (unnamed in the SPIR-V)" : "");
  }
  return names;
}

// A block whose structs name two members alike cannot be given or checked by name.
void RefuseNameClash(const std::vector<Member>& members, const std::string& what) {
  if (auto clash = MemberNameClash(members, what)) throw ManifestError{*clash};
}

// A struct's members as a manifest fills and checks them (at `base`, names after `prefix`): scalars,
// vectors and fixed arrays of scalars, nested structs flattened. Returns why a member cannot be.
std::optional<std::string> Flatten(const std::vector<Member>& members, uint32_t base, const std::string& prefix,
                                   std::vector<StructField>& out) {
  for (const Member& member : members) {
    const std::string name = prefix + member.name;
    const TypeLayout& t = member.type;
    if (t.kind == TypeLayout::Kind::kStruct) {
      if (auto problem = Flatten(t.members, base + member.offset, name + ".", out)) return problem;
      continue;
    }
    const TypeLayout* scalar = &t;
    uint32_t components = 1, stride = 0;
    if (t.kind == TypeLayout::Kind::kVector) {
      components = t.components;
      stride = t.scalar.bits == 0 ? 4 : std::max<uint32_t>(t.scalar.bits / 8, 1);
    } else if (t.kind == TypeLayout::Kind::kArray && t.element != nullptr &&
               t.element->kind == TypeLayout::Kind::kScalar && !t.length_constant_id) {
      scalar = t.element.get();
      components = t.length;
      stride = t.array_stride;
    } else if (t.kind != TypeLayout::Kind::kScalar) {
      return fmt::format("member {}{} is a {}: a struct buffer's members may be scalars, vectors, arrays of "
                         "scalars (of a literal length) and structs of those",
                         name, Unnamed(member), t.glsl);
    }
    const ScalarType st = scalar->scalar;
    out.push_back({.name = name,
                   .glsl = t.glsl,
                   .scalar = st.kind == ScalarKind::kFloat ? Scalar::kFloat
                             : st.kind == ScalarKind::kInt ? Scalar::kInt
                                                           : Scalar::kUint,
                   .scalar_bytes = st.kind == ScalarKind::kBool ? 4u : std::max<uint32_t>(st.bits / 8, 1),
                   .components = std::max<uint32_t>(components, 1),
                   .offset = base + member.offset,
                   .component_stride = stride});
  }
  return std::nullopt;
}

// Where `fields` and `stride` first differ from a struct resolved before, for a message: the
// member at one index named differently (a variant from a .spv without names beside one from
// GLSL), at another byte, of another type, or the stride.
std::string LayoutDifference(const std::vector<StructField>& fields, uint32_t stride, const ElementType& before) {
  for (size_t k = 0; k < std::min(fields.size(), before.fields.size()); ++k) {
    const StructField& x = fields[k];
    const StructField& y = before.fields[k];
    if (x.name != y.name || x.offset != y.offset || x.glsl != y.glsl || x.component_stride != y.component_stride) {
      return fmt::format(": member {} ({}) at byte {} here, {} ({}) at byte {} in the other", x.name, x.glsl, x.offset,
                         y.name, y.glsl, y.offset);
    }
  }
  if (fields.size() != before.fields.size()) {
    return fmt::format(": {} members here (nested ones counted apart), {} in the other", fields.size(),
                       before.fields.size());
  }
  return fmt::format(": a stride of {} bytes against the other's {}", stride, before.stride);
}

}  // namespace

namespace manifest_detail {

void ResolveStruct(ManifestBuffer& b, SlotPlace slot, const ManifestVariant& v, const ShaderInterface& shader,
                   const std::string& key) {
  auto d = std::find_if(shader.resources.begin(), shader.resources.end(), [&](const Resource& d) {
    return d.set == slot.set && d.binding == slot.binding && d.kind == ResourceKind::kStorageBuffer;
  });
  if (d == shader.resources.end()) {
    throw ManifestError{fmt::format("{}.binding: the shader {} declares no storage buffer at binding {}{}", key,
                                    v.source.filename().string(), slot.binding,
                                    slot.set == 0 ? "" : fmt::format(" of set {}", slot.set))};
  }
  const std::vector<Member>& members = d->type.members;
  RefuseNameClash(members, fmt::format("{}.type: struct, but the shader's binding {}", key, d->binding));
  std::vector<StructField> fields;
  uint32_t stride = 0;
  std::optional<std::string> problem;
  if (!members.empty() && members.back().type.kind == TypeLayout::Kind::kRuntimeArray) {
    const TypeLayout* element = members.back().type.element.get();
    // Members before the runtime array are its header (ResolveHeader).
    if (element == nullptr || element->kind != TypeLayout::Kind::kStruct) {
      problem = fmt::format("its runtime array holds {}, not a struct: give that type",
                            element == nullptr ? "?" : element->glsl);
    } else {
      problem = Flatten(element->members, 0, "", fields);
      stride = members.back().type.array_stride;
    }
  } else {
    problem = Flatten(members, 0, "", fields);
    stride = d->type.size;
  }
  if (!problem && (fields.empty() || stride == 0)) problem = "the shader gives its struct no members or no stride";
  if (problem) throw ManifestError{fmt::format("{}.type: struct, but the shader's binding {}: {}", key, d->binding, *problem)};
  if (!b.type.fields.empty()) {
    const bool same = b.type.stride == stride && b.type.fields.size() == fields.size() &&
                      std::equal(fields.begin(), fields.end(), b.type.fields.begin(), [](const auto& x, const auto& y) {
                        return x.name == y.name && x.offset == y.offset && x.glsl == y.glsl &&
                               x.component_stride == y.component_stride;
                      });
    if (!same) {
      throw ManifestError{fmt::format("{}.type: the shader lays the struct out differently from another variant's{} "
                                      "(every variant's struct must have the same members, by the same names, at the "
                                      "same offsets)",
                                      key, LayoutDifference(fields, stride, b.type))};
    }
    ResolveHeader(b, *d, key);
    return;
  }
  b.type.fields = std::move(fields);
  b.type.stride = stride;
  for (const auto& [named, init] : b.member_inits) {
    const std::string& member = named;  // a named copy: clang before 16 cannot capture a structured binding
    auto f = std::find_if(b.type.fields.begin(), b.type.fields.end(), [&](const auto& f) { return f.name == member; });
    if (f == b.type.fields.end()) {
      std::string names;
      for (const StructField& field : b.type.fields) names += (names.empty() ? "" : ", ") + field.name;
      throw ManifestError{fmt::format("{}:{}: [[buffer]] '{}'.init.{}: the struct has no such member (it has {})",
                                      key.substr(0, key.find(':')), init.line, b.name, member, names)};
    }
    if (init.init == ManifestBuffer::Init::kValue) {
      const ElementType as{.glsl = f->glsl, .scalar = f->scalar, .components = 1, .scalar_bytes = f->scalar_bytes};
      if (auto p = InitValueProblem(as, init.value)) {
        throw ManifestError{fmt::format("{}:{}: [[buffer]] '{}'.init.{}: {}", key.substr(0, key.find(':')), init.line,
                                        b.name, member, *p)};
      }
    }
  }
  ResolveHeader(b, *d, key);
}

}  // namespace manifest_detail

namespace {

char KindOf(ScalarType type) {
  switch (type.kind) {
    case ScalarKind::kBool: return 'b';
    case ScalarKind::kInt: return 'i';
    case ScalarKind::kUint: return 'u';
    case ScalarKind::kFloat: return 'f';
  }
  return 'u';
}

// The fields of a block's `members` (at `base`) from `values` by name: every member given, with
// as many values as it has scalars (a vector's components, a matrix's by columns, an array's
// elements in order); a struct member's members as name.member. Names given that the block lacks
// are left in `unused`.
void LayOut(const std::vector<Member>& members, uint32_t base, const std::string& prefix, const NamedValues& values,
            const std::string& where, std::vector<BlockField>& fields, std::set<std::string>& unused,
            bool zero_missing = false) {
  for (const Member& member : members) {
    const std::string name = prefix + member.name;
    const TypeLayout* type = &member.type;
    uint32_t count = 1, stride = 0;
    if (type->kind == TypeLayout::Kind::kArray && type->element != nullptr) {
      count = type->length;
      stride = type->array_stride;
      type = type->element.get();
    }
    if (type->kind == TypeLayout::Kind::kStruct) {
      for (uint32_t e = 0; e < count; ++e) {
        LayOut(type->members, base + member.offset + e * stride,
               count == 1 && member.type.kind != TypeLayout::Kind::kArray ? name + "." : fmt::format("{}[{}].", name, e),
               values, where, fields, unused, zero_missing);
      }
      continue;
    }
    if (type->kind != TypeLayout::Kind::kScalar && type->kind != TypeLayout::Kind::kVector &&
        type->kind != TypeLayout::Kind::kMatrix) {
      throw ManifestError{fmt::format("{}: member {}{} is a {}, which a manifest cannot give values for", where, name,
                                      Unnamed(member),
                                      type->glsl.empty() ? "type csbench does not lay out" : type->glsl)};
    }
    auto given = values.find(name);
    const uint32_t columns = type->kind == TypeLayout::Kind::kMatrix ? type->columns : 1;
    const uint32_t components = type->components;
    const size_t want = size_t{count} * columns * components;
    // A header's member not named starts at zero.
    const NamedValues zeros = {{name, std::vector<std::string>(want, "0")}};
    if (given == values.end() && zero_missing) given = zeros.begin();
    if (given == values.end()) {
      throw ManifestError{fmt::format("{}: member {} ({}{}{}) is not given: every member of the block must be", where,
                                      name, type->glsl, count > 1 ? fmt::format("[{}]", count) : "",
                                      member.positional ? ", unnamed in the SPIR-V: named by its position" : "")};
    }
    unused.erase(name);
    const uint32_t scalar_bytes = type->scalar.kind == ScalarKind::kBool ? 4 : type->scalar.bits / 8;
    if (given->second.size() != want) {
      throw ManifestError{fmt::format("{}: member {} ({}{}) takes {} value{}, and {} {} given", where, name, type->glsl,
                                      count > 1 ? fmt::format("[{}]", count) : "", want, want == 1 ? "" : "s",
                                      given->second.size(), given->second.size() == 1 ? "is" : "are")};
    }
    size_t k = 0;
    for (uint32_t e = 0; e < count; ++e) {
      for (uint32_t c = 0; c < columns; ++c) {
        for (uint32_t r = 0; r < components; ++r, ++k) {
          const uint32_t inner = type->kind != TypeLayout::Kind::kMatrix ? r * scalar_bytes
                                 : type->row_major ? r * type->matrix_stride + c * scalar_bytes
                                                   : c * type->matrix_stride + r * scalar_bytes;
          fields.push_back({.offset = base + member.offset + e * stride + inner,
                            .bytes = scalar_bytes,
                            .kind = KindOf(type->scalar),
                            .text = given->second[k],
                            .key = want == 1 ? name : fmt::format("{}[{}]", name, k)});
        }
      }
    }
  }
}

// The fields of a block from values by name, every name given used.
std::vector<BlockField> BlockFields(const std::vector<Member>& members, const NamedValues& values,
                                   const std::string& where, const std::string& key) {
  RefuseNameClash(members, where);
  std::vector<BlockField> fields;
  std::set<std::string> unused;
  for (const auto& [name, texts] : values) unused.insert(name);
  LayOut(members, 0, "", values, where, fields, unused);
  if (!unused.empty()) {
    throw ManifestError{fmt::format("{}: {} names {}, which the block does not have (its members: {})", where, key,
                                    *unused.begin(), MemberNames(members))};
  }
  for (BlockField& f : fields) f.key = fmt::format("{}.{}", key, f.key);
  return fields;
}

}  // namespace

namespace manifest_detail {

void ResolveHeader(ManifestBuffer& b, const Resource& d, const std::string& key) {
  const std::vector<Member>& members = d.type.members;
  const bool array = !members.empty() && members.back().type.kind == TypeLayout::Kind::kRuntimeArray;
  const std::vector<Member> before =
      array ? std::vector<Member>(members.begin(), members.end() - 1) : std::vector<Member>{};
  if (b.header_given && before.empty()) {
    throw ManifestError{fmt::format("{}.header: the shader's {} has no members before {}: a header gives the members "
                                    "a block declares before its runtime array",
                                    key, Described(d), array ? "its runtime array" : "a runtime array (it has none)")};
  }
  std::vector<BlockField> fields;
  if (!before.empty()) {
    RefuseNameClash(before, fmt::format("{}.header: the shader's {}", key, Described(d)));
    std::set<std::string> unused;
    for (const auto& [name, texts] : b.header) unused.insert(name);
    LayOut(before, 0, "", b.header, fmt::format("{}.header{}", key, OfBlock(d.block)), fields, unused, true);
    if (!unused.empty()) {
      const std::string names = MemberNames(before);
      throw ManifestError{fmt::format("{}.header: names {}, which the shader's {} does not have before its runtime "
                                      "array (it has {})",
                                      key, *unused.begin(), Described(d), names)};
    }
  }
  const uint32_t offset = before.empty() ? 0 : members.back().offset;
  if (b.header_resolved) {
    const bool same = b.type.array_offset == offset && b.header_fields.size() == fields.size() &&
                      std::equal(fields.begin(), fields.end(), b.header_fields.begin(), [](const auto& x, const auto& y) {
                        return x.key == y.key && x.offset == y.offset && x.bytes == y.bytes && x.kind == y.kind;
                      });
    if (!same) {
      throw ManifestError{fmt::format("{}.header: the shader's {} has its runtime array at byte {} after {} header "
                                      "scalar(s), another slot's or variant's at byte {} after {} (every shader must "
                                      "lay the buffer out alike)",
                                      key, Described(d), offset, fields.size(), b.type.array_offset,
                                      b.header_fields.size())};
    }
    return;
  }
  if (b.type.is_struct) {
    for (const BlockField& f : fields) {
      auto same = std::find_if(b.type.fields.begin(), b.type.fields.end(),
                               [&](const StructField& s) { return s.name == f.key; });
      if (same != b.type.fields.end()) {
        // The header's member that holds the field: its name runs to the first '.' or '['.
        const std::string top = f.key.substr(0, f.key.find_first_of(".["));
        const bool unnamed = std::any_of(before.begin(), before.end(),
                                         [&](const Member& m) { return m.name == top && m.positional; });
        throw ManifestError{fmt::format("{}.header: the header's member {} has the name of a member of the array's "
                                        "struct: checks read both as '{}.{}' ({})",
                                        key, f.key, b.name, f.key,
                                        unnamed ? "the header's member has no name in the SPIR-V and is named by "
                                                  "its position: such a buffer needs a module that names its members"
                                                : "rename one in the shader")};
      }
    }
  }
  b.header_resolved = true;
  b.type.array_offset = offset;
  b.header_fields = std::move(fields);
}

void ResolveBlocks(const Manifest& m, ManifestVariant& v, const ShaderInterface& shader, const std::string& where) {
  v.push_fields.clear();
  v.push_size = 0;
  if (!v.push_values.empty()) {
    if (!shader.push) {
      throw ManifestError{fmt::format("{}: [push].values: the shader declares no push-constant block", where)};
    }
    v.push_fields = BlockFields(shader.push->members, v.push_values,
                                fmt::format("{}: [push].values{}", where, OfBlock(shader.push->block)),
                                "[push].values");
    v.push_size = shader.push->size;
  }
  v.uniform_fields.clear();
  v.uniform_sizes.clear();
  for (const ManifestUniform& u : m.uniforms) {
    const std::string key = fmt::format("{}:{}: [[uniform]] '{}' (variant {})", m.path.string(), u.line, u.name,
                                        Quoted(v.name));
    auto d = std::find_if(shader.resources.begin(), shader.resources.end(),
                          [&](const auto& d) { return d.set == u.set && d.binding == u.binding; });
    if (v.is_pass && d == shader.resources.end()) {
      // A pass binds only what its shader declares.
      v.uniform_fields.emplace_back();
      v.uniform_sizes.push_back(0);
      continue;
    }
    if (d == shader.resources.end() || d->kind != ResourceKind::kUniformBuffer) {
      throw ManifestError{fmt::format("{}.binding: the shader {} declares no uniform buffer at set {} binding {}{}", key,
                                      v.source.filename().string(), u.set, u.binding,
                                      d == shader.resources.end() ? "" : fmt::format(" (it declares {})", Described(*d)))};
    }
    // An array's elements share the block: each [[uniform]] fills its own copy of it.
    if (u.element >= d->count) {
      throw ManifestError{fmt::format(
          "{}.element: {}, but the shader's {} {}", key, u.element, Described(*d),
          d->count == 1 ? "is one descriptor, not an array (element 0)"
                        : fmt::format("is an array of {} descriptors (elements 0 to {})", d->count, d->count - 1))};
    }
    v.uniform_fields.push_back(
        BlockFields(d->type.members, UniformValues(u, v), fmt::format("{}.values{}", key, OfBlock(d->block)),
                    v.uniform_values.contains(u.name)
                        ? fmt::format("values with {}.uniform.{}", v.is_pass ? v.pass_key : "its own", u.name)
                        : "values"));
    v.uniform_sizes.push_back(std::max<uint32_t>(d->type.size, 16));
  }
}

}  // namespace manifest_detail

}  // namespace csbench
