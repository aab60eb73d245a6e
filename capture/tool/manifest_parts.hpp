// The parts of a captured manifest that a single dispatch (manifest_writer.cpp) and a sequence of
// them (sequence_writer.cpp) write alike: the resources with their data files, the push
// constants, the specialization, the local size and the shader's requirements.
#pragma once

#include <array>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "capture/tool/manifest_writer.hpp"
#include "harness/vulkan/interface.hpp"

namespace csbench::capture {

// What the manifest's resources share while they are written: the folder, the data files'
// numbers, the names taken, the bytes and whether anything is checked.
struct Files {
  std::filesystem::path folder;
  int next = 0;
  std::set<std::string> names;
  uint64_t bytes = 0;
  bool any_output = false;
};

// The words of the comments beside the data: what the data was read around, and what wrote it.
struct Wording {
  const char* before = "the dispatch";          // "its bytes before ..."
  const char* after = "the program's dispatch";  // "its bytes after ..."
  const char* writer = "the shader";            // "... may write it"
  const char* program = "the program's dispatch";  // "(... left it unchanged)"
};

struct ResourceText {
  std::string buffers, images, uniforms;
};

// Each of `resources` the capture's bindings hold, as [[buffer]], [[image]] and [[uniform]] tables
// with their data files in files.folder; what cannot be written goes to written.skipped.
void WriteResources(const std::vector<Resource>& resources, const RawCapture& capture,
                    const std::filesystem::path& raw_dir, Files& files, ResourceText& text, Written& written,
                    const Wording& wording);

// A storage buffer's block as the manifest lays it out (its element type, stride, header and
// bound; a struct's members by name), in words: two declarations of one slot that agree on it take
// the same [[buffer]].
std::string BufferShape(const Resource& r);

// The module's interface, or nullopt (and why in written.skipped); a capability whose memory the
// capture cannot see is skipped too.
std::optional<ShaderInterface> Reflect(const std::vector<uint32_t>& spirv, Written& written);

// The layer's notes that concern the manifest: its own ("note: ...") and those of descriptors
// `declared` holds.
void TakeNotes(const std::vector<std::string>& notes, const std::set<std::pair<uint32_t, uint32_t>>& declared,
               Written& written);

// Each element of the combined image sampler or separate sampled image `r` that `seen` lacks, as written.skipped with
// the layer's reason (its note "sampled set S binding B element E: a combined image sampler: WHY", or "... a separate
// sampled image: WHY").
void SampledLeftOut(const Resource& r, const RawCapture& capture, const std::set<uint32_t>& seen, Written& written);

// The manifest's `requires` names of the shader's capabilities, in their order.
std::vector<std::string> RequirementsOf(const ShaderInterface& shader);

// The local size the dispatch ran at: literal dimensions, and those the program's constants gave.
struct ProgramLocal {
  std::array<uint32_t, 3> local{};
  bool by_constants = false;
  std::set<uint32_t> ids;  // the constants that give it
};
ProgramLocal LocalOf(const ShaderInterface& shader, const std::map<uint32_t, std::vector<uint8_t>>& spec);

// The constants the program set, other than `local_ids`, as `id = value  # name` lines.
std::string SpecLines(const ShaderInterface& shader, const std::map<uint32_t, std::vector<uint8_t>>& spec,
                      const std::set<uint32_t>& local_ids, Written& written);

// The push bytes as the table `table` ("push", "variant.pass.push"), with a comment; "" without a
// push block.
std::string PushText(const ShaderInterface& shader, const std::vector<uint8_t>& pushed, const std::string& table,
                     Written& written);

// An indirect dispatch's counts as the manifest and the report give them: Check adds to
// written.skipped why a dispatch of `groups` is not replayed (counts not read, 0, or past
// `limits`), with `what` naming it ("", "dispatch 12: "), and, for an indirect one that is, the
// report's line to written.notes; Comment is the manifest's comment line(s) saying where the
// counts came from ("" for a direct dispatch).
void CheckIndirectCounts(const IndirectSource& source, const std::array<uint32_t, 3>& groups,
                         const std::array<uint32_t, 3>& limits, const std::string& what, Written& written);
std::string IndirectComment(const IndirectSource& source, const std::array<uint32_t, 3>& groups);

// The module's SPIR-V version as a comment and the `vulkan` key it needs.
std::string VulkanLines(const std::vector<uint32_t>& spirv);

void WriteFile(const std::filesystem::path& path, const uint8_t* data, size_t size);
// The manifest `text` as FOLDER/<folder's name>.toml; written.path and written.manifest say so.
void WriteManifest(const std::filesystem::path& folder, const std::string& text, Written& written);

}  // namespace csbench::capture
