// The parts of a captured manifest that one dispatch and a sequence write alike
// (capture/tool/manifest_parts.hpp): the shader's interface and requirements, its local size,
// specialization and push constants as the manifest gives them.
#include "capture/tool/manifest_parts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

#include "capture/tool/block_values.hpp"

namespace csbench::capture {

namespace {

// The manifest's `requires` names of the SPIR-V capabilities that show them
// (docs/your-own-kernels.md, "Requirements").
const std::map<std::string, std::string>& RequirementOf() {
  static const std::map<std::string, std::string> kTable = {
      {"GroupNonUniform", "subgroup_basic"},
      {"GroupNonUniformVote", "subgroup_vote"},
      {"GroupNonUniformArithmetic", "subgroup_arithmetic"},
      {"GroupNonUniformBallot", "subgroup_ballot"},
      {"GroupNonUniformShuffle", "subgroup_shuffle"},
      {"GroupNonUniformShuffleRelative", "subgroup_shuffle_relative"},
      {"GroupNonUniformClustered", "subgroup_clustered"},
      {"GroupNonUniformQuad", "subgroup_quad"},
      {"Float16", "float16"},
      {"Float64", "float64"},
      {"Int8", "int8"},
      {"Int16", "int16"},
      {"Int64", "int64"},
      {"StorageBuffer8BitAccess", "storage_buffer_8bit"},
      {"UniformAndStorageBuffer8BitAccess", "uniform_buffer_8bit"},
      {"StoragePushConstant8", "push_constant_8bit"},
      {"StorageBuffer16BitAccess", "storage_buffer_16bit"},
      {"UniformAndStorageBuffer16BitAccess", "uniform_buffer_16bit"},
      {"StoragePushConstant16", "push_constant_16bit"},
      {"Int64Atomics", "int64_atomics"},
      {"AtomicFloat32AddEXT", "float_atomic_add"},
      {"AtomicFloat64AddEXT", "float64_atomic_add"},
      {"VulkanMemoryModel", "vulkan_memory_model"},
      {"RuntimeDescriptorArray", "runtime_descriptor_array"},
      {"StorageBufferArrayNonUniformIndexing", "storage_buffer_array_non_uniform_indexing"},
  };
  return kTable;
}

// Capabilities whose data a capture cannot see.
const std::map<std::string, std::string>& UnseenOf() {
  static const std::map<std::string, std::string> kTable = {
      {"PhysicalStorageBufferAddresses", "buffer device addresses (memory reached through an address is not captured)"},
      {"VariablePointers", "variable pointers"},
  };
  return kTable;
}

uint64_t Little(const std::vector<uint8_t>& bytes, size_t width) {
  uint64_t value = 0;
  for (size_t i = 0; i < std::min(width, bytes.size()); ++i) value |= uint64_t{bytes[i]} << (8 * i);
  return value;
}

// A specialization constant's value as the manifest writes it; nullopt for a value it cannot hold.
std::optional<std::string> SpecValue(const SpecConstant& constant, std::vector<uint8_t> bytes) {
  bytes.resize(8, 0);
  if (constant.type.kind == ScalarKind::kBool) return Little(bytes, 4) != 0 ? "true" : "false";
  std::optional<std::string> text = ScalarText(constant.type, bytes.data(), bytes.size());
  if (!text) return std::nullopt;
  return "\"" + *text + "\"";
}

// The `vulkan` key a module's SPIR-V version needs.
std::string VulkanOf(const std::vector<uint32_t>& spirv) {
  uint32_t minor = spirv.size() > 1 ? (spirv[1] >> 8) & 0xff : 0;
  return minor <= 3 ? "1.1" : minor <= 5 ? "1.2" : "1.3";
}

}  // namespace

std::optional<ShaderInterface> Reflect(const std::vector<uint32_t>& spirv, Written& written) {
  ShaderInterface shader;
  try {
    shader = ReflectInterface(spirv);
  } catch (const std::exception& e) {
    written.skipped.push_back(std::string("its SPIR-V cannot be read: ") + e.what());
    return std::nullopt;
  }
  for (const std::string& capability : shader.capabilities)
    if (auto it = UnseenOf().find(capability); it != UnseenOf().end())
      written.skipped.push_back(fmt::format("the shader uses {} (SPIR-V {})", it->second, capability));
  return shader;
}

void TakeNotes(const std::vector<std::string>& notes, const std::set<std::pair<uint32_t, uint32_t>>& declared,
               Written& written) {
  // The layer may note one thing twice (a note of the device, per recording that held the dispatch).
  auto take = [&](const std::string& text) {
    if (std::find(written.notes.begin(), written.notes.end(), text) == written.notes.end())
      written.notes.push_back(text);
  };
  for (const std::string& note : notes) {
    uint32_t set = 0, binding = 0;
    if (note.starts_with("note:")) take(note.substr(6));
    if (std::sscanf(note.c_str(), "binding set %u binding %u", &set, &binding) == 2 &&
        declared.contains({set, binding}))
      take(note);
  }
}

void SampledLeftOut(const Resource& r, const RawCapture& capture, const std::set<uint32_t>& seen, Written& written) {
  for (uint32_t e = 0; e < r.count; ++e) {
    if (seen.contains(e)) continue;
    const std::string where =
        fmt::format("set {} binding {} element {}: a {}", r.set, r.binding, e,
                    r.kind == ResourceKind::kSampledImage ? "separate sampled image" : "combined image sampler");
    std::string why = "not written or not seen";
    for (const std::string& note : capture.notes)
      if (note.starts_with("sampled " + where + ": ")) why = note.substr(where.size() + 10);
    const std::string line = fmt::format("{}: {}", where, why);
    // Several passes of a sequence may declare one slot.
    if (std::find(written.skipped.begin(), written.skipped.end(), line) == written.skipped.end())
      written.skipped.push_back(line);
  }
}

void CheckIndirectCounts(const IndirectSource& source, const std::array<uint32_t, 3>& groups,
                         const std::array<uint32_t, 3>& limits, const std::string& what, Written& written) {
  if (source.indirect && !source.read) {
    written.skipped.push_back(what + "an indirect dispatch whose workgroup counts could not be read");
    return;
  }
  const std::string problem = CountsProblem(groups, limits);
  if (!problem.empty()) {
    written.skipped.push_back(fmt::format("{}{}{}; written with its SPIR-V, not replayed", what,
                                          source.indirect ? "an indirect dispatch read " : "", problem));
    return;
  }
  if (source.indirect)
    written.notes.push_back(
        fmt::format("{}indirect: captured with the counts it had ({}, {}, {})", what, groups[0], groups[1], groups[2]));
}

std::string IndirectComment(const IndirectSource& source, const std::array<uint32_t, 3>& groups) {
  if (!source.indirect) return "";
  return fmt::format(
      "# The workgroup counts were read from the indirect buffer (vkCmdDispatchIndirect: its\n"
      "# VkDispatchIndirectCommand at offset {} of a buffer of {} bytes) as the dispatch ran, after the\n"
      "# commands before it in its command buffer: {} x {} x {}.\n",
      source.offset, source.buffer_size, groups[0], groups[1], groups[2]);
}

std::vector<std::string> RequirementsOf(const ShaderInterface& shader) {
  std::vector<std::string> names;
  for (const std::string& capability : shader.capabilities)
    if (auto it = RequirementOf().find(capability); it != RequirementOf().end()) names.push_back(it->second);
  return names;
}

ProgramLocal LocalOf(const ShaderInterface& shader, const std::map<uint32_t, std::vector<uint8_t>>& spec) {
  // Literal dimensions stay in the shader; those taken from constants get the values the program
  // gave them.
  ProgramLocal out{.local = shader.local_size.literal};
  for (int d = 0; d < 3; ++d)
    if (const auto& id = shader.local_size.constant_id[d]) {
      out.by_constants = true;
      out.ids.insert(*id);
      if (auto it = spec.find(*id); it != spec.end()) out.local[d] = static_cast<uint32_t>(Little(it->second, 4));
    }
  return out;
}

std::string SpecLines(const ShaderInterface& shader, const std::map<uint32_t, std::vector<uint8_t>>& spec,
                      const std::set<uint32_t>& local_ids, Written& written) {
  std::string lines;
  for (const SpecConstant& c : shader.constants) {
    if (local_ids.contains(c.id)) continue;
    auto it = spec.find(c.id);
    if (it == spec.end()) continue;
    std::optional<std::string> value = SpecValue(c, it->second);
    if (!value) {
      written.skipped.push_back(fmt::format("specialization constant {}: a value the manifest cannot hold", c.id));
      continue;
    }
    lines +=
        fmt::format("{} = {}  # {}the program's value\n", c.id, *value, c.names.empty() ? "" : c.names.front() + ": ");
  }
  return lines;
}

std::string PushText(const ShaderInterface& shader, const std::vector<uint8_t>& pushed, const std::string& table,
                     Written& written) {
  std::string push;
  if (!shader.push) return push;
  uint32_t size = shader.push->size;
  if (pushed.size() < size)
    written.notes.push_back(fmt::format("the program pushed {} of the push block's {} bytes; the rest are 0 here",
                                        pushed.size(), size));
  std::vector<uint8_t> bytes(pushed.begin(), pushed.begin() + std::min<size_t>(size, pushed.size()));
  bytes.resize(size);
  if (size % 4 != 0) {
    // Not a whole number of 32-bit words: the block's members by name.
    try {
      push = fmt::format("\n# The {} bytes the program pushed, by the block's members.\n[{}.values]\n", size, table) +
             ValuesToml(BlockValues(shader.push->members, bytes.data(), bytes.size()));
    } catch (const std::exception& e) {
      written.skipped.push_back(fmt::format("its push constants: {}", e.what()));
    }
    return push;
  }
  push = fmt::format("\n# The {} bytes the program pushed, as 32-bit words; its block's members:\n", size);
  for (const Member& m : shader.push->members) {
    std::vector<uint8_t> value(bytes.begin() + std::min<size_t>(m.offset, size),
                               bytes.begin() + std::min<size_t>(m.offset + 8, size));
    std::string shown = "see the words";
    if (m.type.kind == TypeLayout::Kind::kScalar && m.type.scalar.bits == 32 && value.size() >= 4)
      shown = ScalarText(m.type.scalar, value.data(), value.size()).value_or("not a finite number");
    push +=
        fmt::format("#   {} {}{} at byte {}: {}\n", m.type.glsl, m.name, m.positional ? " (unnamed in the SPIR-V)" : "",
                    m.offset, shown);
  }
  std::string words;
  for (uint32_t i = 0; i < size; i += 4)
    words += fmt::format("{}\"{}\"", i == 0 ? "" : ", ", Little({bytes.begin() + i, bytes.begin() + i + 4}, 4));
  return push + "[" + table + "]\nconstants = [" + words + "]\n";
}

std::string VulkanLines(const std::vector<uint32_t>& spirv) {
  return fmt::format("# SPIR-V {}.{}\nvulkan = \"{}\"\n", spirv.size() > 1 ? (spirv[1] >> 16) & 0xff : 0,
                     spirv.size() > 1 ? (spirv[1] >> 8) & 0xff : 0, VulkanOf(spirv));
}

}  // namespace csbench::capture
