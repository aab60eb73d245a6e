// Stage 2, resolve: each variant's declarations against its shader's reflection: bindings and
// their access, the workgroup's place, the specialization constants.
#include "harness/manifest/manifest.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "harness/manifest/expression.hpp"
#include "harness/manifest/requirements.hpp"
#include "harness/manifest/stage.hpp"

namespace csbench {
using namespace manifest_detail;

namespace {

// How a variant's passes reach a resource: whether some slot may write it, and some slot is
// writeonly (so the kernel may not read it), with the first such slot for messages.
struct Access {
  bool writable = false, writeonly = false;
  std::string readable_at, writeonly_at;  // a readonly slot and a writeonly one, described
  bool declared = false;
  bool written = false;  // an instruction of some pass's shader writes it (Resource::writes)
};


// The resources of `m` against the descriptors pass (or variant) `v`'s shader declares: each at its
// slots with its element type or format, every descriptor the shader declares given by the manifest
// (one left unbound would be read through nothing: a crash, or "never written"); the slots the
// shader declares into `v.declared`, and how it reaches each resource into `access` (by resource:
// buffers, then images). A single-pass variant's shader must declare every slot of every
// resource; a pass's binds only those it declares.
void CheckBindings(Manifest& m, ManifestVariant& v, const ShaderInterface& shader, const std::string& where,
                   std::vector<Access>& access) {
  v.declared.clear();
  // The pass's own arrangement: the declared slots, with its binds.
  const std::vector<std::vector<SlotPlace>> slots = WithBinds(m, v, DeclaredSlots(m));
  const size_t nb = m.buffers.size();
  auto at_slot = [](const std::vector<SlotPlace>& slots, SlotPlace place) {
    return std::find(slots.begin(), slots.end(), place) != slots.end();
  };
  for (const auto& bind : v.binds) {
    const SlotPlace slot = bind.second;
    if (std::none_of(shader.resources.begin(), shader.resources.end(), [&](const Resource& d) {
          return d.set == slot.set && d.binding == slot.binding && slot.element < std::max(d.count, 1u);
        })) {
      throw ManifestError{fmt::format("{}.bind.{}: the shader {} declares nothing at {}", where, bind.first,
                                      v.source.filename().string(), SlotText(slot))};
    }
  }
  // Before the declarations' own checks: a [[sampler]] at an image's binding is named as such.
  CheckSamplers(m, v, shader);
  for (const Resource& d : shader.resources) {
    if (d.count != 1 && d.kind != ResourceKind::kStorageBuffer && d.kind != ResourceKind::kStorageImage &&
        d.kind != ResourceKind::kCombinedImageSampler && d.kind != ResourceKind::kUniformBuffer) {
      throw ManifestError{
          fmt::format("{}: the shader declares {}{}: a manifest gives arrays of storage buffers, "
                      "uniform buffers, storage images and combined image samplers (one [[buffer]], "
                      "[[uniform]] or [[image]] per element); arrays of separate sampled images and "
                      "samplers are not supported yet",
                      where, Described(d), ArrayText(d))};
    }
    // An array of descriptors: each element a slot, each given by a resource of its own.
    for (uint32_t e = 0; e < d.count; ++e) {
      const SlotPlace place{d.set, d.binding, e};
      v.declared.insert(place);
      const bool given =
          std::any_of(slots.begin(), slots.end(), [&](const auto& each) { return at_slot(each, place); }) ||
          std::any_of(m.uniforms.begin(), m.uniforms.end(),
                      [&](const auto& u) {
                        return SlotPlace{u.set, u.binding, u.element} == place;
                      }) ||
          std::any_of(m.samplers.begin(), m.samplers.end(), [&](const auto& s) { return s.slot == place; });
      if (given) continue;
      const std::vector<std::vector<SlotPlace>> declared = DeclaredSlots(m);
      if (std::any_of(declared.begin(), declared.end(), [&](const auto& each) { return at_slot(each, place); })) {
        throw ManifestError{fmt::format("{}.bind: the shader declares {}, and this pass binds no resource there (its "
                                        "bind moved the one declared there)",
                                        where, Described(d))};
      }
      const std::string slot = SlotText(place) + (d.count != 1 && e == 0 ? " element 0" : "");
      if (d.count != 1) {
        const std::string_view table = d.kind == ResourceKind::kStorageBuffer   ? "[[buffer]]"
                                       : d.kind == ResourceKind::kUniformBuffer ? "[[uniform]]"
                                                                                : "[[image]]";
        throw ManifestError{fmt::format("{}: the shader declares {}{}, and no {} has {} (give each element a "
                                        "{} of its own, with element = 0 to {})",
                                        where, Described(d), ArrayText(d), table, slot, table, d.count - 1)};
      }
      if (d.kind == ResourceKind::kUniformBuffer) {
        // A uniform at another element of a binding that is one descriptor: say so.
        auto past = std::find_if(m.uniforms.begin(), m.uniforms.end(), [&](const auto& u) {
          return u.set == d.set && u.binding == d.binding && u.element != 0;
        });
        throw ManifestError{fmt::format(
            "{}: the shader declares {}, and no [[uniform]] has {}{}", where, Described(d), slot,
            past == m.uniforms.end() ? ""
                                     : fmt::format(" ([[uniform]] {} has an element past 0, but the binding "
                                                   "is one descriptor, not an array)",
                                                   Quoted(past->name)))};
      }
      if (d.kind == ResourceKind::kStorageBuffer) {
        // A buffer at another element of a binding that is one descriptor: say so.
        auto past = std::find_if(m.buffers.begin(), m.buffers.end(), [&](const auto& b) {
          return std::any_of(b.slots.begin(), b.slots.end(), [&](SlotPlace s) {
            return s.set == d.set && s.binding == d.binding && s.element != 0;
          });
        });
        throw ManifestError{fmt::format("{}: the shader declares {}, and no [[buffer]] has {}{}", where, Described(d), slot,
                                        past == m.buffers.end()
                                            ? ""
                                            : fmt::format(" ([[buffer]] {} has an element past 0, but the binding is "
                                                          "one descriptor, not an array)",
                                                          Quoted(past->name)))};
      }
      if (d.kind == ResourceKind::kStorageImage || d.kind == ResourceKind::kCombinedImageSampler ||
          d.kind == ResourceKind::kSampledImage) {
        throw ManifestError{fmt::format("{}: the shader declares {}, and no [[image]] has {}", where, Described(d), slot)};
      }
      if (d.kind == ResourceKind::kSampler) {
        throw ManifestError{fmt::format("{}: the shader declares {}, and no [[sampler]] has {}", where, Described(d), slot)};
      }
      throw ManifestError{fmt::format("{}: the shader declares {}, which the manifest does not give: a manifest gives "
                                      "storage buffers ([[buffer]]), uniform buffers ([[uniform]]), storage images, "
                                      "combined image samplers and separate sampled images ([[image]]) and samplers "
                                      "([[sampler]]); texel buffers and input attachments are not supported yet",
                                      where, Described(d))};
    }
  }
  // A resource this pass binds is checked at its bind, under the bind's key.
  auto key_of = [&](const std::string& name, std::string key) {
    for (const auto& bind : v.binds) {
      if (bind.first == name) return fmt::format("{}.bind.{}", where, name);
    }
    return key;
  };
  const uint32_t push_bytes = static_cast<uint32_t>(4 * v.push.size());
  const uint32_t block_bytes = shader.push ? shader.push->size : 0;
  if (v.push_values.empty() && push_bytes != block_bytes) {
    throw ManifestError{fmt::format("{}: [push].constants give {} bytes ({} value{} of 4 bytes), but the shader's "
                                    "push-constant block {}has {}",
                                    where, push_bytes, v.push.size(), v.push.size() == 1 ? "" : "s",
                                    shader.push ? fmt::format("{} ", shader.push->block) : "", block_bytes)};
  }
  auto note = [&](Access& a, const Resource& d) {
    a.declared = true;
    a.written = a.written || d.writes;
    if (!d.readonly) a.writable = true;
    if (d.readonly && a.readable_at.empty()) a.readable_at = Described(d);
    if (d.writeonly && !a.writeonly) {
      a.writeonly = true;
      a.writeonly_at = Described(d);
    }
  };
  for (size_t bi = 0; bi < m.buffers.size(); ++bi) {
    ManifestBuffer& b = m.buffers[bi];
    const std::string key =
        key_of(b.name, fmt::format("{}:{}: [[buffer]] '{}' ({})", m.path.string(), b.line, b.name,
                                   v.is_pass ? v.name : "variant " + Quoted(v.name)));
    for (const SlotPlace& slot : slots[bi]) {
      // Several blocks may alias one binding (a buffer read as float16_t and as f16vec4): `type` must
      // be the element of one of them.
      auto here = [&](const Resource& d) { return d.set == slot.set && d.binding == slot.binding; };
      auto d = std::find_if(shader.resources.begin(), shader.resources.end(), [&](const Resource& d) {
        return here(d) && d.kind == ResourceKind::kStorageBuffer && ElementOf(d).element == b.type.glsl;
      });
      if (d == shader.resources.end()) d = std::find_if(shader.resources.begin(), shader.resources.end(), here);
      if (d == shader.resources.end()) {
        if (v.is_pass) continue;
        throw ManifestError{fmt::format("{}.binding: the shader {} declares no storage buffer at binding {}{}", key,
                                        v.source.filename().string(), slot.binding,
                                        slot.set == 0 ? "" : fmt::format(" of set {}", slot.set))};
      }
      if (slot.element >= d->count) {
        throw ManifestError{fmt::format("{}.element: {}, but the shader's {} {}", key, slot.element, Described(*d),
                                        d->count == 1 ? "is one descriptor, not an array (element 0)"
                                                      : fmt::format("is an array of {} descriptors (elements 0 to {})",
                                                                    d->count, d->count - 1))};
      }
      note(access[bi], *d);
      if (b.type.is_struct) {
        ResolveStruct(b, slot, v, shader, key);
        continue;
      }
      if (d->kind != ResourceKind::kStorageBuffer) {
        throw ManifestError{fmt::format("{}.binding: the shader's {}{} is not a storage buffer", key, Described(*d),
                                        ArrayText(*d))};
      }
      const RuntimeArray array = ElementOf(*d);
      if (array.element != b.type.glsl) {
        throw ManifestError{fmt::format("{}.type: '{}', but the shader's {} {}", key, b.type.glsl, Described(*d),
                                        array.element.empty() ? "neither ends in a runtime array of scalars or vectors "
                                                                "nor is one scalar, vector or fixed-size array of them"
                                                              : "holds " + array.element)};
      }
      if (array.stride != b.type.Bytes()) {
        throw ManifestError{fmt::format("{}.type: the shader's {} has a {}-byte stride, not {} (declare it std430)", key,
                                        Described(*d), array.stride, b.type.Bytes())};
      }
      // Members before the runtime array (a header: `{ uint count; float y[]; }`): the array starts
      // after them, and they take the `header` values.
      ResolveHeader(b, *d, key);
    }
  }
  for (size_t ii = 0; ii < m.images.size(); ++ii) {
    const ManifestImage& image = m.images[ii];
    const std::string key = key_of(image.name, fmt::format("{}:{}: [[image]] '{}' ({})", m.path.string(), image.line,
                                                           image.name, v.is_pass ? v.name : "variant " + Quoted(v.name)));
    for (const SlotPlace& slot : slots[nb + ii]) {
      auto d = std::find_if(shader.resources.begin(), shader.resources.end(),
                            [&](const Resource& d) { return d.set == slot.set && d.binding == slot.binding; });
      if (d == shader.resources.end()) {
        if (v.is_pass) continue;
        throw ManifestError{fmt::format("{}.binding: the shader {} declares no image at {}", key,
                                        v.source.filename().string(), SlotText(slot))};
      }
      if (slot.element >= d->count) {
        throw ManifestError{fmt::format("{}.element: {}, but the shader's {} {}", key, slot.element, Described(*d),
                                        d->count == 1 ? "is one descriptor, not an array (element 0)"
                                                      : fmt::format("is an array of {} descriptors (elements 0 to {})",
                                                                    d->count, d->count - 1))};
      }
      note(access[nb + ii], *d);
      CheckImageAt(m, v, m.images[ii], *d, key);
    }
  }
}

// Each resource reached as its kind allows across the variant's passes: an output has a slot that
// may write it, an input none the shader only writes; a resource a pass swaps is both, and any
// resource no pass declares is a mistake.
void CheckAccess(Manifest& m, const ManifestVariant& v, const std::vector<Access>& access) {
  const std::set<std::string> swapped = Swapped(v);
  for (size_t r = 0; r < access.size(); ++r) {
    const bool image = r >= m.buffers.size();
    const std::string& name = image ? m.images[r - m.buffers.size()].name : m.buffers[r].name;
    const bool output = image ? m.images[r - m.buffers.size()].output : m.buffers[r].output;
    const uint32_t line = image ? m.images[r - m.buffers.size()].line : m.buffers[r].line;
    const std::string key = fmt::format("{}:{}: {} '{}' (variant {})", m.path.string(), line,
                                        image ? "[[image]]" : "[[buffer]]", name, Quoted(v.name));
    const Access& a = access[r];
    if (!a.declared) {
      throw ManifestError{fmt::format("{}: no pass's shader declares it at its slots", key)};
    }
    if (swapped.contains(name)) continue;
    if (output && !a.writable) {
      throw ManifestError{fmt::format("{}.output: an output, but the shader declares {} readonly", key, a.readable_at)};
    }
    if (!output && a.writeonly) {
      throw ManifestError{fmt::format("{}.output: an input (output = false), but the shader declares {} writeonly", key,
                                      a.writeonly_at)};
    }
    // What the instructions do (the run's rules judge it; a note names the cause at load). Buffers
    // only: the scan counts every image as both. An output with an init may be another variant's.
    if (image) continue;
    if (output && !a.written && !m.buffers[r].init_given) {
      m.notes.push_back(fmt::format("{}: an output without an init, but no instruction of its shader writes it: "
                                    "its elements stay the poison, and the unwritten rule will fail it",
                                    key));
    }
    if (!output && a.written) {
      m.notes.push_back(fmt::format("{}: an input, but its shader has instructions that write it: a benchmark whose "
                                    "kernel changes it fails the unchanged-input check (a resource the kernel "
                                    "updates is an output with an init)",
                                    key));
    }
  }
}

// Where the workgroup goes in `v`'s shader: its workgroup_defines; else the constants its
// local_size_*_id name, whatever their ids; else the shader's literal size, which then is the
// variant's only workgroup (listed or not). No other constant is written by csbench.
void PlaceWorkgroup(ManifestVariant& v, const ShaderInterface& shader, const std::string& where) {
  const LocalSize& size = shader.local_size;
  if (!v.workgroup_defines.empty()) {
    v.local_size_ids = {std::nullopt, std::nullopt, std::nullopt};
    v.local_size_z = size.literal[2];
    if (v.workgroups.empty()) {
      throw ManifestError{fmt::format("{}: workgroup_defines take the workgroups listed in workgroups, and there are "
                                      "none",
                                      where)};
    }
    return;
  }
  v.local_size_z = size.literal[2];
  v.local_size_ids = size.constant_id;
  for (size_t i = 0; i < 2; ++i) v.literal_local_size[i] = size.constant_id[i] ? 0 : size.literal[i];
  // z: written where a workgroup has a third dimension ("XxYxZ"): into the shader's constant, or it
  // must be the shader's literal z. Workgroups of two dimensions leave the shader's z as it is
  // (its literal, or its constant's default), as before there were three.
  const bool z_given = std::any_of(v.workgroups.begin(), v.workgroups.end(), [](Extent wg) { return wg.z != 1; });
  if (!z_given) v.local_size_ids[2] = std::nullopt;
  // A pass of a literal local size runs at it whatever the variant's workgroup (a sequence's scan
  // of one workgroup beside kernels sized by the axis).
  if (v.is_pass && !v.workgroups.empty()) return;
  for (Extent wg : v.workgroups) {
    if (z_given && !size.constant_id[2] && wg.z != size.literal[2]) {
      throw ManifestError{fmt::format("{}: workgroup {} differs from the shader's literal local size z {} (list "
                                      "workgroups of its z, or take z from a constant: local_size_z_id)",
                                      where, Sized("", wg), size.literal[2])};
    }
  }
  const bool x_free = size.constant_id[0].has_value(), y_free = size.constant_id[1].has_value();
  const Extent literal{size.literal[0], size.literal[1]};
  if (v.workgroups.empty()) {
    if (x_free || y_free) {
      throw ManifestError{fmt::format("{}: the shader takes its local size from specialization constants, so the "
                                      "manifest must list workgroups ([family] or the variant's)",
                                      where)};
    }
    v.workgroups = {literal};
    return;
  }
  for (Extent wg : v.workgroups) {
    if ((!x_free && wg.x != literal.x) || (!y_free && wg.y != literal.y)) {
      if (x_free || y_free) {
        // One dimension a constant, the other literal: name each, and how to list such a size.
        auto dim = [&](size_t k) {
          return size.constant_id[k] ? fmt::format("a specialization constant (local_size_{}_id = {})", "xyz"[k],
                                                   *size.constant_id[k])
                                     : fmt::format("literal {}", size.literal[k]);
        };
        const std::string hint = x_free ? fmt::format("\"{}x{}\", or [\"SUBGROUP_SIZE\", \"{}\"]", wg.x, literal.y, literal.y)
                                        : fmt::format("\"{}x{}\"", literal.x, wg.y);
        throw ManifestError{fmt::format("{}: workgroup {} differs from the shader's local size: x is {}, y is {} (list "
                                        "workgroups of its literal dimension, e.g. {})",
                                        where, Sized("", wg), dim(0), dim(1), hint)};
      }
      throw ManifestError{fmt::format("{}: workgroup {} differs from the shader's literal local size {}x{}x{} "
                                      "(a literal size is the shader's own: leave workgroups out, or list that "
                                      "size)",
                                      where, Sized("", wg), size.literal[0], size.literal[1], size.literal[2])};
    }
  }
}

// The specialization a variant gives, by constant_id or name, against the shader's constants:
// each key names one of them (a family-wide key some variant's shader lacks is not set there, but
// must name a constant of some variant), and its value is typed by the constant.
void ResolveConstants(ManifestVariant& v, const ShaderInterface& shader, const std::string& where,
                      std::set<std::string>& used_keys) {
  std::set<std::string> found_here;
  v.constants.clear();
  for (const auto& [key, text] : v.specialization) {
    const bool by_id = key.find_first_not_of("0123456789") == std::string::npos;
    std::vector<const SpecConstant*> found;
    for (const SpecConstant& c : shader.constants) {
      if (by_id ? c.id == std::stoull(key) : std::find(c.names.begin(), c.names.end(), key) != c.names.end()) {
        found.push_back(&c);
      }
    }
    if (!by_id && !shader.has_names && found.empty()) {
      throw ManifestError{fmt::format("{}.specialization.{}: the shader's SPIR-V keeps no names: address its constants "
                                      "by constant_id",
                                      where, key)};
    }
    if (found.size() > 1) {
      throw ManifestError{fmt::format("{}.specialization.{}: two different constants of the shader have this name "
                                      "(ids {} and {}): address it by constant_id",
                                      where, key, found[0]->id, found[1]->id)};
    }
    if (found.empty()) continue;
    const SpecConstant& c = *found[0];
    for (size_t i = 0; i < 3; ++i) {
      if (shader.local_size.constant_id[i] == c.id && v.workgroup_defines.empty()) {
        throw ManifestError{fmt::format("{}.specialization.{}: constant {} is the shader's local size {}: {}", where,
                                        key, c.id, "xyz"[i],
                                        i < 2 ? "the workgroups set it"
                                              : "workgroups are X or XxY, so z keeps the shader's own size")};
      }
    }
    used_keys.insert(key);
    found_here.insert(key);
    ManifestVariant::Constant constant{.id = c.id, .text = text, .key = key};
    switch (c.type.kind) {
      case ScalarKind::kBool: constant.kind = 'b'; constant.bytes = 4; break;
      case ScalarKind::kFloat: constant.kind = 'f'; constant.bytes = c.type.bits / 8; break;
      case ScalarKind::kInt: constant.kind = 'i'; constant.bytes = c.type.bits / 8; break;
      case ScalarKind::kUint: constant.kind = 'u'; constant.bytes = c.type.bits / 8; break;
    }
    if (constant.kind != 'b' && (text == "true" || text == "false")) {
      throw ManifestError{fmt::format("{}.specialization.{}: {}, but the constant is not a bool", where, key, text)};
    }
    // A variant's own key overrides the family's for the same constant, however each is spelt.
    const bool own = v.own_specialization.contains(key);
    auto same = std::find_if(v.constants.begin(), v.constants.end(), [&](const auto& o) { return o.id == c.id; });
    if (same != v.constants.end() && own != v.own_specialization.contains(same->key)) {
      if (own) *same = constant;
      continue;
    }
    if (same != v.constants.end()) {
      throw ManifestError{fmt::format("{}.specialization.{}: constant {} is given twice (by id and by name)", where,
                                      key, c.id)};
    }
    v.constants.push_back(constant);
  }
  for (const std::string& key : v.own_specialization) {
    if (!found_here.contains(key)) {
      throw ManifestError{fmt::format("{}.specialization.{}: the shader {} has no constant of this id or name", where,
                                      key, v.source.filename().string())};
    }
  }
}

}  // namespace

namespace manifest_detail {

void ResolveShaders(Manifest& m) {
  std::set<std::string> used_keys;
  for (ManifestVariant& variant : m.variants) {
    std::vector<Access> access(m.buffers.size() + m.images.size());
    std::vector<ManifestVariant*> passes;
    if (variant.passes.empty()) passes.push_back(&variant);
    for (ManifestVariant& p : variant.passes) passes.push_back(&p);
    for (ManifestVariant* pass : passes) {
      ManifestVariant& v = *pass;
      const std::string where = v.is_pass ? fmt::format("{}:{}: {}", m.path.string(), v.line, v.pass_key)
                                          : fmt::format("{}:{}: [[variant]] {}", m.path.string(), v.line, Quoted(v.name));
      std::error_code error;
      if (!std::filesystem::is_regular_file(v.source, error)) {
        throw ManifestError{fmt::format("{}.source: {} does not exist", where, v.source.string())};
      }
      const Extent first = v.workgroups.empty() ? Extent{1, 1} : v.workgroups.front();
      ShaderInterface shader;
      try {
        shader = ReflectInterface(CompileShader(SourceOf(v, first, v.language == SourceLanguage::kSpirv)));
      } catch (const std::exception& e) {
        throw ManifestError{fmt::format("{}.source: the shader does not compile: {}", where, OneLine(e.what()))};
      }
      PlaceWorkgroup(v, shader, where);
      v.capabilities = shader.capabilities;
      v.reads_length = shader.reads_array_length;
      try {
        // Cached: the benchmarks reuse each.
        for (Extent wg : v.workgroups) CompileShader(SourceOf(v, wg, true));
      } catch (const std::exception& e) {
        throw ManifestError{fmt::format("{}.source: the shader does not compile: {}", where, OneLine(e.what()))};
      }
      ResolveConstants(v, shader, where, used_keys);
      // A runtime-sized array of descriptors is from here an array of the elements given.
      shader = SizedArrays(m, v, shader, where);
      CheckBindings(m, v, shader, where, access);
      ResolveBlocks(m, v, shader, where);
    }
    CheckAccess(m, variant, access);
    if (!variant.passes.empty()) {
      // The variant's workgroups are those its passes run at: a pass of a literal local size keeps
      // its own, and a variant all of whose passes are literal has the first pass's.
      const bool any_free = std::any_of(variant.passes.begin(), variant.passes.end(), [](const ManifestVariant& p) {
        return p.literal_local_size[0] == 0 || p.literal_local_size[1] == 0 || !p.workgroup_defines.empty();
      });
      if (!any_free) variant.workgroups = {variant.passes.front().workgroups.front()};
      for (ManifestVariant& p : variant.passes) {
        variant.reads_length = variant.reads_length || p.reads_length;
        variant.storage_read_without_format = variant.storage_read_without_format || p.storage_read_without_format;
        variant.storage_write_without_format = variant.storage_write_without_format || p.storage_write_without_format;
        for (const std::string& c : p.capabilities) {
          if (std::find(variant.capabilities.begin(), variant.capabilities.end(), c) == variant.capabilities.end()) {
            variant.capabilities.push_back(c);
          }
        }
      }
    }
  }
  // A device capability a shader shows it uses (a SPIR-V capability) that its variant's `requires`
  // does not list: told at load, and required all the same, so that a device without it skips the
  // variant naming it instead of failing to make its pipeline.
  for (ManifestVariant& v : m.variants) {
    std::vector<std::string> missing = UndeclaredRequirements(v);
    if (missing.empty()) continue;
    std::string names, list;
    for (const std::string& each : missing) {
      names += (names.empty() ? "" : ", ") + each;
      const std::string name = each.substr(0, each.find(' '));
      list += (list.empty() ? "\"" : ", \"") + name + "\"";
      v.requires_features.push_back(name);
    }
    m.notes.push_back(fmt::format("{}:{}: [[variant]] {}: its shader uses {}, which its requires does not list: taken "
                                  "as required (requires = [{}] says so)",
                                  m.path.string(), v.line, Quoted(v.name), names, list));
  }
  // A struct output's member checks, and a header's, name members its shader has.
  for (const ManifestVariant& v : m.variants) {
    for (const auto& [key, text] : v.check) {
      const size_t dot = key.find('.');
      if (dot == std::string::npos) continue;
      const std::string buffer = key.substr(0, dot), member = key.substr(dot + 1);
      const uint32_t line = v.check_lines.contains(key) ? v.check_lines.at(key) : v.line;
      auto b = std::find_if(m.buffers.begin(), m.buffers.end(), [&](const auto& b) { return b.name == buffer; });
      const bool field = b != m.buffers.end() && std::any_of(b->type.fields.begin(), b->type.fields.end(),
                                                             [&](const StructField& f) { return f.name == member; });
      const bool header = b != m.buffers.end() && std::any_of(b->header_fields.begin(), b->header_fields.end(),
                                                              [&](const BlockField& f) { return f.key == member; });
      if (!field && !header) {
        std::string names;
        if (b != m.buffers.end()) {
          for (const StructField& f : b->type.fields) names += (names.empty() ? "" : ", ") + f.name;
          for (const BlockField& f : b->header_fields) {
            if (f.key.find('[') == std::string::npos) names += (names.empty() ? "" : ", ") + f.key + " (header)";
          }
        }
        throw ManifestError{fmt::format("{}:{}: check {} (variant {}): '{}' has no member {} (it has {})",
                                        m.path.string(), line, Quoted(key), Quoted(v.name), buffer, Quoted(member),
                                        names.empty() ? "none a check reads" : names)};
      }
      // A header's member is one value: its check is read once (EvaluatePoint checks the others).
      if (header) {
        try {
          Expression(text, CheckVariables(m), CheckFunctions(m));
        } catch (const ExpressionError& e) {
          throw ManifestError{fmt::format("{}:{}: check {} (variant {}): {}: {}", m.path.string(), line, key,
                                          Quoted(v.name), Quoted(text), e.message)};
        }
      }
    }
  }
  // [require] waited for the members of structs and headers (ParseManifest).
  for (const auto& [name, text] : m.require) {
    try {
      Expression(text, CheckVariables(m), CheckFunctions(m));
    } catch (const ExpressionError& e) {
      throw ManifestError{fmt::format("{}:{}: [require].{}: {}: {}", m.path.string(), m.require_lines.at(name), name,
                                      Quoted(text), e.message)};
    }
  }
  for (const auto& [key, text] : m.specialization) {
    if (!used_keys.contains(key)) {
      throw ManifestError{fmt::format("{}: [specialization].{}: no variant's shader has a constant of this id or name",
                                      m.path.string(), key)};
    }
  }
}

}  // namespace manifest_detail

}  // namespace csbench
