#include "capture/tool/manifest_writer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <fstream>
#include <set>

#include "capture/layer/formats.hpp"
#include "capture/tool/block_values.hpp"
#include "capture/tool/manifest_parts.hpp"
#include "harness/vulkan/interface.hpp"

namespace csbench::capture {

namespace {

bool ValidName(const std::string& name) {
  // The expressions' variables, and x, y, z and c, which a family with an image may not use.
  static const std::set<std::string> kReserved = {
      "W", "H", "WG_X", "WG_Y", "SUBGROUP_SIZE", "VENDOR_ID", "DEVICE_ID", "i", "x", "y", "z", "c"};
  if (name.empty() || name.size() > 60 || kReserved.contains(name) || std::isdigit(static_cast<unsigned char>(name[0])))
    return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

// How one binding's data is laid out for the manifest: its element type and bytes.
struct Layout {
  std::string type;     // the [[buffer]] type, or "" when the block cannot be given
  uint64_t stride = 0;  // bytes of one element
  uint64_t header = 0;  // bytes before the runtime array
  ScalarType scalar;    // what the tolerances follow
  std::string why;      // when type is ""
  uint64_t most = 0;    // a fixed-size array's length: no more elements than that (0: no bound)
  // A struct's members, "pos vec3 at 0, _m1 float at 12 (unnamed in the SPIR-V)" (nested: "inner.k").
  std::string members;
};

// `members` (of a struct at `base`, names after `prefix`) as Layout::members says them.
std::string MembersText(const std::vector<Member>& members, uint32_t base, const std::string& prefix) {
  std::string text;
  for (const Member& m : members) {
    const std::string part = m.type.kind == TypeLayout::Kind::kStruct
                                 ? MembersText(m.type.members, base + m.offset, prefix + m.name + ".")
                                 : fmt::format("{}{} {} at {}{}", prefix, m.name, m.type.glsl, base + m.offset,
                                               m.positional ? " (unnamed in the SPIR-V)" : "");
    text += (text.empty() ? "" : ", ") + part;
  }
  return text;
}

// The header member that checks would read under the same name as a member of the struct (a
// scalar beside a member of that name, or such a pair inside structs of one name): the manifest
// refuses that buffer.
const Member* SameCheckName(const std::vector<Member>& header, const std::vector<Member>& element) {
  for (const Member& h : header) {
    for (const Member& m : element) {
      if (h.name != m.name) continue;
      const bool h_struct = h.type.kind == TypeLayout::Kind::kStruct;
      const bool m_struct = m.type.kind == TypeLayout::Kind::kStruct;
      if (h_struct && m_struct) {
        if (const Member* inner = SameCheckName(h.type.members, m.type.members)) return inner;
      } else if (!m_struct && h.type.kind == TypeLayout::Kind::kScalar) {
        return &h;
      }
    }
  }
  return nullptr;
}

// Why a [[buffer]] of `element` structs after the block's members `header` would not load: two
// members of one struct with one name, or a header member named as one of the struct's; "" where
// neither.
std::string StructNameProblem(const TypeLayout& element, const std::vector<Member>& header) {
  if (auto clash = MemberNameClash(element.members, "its runtime array's struct")) return *clash;
  if (auto clash = MemberNameClash(header, "its block")) return *clash;
  if (const Member* h = SameCheckName(header, element.members))
    return fmt::format("its block's member {} before the runtime array has the name of a member of the array's "
                       "struct{}, which a [[buffer]] of type \"struct\" cannot tell apart",
                       h->name, h->positional ? " (it has no name in the SPIR-V and is named by its position)" : "");
  return "";
}

Layout LayoutOf(const Resource& resource) {
  const TypeLayout& block = resource.type;
  if (block.kind != TypeLayout::Kind::kStruct || block.members.empty()) return {.why = "its block is not a struct"};
  const Member& last = block.members.back();
  const TypeLayout& member = last.type;
  if (member.kind == TypeLayout::Kind::kRuntimeArray && member.element != nullptr) {
    const TypeLayout& element = *member.element;
    Layout layout{.stride = member.array_stride, .header = last.offset, .scalar = element.scalar};
    if (element.kind == TypeLayout::Kind::kScalar || element.kind == TypeLayout::Kind::kVector) {
      layout.type = element.glsl;
    } else if (element.kind == TypeLayout::Kind::kStruct) {
      // Members the SPIR-V does not name have names by position (Member), which the replay reads.
      layout.why = StructNameProblem(element, {block.members.begin(), block.members.end() - 1});
      if (layout.why.empty()) {
        layout.type = "struct";
        layout.members = MembersText(element.members, 0, "");
      }
    } else {
      layout.why = fmt::format("its runtime array holds {}, which a [[buffer]] cannot take",
                               element.glsl.empty() ? "arrays or matrices" : element.glsl);
    }
    if (layout.stride == 0) layout = {.why = "its runtime array has no stride"};
    return layout;
  }
  if (block.members.size() == 1 &&
      (member.kind == TypeLayout::Kind::kScalar || member.kind == TypeLayout::Kind::kVector))
    return {.type = member.glsl, .stride = member.size, .scalar = member.scalar};
  // One fixed-size array of scalars or vectors (generated code, such as VkFFT's, declares its
  // buffers so): its elements, no more than its length unless a specialization constant sizes it.
  const TypeLayout* element = member.element.get();
  if (block.members.size() == 1 && member.kind == TypeLayout::Kind::kArray && element != nullptr &&
      (element->kind == TypeLayout::Kind::kScalar || element->kind == TypeLayout::Kind::kVector)) {
    if (member.array_stride == 0) return {.why = "its array has no stride"};
    Layout layout{.type = element->glsl, .stride = member.array_stride, .scalar = element->scalar};
    if (!member.length_constant_id) layout.most = member.length;
    return layout;
  }
  return {.why = "its block has no runtime array and is not one scalar, vector or fixed-size array of them"};
}

// How many of the 32- or 64-bit floats in bytes [from, to) are NaN or infinite.
uint64_t NonFinite(const std::vector<uint8_t>& bytes, uint64_t from, uint64_t to, const Layout& layout) {
  const uint32_t bits = layout.scalar.bits;
  if (layout.type == "struct" || layout.scalar.kind != ScalarKind::kFloat || (bits != 32 && bits != 64)) return 0;
  uint64_t count = 0;
  for (uint64_t at = from; at + bits / 8 <= to; at += bits / 8) {
    double value = 0;
    if (bits == 32) {
      float f = 0;
      std::memcpy(&f, bytes.data() + at, 4);
      value = f;
    } else {
      std::memcpy(&value, bytes.data() + at, 8);
    }
    count += std::isfinite(value) ? 0 : 1;
  }
  return count;
}

std::string Tolerance(const ScalarType& scalar, const std::string& type) {
  Tolerances t;
  if (type != "struct" && scalar.kind != ScalarKind::kFloat) return "";
  if (scalar.bits == 16) return fmt::format(", tolerance = {}, abs_tolerance = {}", t.f16, t.f16_abs);
  if (scalar.bits == 64) return fmt::format(", tolerance = {}, abs_tolerance = {}", t.f64, t.f64_abs);
  return fmt::format(", tolerance = {}, abs_tolerance = {}", t.f32, t.f32_abs);
}

// A uniform buffer (each element of an array of them) as a [[uniform]] whose values are the bytes
// the program's buffer held before the dispatch, member by member.
void WriteUniform(const Resource& r, const RawCapture& capture, const std::filesystem::path& raw_dir,
                  std::string& uniforms, Written& written) {
  std::string where = fmt::format("set {} binding {}", r.set, r.binding);
  bool found = false;
  for (const RawBinding& b : capture.bindings) {
    if (b.set != r.set || b.binding != r.binding || (r.count != 0 && b.element >= r.count)) continue;
    found = true;
    std::string element = r.count != 1 ? fmt::format(" element {}", b.element) : "";
    if (!b.data) {
      written.skipped.push_back(fmt::format("{}{}: its data was not captured", where, element));
      continue;
    }
    std::vector<uint8_t> bytes = ReadFileBytes(raw_dir / fmt::format("s{}b{}e{}.before", b.set, b.binding, b.element));
    try {
      std::string values = ValuesToml(BlockValues(r.type.members, bytes.data(), bytes.size()));
      std::string name = ValidName(r.block) ? r.block : fmt::format("uniform_set{}_binding{}", r.set, r.binding);
      if (r.count != 1) name += fmt::format("_{}", b.element);
      uniforms += fmt::format(
          "\n# {}{}: a uniform buffer of {} bytes; its members as the program's buffer held them\n"
          "[[uniform]]\nname = \"{}\"\nset = {}\nbinding = {}\n{}[uniform.values]\n{}",
          where, element, b.bytes, name, r.set, r.binding, r.count != 1 ? fmt::format("element = {}\n", b.element) : "",
          values);
    } catch (const std::exception& e) {
      written.skipped.push_back(fmt::format("{}{}: a uniform buffer: {}", where, element, e.what()));
    }
  }
  if (!found) written.skipped.push_back(fmt::format("{}: a uniform buffer the program left unbound", where));
}

// The tolerances of an image's channels: a float format's as a buffer's of its width; a
// normalised one an absolute step of its bits (a driver may round a channel either way);
// integers none (compared exactly).
std::string ImageTolerance(const std::string& format) {
  Tolerances t;
  if (format.ends_with("ui") || format.ends_with("i")) return "";
  if (format.ends_with("16f")) return fmt::format(", tolerance = {}, abs_tolerance = {}", t.f16, t.f16_abs);
  if (format.ends_with("32f")) return fmt::format(", tolerance = {}, abs_tolerance = {}", t.f32, t.f32_abs);
  bool eight = format.find("16") == std::string::npos;
  return fmt::format(", tolerance = 0, abs_tolerance = {}", eight ? "0.004" : "0.00002");
}

// The texel type a format's reads return: "int", "uint" or "float".
std::string TexelKind(const std::string& glsl) {
  return glsl.ends_with("ui") ? "uint" : glsl.ends_with("i") ? "int" : "float";
}

// A storage image or a combined image sampler (each element of an array of them) as an [[image]]
// of the captured level and layer, its texels before the dispatch and, where the shader may write
// a storage image, after; a combined image sampler with its sampler's keys.
void WriteImage(const Resource& r, const RawCapture& capture, const std::filesystem::path& raw_dir, Files& files,
                std::string& images, Written& written, const Wording& wording) {
  std::string where = fmt::format("set {} binding {}", r.set, r.binding);
  const bool separate = r.kind == ResourceKind::kSampledImage;
  const bool sampled = r.kind == ResourceKind::kCombinedImageSampler || separate;
  const char* kind = separate ? "separate sampled image" : sampled ? "combined image sampler" : "storage image";
  if (separate && r.count != 1) {
    written.skipped.push_back(fmt::format("{}: an array of separate sampled images, which a manifest does not take",
                                          where));
    return;
  }
  if (r.image_dim != "2D" || r.arrayed || r.multisampled) {
    written.skipped.push_back(fmt::format("{}: a {} {}{}: only 2-D images are captured", where, kind, r.image_dim,
                                          r.arrayed ? " array" : ""));
    return;
  }
  if (sampled && r.depth) {
    written.skipped.push_back(
        fmt::format("{}: a depth-comparison sampler (sampler2DShadow), which a manifest cannot "
                    "describe",
                    where));
    return;
  }
  for (const RawBinding& b : capture.bindings) {
    if (b.set != r.set || b.binding != r.binding || (r.count != 0 && b.element >= r.count)) continue;
    std::string element = r.count != 1 ? fmt::format(" element {}", b.element) : "";
    const FormatInfo* format = FindFormat(static_cast<VkFormat>(b.format));
    if (!b.image || !b.data || format == nullptr || b.sampled != sampled || b.separate != separate) {
      written.skipped.push_back(fmt::format("{}{}: a {} whose texels were not captured", where, element, kind));
      continue;
    }
    const std::string declared = r.image_sampled.kind == ScalarKind::kInt    ? "int"
                                 : r.image_sampled.kind == ScalarKind::kUint ? "uint"
                                                                             : "float";
    if (sampled && declared != TexelKind(format->glsl)) {
      written.skipped.push_back(fmt::format("{}{}: the shader reads {} texels, the program's view is {}", where,
                                            element, declared, format->glsl));
      continue;
    }
    if (r.image_format != "unknown" && r.image_format != format->glsl) {
      written.skipped.push_back(fmt::format("{}{}: the shader declares {}, the program's view is {}", where, element,
                                            r.image_format, format->glsl));
      continue;
    }
    std::string name = ValidName(r.variable) ? r.variable : fmt::format("set{}_binding{}", r.set, r.binding);
    if (r.count != 1) name += fmt::format("_{}", b.element);
    if (!files.names.insert(name).second) name = fmt::format("set{}_binding{}_{}", r.set, r.binding, b.element);
    files.names.insert(name);
    std::string stem = fmt::format("s{}b{}e{}", b.set, b.binding, b.element);
    std::vector<uint8_t> before = ReadFileBytes(raw_dir / (stem + ".before"));
    std::vector<uint8_t> after = sampled ? before : ReadFileBytes(raw_dir / (stem + ".after"));
    if (before.size() != b.bytes || after.size() != b.bytes) {
      written.skipped.push_back(fmt::format("{}{}: its data files are short", where, element));
      continue;
    }
    std::string in = fmt::format("in{}.bin", files.next), out = fmt::format("out{}.bin", files.next);
    ++files.next;
    WriteFile(files.folder / in, before.data(), before.size());
    files.bytes += b.bytes;
    images += fmt::format(
        "\n# {}{}: a {} of {}x{} {} texels, the level and layer the program's view shows\n"
        "[[image]]\nname = \"{}\"\nset = {}\nbinding = {}\n{}format = \"{}\"\nwidth = \"{}\"\nheight = \"{}\"\n"
        "init = {{ file = \"{}\" }}  # its texels before {}, row by row\n",
        where, element, kind, b.width, b.height, format->glsl, name, r.set, r.binding,
        r.count != 1 ? fmt::format("element = {}\n", b.element) : "", format->glsl, b.width, b.height, in,
        wording.before);
    if (separate) {
      images += "# Read through the [[sampler]] the shader pairs it with\nusage = \"sampled\"\n";
      continue;
    }
    if (sampled) {
      images += fmt::format(
          "# The program's sampler (magnification and minification alike; LOD settings change nothing on one level)\n"
          "usage = \"sampled\"\nfilter = \"{}\"\naddress = \"{}\"\n{}unnormalized = {}\n",
          b.filter, b.address, b.border.empty() ? "" : fmt::format("border = \"{}\"\n", b.border),
          b.unnormalized ? "true" : "false");
      continue;
    }
    if (r.readonly) continue;
    files.any_output = true;
    WriteFile(files.folder / out, after.data(), after.size());
    images += fmt::format(
        "output = true  # {} may write it\n"
        "expect = {{ file = \"{}\"{} }}  # its texels after {}\n",
        wording.writer, out, ImageTolerance(format->glsl), wording.after);
  }
}

// The separate sampler `r` as the layer captured it, or null, with written.skipped saying why (an array of samplers, or
// the layer's note: a sampler a manifest cannot say, or none seen).
const RawBinding* SamplerOf(const Resource& r, const RawCapture& capture, Written& written) {
  const std::string where = fmt::format("set {} binding {}", r.set, r.binding);
  if (r.count != 1) {
    written.skipped.push_back(fmt::format("{}: an array of samplers, which a manifest does not take", where));
    return nullptr;
  }
  auto s = std::find_if(capture.samplers.begin(), capture.samplers.end(), [&](const RawBinding& s) {
    return s.set == r.set && s.binding == r.binding && s.element == 0;
  });
  if (s != capture.samplers.end()) return &*s;
  const std::string prefix = fmt::format("sampler {} element 0: a sampler: ", where);
  std::string why = "not written or not seen";
  for (const std::string& note : capture.notes)
    if (note.starts_with(prefix)) why = note.substr(prefix.size());
  written.skipped.push_back(fmt::format("{}: a sampler: {}", where, why));
  return nullptr;
}

// A separate sampler (`sampler s;`) as a [[sampler]] with the program's sampler's keys.
void WriteSampler(const Resource& r, const RawCapture& capture, std::string& images, Files& files, Written& written) {
  const std::string where = fmt::format("set {} binding {}", r.set, r.binding);
  const RawBinding* s = SamplerOf(r, capture, written);
  if (s == nullptr) return;
  std::string name = ValidName(r.variable) ? r.variable : fmt::format("set{}_binding{}", r.set, r.binding);
  if (!files.names.insert(name).second) name = fmt::format("set{}_binding{}_sampler", r.set, r.binding);
  files.names.insert(name);
  images += fmt::format(
      "\n# {}: a separate sampler, the program's (magnification and minification alike; LOD settings change nothing "
      "on one level)\n[[sampler]]\nname = \"{}\"\nset = {}\nbinding = {}\nfilter = \"{}\"\naddress = \"{}\"\n{}"
      "unnormalized = {}\n",
      where, name, r.set, r.binding, s->filter, s->address,
      s->border.empty() ? "" : fmt::format("border = \"{}\"\n", s->border), s->unnormalized ? "true" : "false");
}

}  // namespace

std::string BufferShape(const Resource& r) {
  Layout layout = LayoutOf(r);
  if (layout.type.empty()) return layout.why;
  return fmt::format("{} elements of {} bytes after {} header bytes{}{}", layout.type, layout.stride, layout.header,
                     layout.most != 0 ? fmt::format(", at most {}", layout.most) : "",
                     layout.members.empty() ? "" : fmt::format(" (members {})", layout.members));
}

void WriteManifest(const std::filesystem::path& folder, const std::string& text, Written& written) {
  written.path = folder / (folder.filename().string() + ".toml");
  std::ofstream out(written.path, std::ios::trunc);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + written.path.string());
  written.manifest = true;
}

void WriteFile(const std::filesystem::path& path, const uint8_t* data, size_t size) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

void WriteResources(const std::vector<Resource>& resources, const RawCapture& capture,
                    const std::filesystem::path& raw_dir, Files& files, ResourceText& text, Written& written,
                    const Wording& wording) {
  std::string& buffers = text.buffers;
  for (const Resource& r : resources) {
    std::string where = fmt::format("set {} binding {}", r.set, r.binding);
    if (r.kind == ResourceKind::kUniformBuffer) {
      WriteUniform(r, capture, raw_dir, text.uniforms, written);
      continue;
    }
    if (r.kind == ResourceKind::kStorageImage || r.kind == ResourceKind::kCombinedImageSampler ||
        r.kind == ResourceKind::kSampledImage) {
      WriteImage(r, capture, raw_dir, files, text.images, written, wording);
      continue;
    }
    if (r.kind == ResourceKind::kSampler) {
      WriteSampler(r, capture, text.images, files, written);
      continue;
    }
    if (r.kind != ResourceKind::kStorageBuffer) {
      written.skipped.push_back(fmt::format(
          "{}: a {}, which capture does not take yet (storage and uniform buffers, storage images and combined image "
          "samplers only)",
          where, KindName(r.kind)));
      continue;
    }
    Layout layout = LayoutOf(r);
    if (layout.type.empty()) {
      written.skipped.push_back(fmt::format("{}: {}", where, layout.why));
      continue;
    }
    for (const RawBinding& b : capture.bindings) {
      if (b.set != r.set || b.binding != r.binding || (r.count != 0 && b.element >= r.count)) continue;
      bool array = r.count != 1;
      // The variable's name, else its block's (GLSL's nameless blocks), else where it is bound.
      std::string name = ValidName(r.variable) ? r.variable
                         : ValidName(r.block)  ? r.block
                                               : fmt::format("set{}_binding{}", r.set, r.binding);
      if (array) name += fmt::format("_{}", b.element);
      if (!files.names.insert(name).second) name = fmt::format("set{}_binding{}_{}", r.set, r.binding, b.element);
      files.names.insert(name);
      std::string stem = fmt::format("s{}b{}e{}", b.set, b.binding, b.element);
      uint64_t count = b.bytes > layout.header ? (b.bytes - layout.header) / layout.stride : 0;
      if (layout.most != 0) count = std::min(count, layout.most);
      if (!b.data || count == 0) {
        written.skipped.push_back(fmt::format(
            "{}{}: {}", where, array ? fmt::format(" element {}", b.element) : "",
            b.data ? fmt::format("{} bytes bound, less than one element", b.bytes) : "its data was not captured"));
        continue;
      }
      uint64_t used = layout.header + count * layout.stride;
      std::vector<uint8_t> before = ReadFileBytes(raw_dir / (stem + ".before"));
      std::vector<uint8_t> after = ReadFileBytes(raw_dir / (stem + ".after"));
      if (before.size() < used || after.size() < used) {
        written.skipped.push_back(fmt::format("{}: its data files are short", where));
        continue;
      }
      bool output = !r.readonly;
      std::string in = fmt::format("in{}.bin", files.next), out = fmt::format("out{}.bin", files.next);
      ++files.next;
      WriteFile(files.folder / in, before.data(), used);
      files.bytes += used;
      std::string declared_as = r.block.empty() ? "a block without a name" : "block " + r.block;
      if (!r.variable.empty()) declared_as += " " + r.variable;
      buffers += fmt::format("\n# {}{}: {} bytes bound by the program; the shader declares {}{}\n", where,
                             array ? fmt::format(" element {}", b.element) : "", b.bytes, declared_as,
                             r.readonly    ? ", readonly"
                             : r.writeonly ? ", writeonly"
                                           : "");
      if (b.bytes > used)
        buffers += fmt::format("# the last {} bytes bound, {}, are left out\n", b.bytes - used,
                               b.bytes - used < layout.stride ? "less than an element" : "past the shader's array");
      buffers += fmt::format("[[buffer]]\nname = \"{}\"\nset = {}\nbinding = {}\n", name, r.set, r.binding);
      if (array) buffers += fmt::format("element = {}\n", b.element);
      buffers += fmt::format("type = \"{}\"\ncount = \"{}\"\n", layout.type, count);
      if (!layout.members.empty())
        buffers += fmt::format("# the struct's members and byte offsets, as the shader lays them out: {}\n",
                               layout.members);
      if (layout.header > 0)
        buffers += fmt::format("# its file holds the {} header bytes before the array too\n", layout.header);
      buffers += fmt::format("init = {{ file = \"{}\" }}  # its bytes before {}\n", in, wording.before);
      if (output) {
        files.any_output = true;
        WriteFile(files.folder / out, after.data(), used);
        bool changed = std::memcmp(before.data(), after.data(), used) != 0;
        if (uint64_t bad = NonFinite(after, layout.header, used, layout))
          written.notes.push_back(fmt::format(
              "output '{}' holds {} NaN or infinite values after {} (also in padding, if any); "
              "the replay matches each with its like in the expected file (NaN with NaN, an infinity with the same)",
              name, bad, wording.after));
        buffers += fmt::format("output = true  # {} may write it{}\n", wording.writer,
                               changed ? "" : fmt::format(" ({} left it unchanged)", wording.program));
        buffers += fmt::format("expect = {{ file = \"{}\"{} }}  # its bytes after {}\n", out,
                               Tolerance(layout.scalar, layout.type), wording.after);
        // A buffer the shader's instructions read as well as write would otherwise evolve from one
        // timed dispatch to the next, each after the first on data the program never gave it.
        if (r.reads && r.writes)
          buffers += "restore = true  # the shader reads it too: every timed dispatch starts from the bytes before\n";
      }
    }
  }
}

Written WriteDispatch(const RawCapture& capture, const std::filesystem::path& raw_dir, const Chosen& chosen,
                      const std::filesystem::path& folder, const std::string& family, const std::string& command,
                      const std::string& hash) {
  Written written;
  std::filesystem::create_directories(folder);
  WriteFile(folder / "shader.spv", reinterpret_cast<const uint8_t*>(capture.spirv.data()), capture.spirv.size() * 4);
  for (const std::string& note : capture.notes)
    if (note.starts_with("not captured:")) written.skipped.push_back(note.substr(14));
  CheckIndirectCounts(capture.source, capture.groups, capture.limits, "", written);
  std::optional<ShaderInterface> reflected = Reflect(capture.spirv, written);
  if (!reflected) return written;
  const ShaderInterface& shader = *reflected;
  // Notes of descriptors the shader does not declare are left out: they change nothing.
  std::set<std::pair<uint32_t, uint32_t>> declared;
  for (const Resource& r : shader.resources) declared.insert({r.set, r.binding});
  TakeNotes(capture.notes, declared, written);

  Files files{.folder = folder};
  ResourceText resources;
  // A combined image sampler the layer could not capture leaves the dispatch without data files.
  const size_t skipped_before = written.skipped.size();
  for (const Resource& r : shader.resources) {
    // A separate sampler the layer could not say: before any data file is written.
    if (r.kind == ResourceKind::kSampler) SamplerOf(r, capture, written);
    if (r.kind != ResourceKind::kCombinedImageSampler && r.kind != ResourceKind::kSampledImage) continue;
    std::set<uint32_t> seen;
    for (const RawBinding& b : capture.bindings)
      if (b.set == r.set && b.binding == r.binding) seen.insert(b.element);
    SampledLeftOut(r, capture, seen, written);
  }
  if (written.skipped.size() > skipped_before) return written;
  WriteResources(shader.resources, capture, raw_dir, files, resources, written, Wording{});
  if (!files.any_output && written.skipped.empty())
    written.skipped.push_back("the shader writes no storage buffer or image: there is nothing to check");
  std::string requires_list;
  for (const std::string& name : RequirementsOf(shader))
    requires_list += fmt::format("{}\"{}\"", requires_list.empty() ? "" : ", ", name);
  const ProgramLocal program_local = LocalOf(shader, capture.spec);
  const std::array<uint32_t, 3>& local = program_local.local;
  const bool by_constants = program_local.by_constants;
  std::string spec = SpecLines(shader, capture.spec, program_local.ids, written);
  std::string push = PushText(shader, capture.push, "push", written);
  if (!written.skipped.empty()) return written;

  const auto& g = capture.groups;
  uint64_t invocations = uint64_t{g[0]} * g[1] * g[2] * local[0] * local[1] * local[2];
  uint64_t domain = invocations <= 4294967295ull ? invocations : uint64_t{g[0]} * g[1] * g[2];
  std::string text = fmt::format(
      "# Captured by csbench-capture from: {}\n"
      "# {} (pipeline {}, SPIR-V SHA-256 {}).\n"
      "# Replay: csbench --manifest=<this folder>. Each input starts from the bytes the program's\n"
      "# buffer held before the dispatch; each output is checked against what the program's own\n"
      "# dispatch left there.\n\n"
      "[family]\nname = \"{}\"\n"
      "# One domain: the dispatch's invocations ({}), counted as its elements.\n"
      "domains = [\"{}\"]\nelements = \"W\"\n"
      "# Every binding's bytes once: inputs read, outputs written.\nbytes = \"{}\"\n",
      command, chosen.why, chosen.row.pipeline, hash, family,
      invocations <= 4294967295ull ? "workgroups x local size" : "too many: the workgroups instead", domain,
      files.bytes);
  if (by_constants)
    text += fmt::format("# The local size the program's specialization constants gave.\nworkgroups = [\"{}x{}{}\"]\n",
                        local[0], local[1], shader.local_size.constant_id[2] ? fmt::format("x{}", local[2]) : "");
  text += resources.buffers + resources.images + resources.uniforms + push;
  // A one-dimensional dispatch whose local size is a specialization constant covers the domain at
  // any workgroup (--workgroup, --tune); any other keeps the program's counts.
  const bool scalable = by_constants && invocations <= 4294967295ull && g[1] == 1 && g[2] == 1 && local[1] == 1 &&
                        local[2] == 1;
  text += "\n" + IndirectComment(capture.source, g);
  if (scalable) {
    text += fmt::format(
        "# The workgroups the program dispatched ({} x 1 x 1), as the domain over the workgroup's width,\n"
        "# so that another workgroup covers the same invocations.\n[dispatch]\ngroups = [\"ceil(W / WG_X)\", \"1\", "
        "\"1\"]\n",
        g[0]);
  } else {
    text += fmt::format("# The workgroups the program dispatched.\n[dispatch]\ngroups = [\"{}\", \"{}\", \"{}\"]\n",
                        g[0], g[1], g[2]);
  }
  if (!spec.empty())
    text += "\n# The constants the program set (by constant_id); the others keep their defaults.\n[specialization]\n" +
            spec;
  text += fmt::format(
      "\n[[variant]]\nname = \"captured\"\nsource = \"shader.spv\"\nentry = \"{}\"\n"
      "{}",
      capture.entry, VulkanLines(capture.spirv));
  if (!requires_list.empty())
    text += "# What the shader's SPIR-V capabilities ask of a device.\nrequires = [" + requires_list + "]\n";
  WriteManifest(folder, text, written);
  return written;
}

}  // namespace csbench::capture
