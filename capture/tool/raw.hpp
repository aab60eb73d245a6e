// What the capture layer wrote (capture/layer/output.cpp), read back: pass 1's summary of every
// dispatch, and pass 2's captured dispatches.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace csbench::capture {

// Where a dispatch ran, as the layer's capture mode finds it again: the recording (the serial of
// its vkBeginCommandBuffer), the dispatch's place in it, and the submission of that recording.
struct Place {
  uint64_t serial = 0;
  uint32_t ordinal = 0, submission = 0;
};

struct KeyRow {
  uint32_t pipeline = 0;
  std::array<uint32_t, 3> groups{};
  uint64_t count = 0;
  Place first;
  uint64_t first_index = 0;
  uint64_t indirect = 0;        // of `count`, indirect dispatches (counted by the counts read as they ran)
  bool first_indirect = false;  // the first was indirect: pass 2 finds it by its place
};

// Pass 1: submissions of one recording that ran two or more dispatches, by their pipelines.
struct RunRow {
  uint64_t count = 0;             // submissions like it
  Place first;                    // where the first ran (its first dispatch's place)
  uint64_t first_index = 0;       // its first dispatch's index
  uint32_t dispatches = 0;        // how many it ran
  bool transfers = false;         // transfer commands were recorded among them
  std::vector<int64_t> pipelines;  // the first 64 dispatches' pipelines (-1: not seen)
};

struct Summary {
  uint64_t dispatches = 0;
  std::map<uint32_t, std::string> pipelines;   // id -> entry point, for those with SPIR-V
  std::map<uint32_t, std::string> signatures;  // id -> the layer's signature of it (hex)
  std::vector<KeyRow> keys;
  std::map<uint32_t, uint64_t> indirect, based;
  std::map<uint32_t, uint64_t> unread;  // indirect dispatches whose counts could not be read
  std::array<uint32_t, 3> limits{};     // the device's maxComputeWorkGroupCount (0: not known)
  std::map<uint64_t, KeyRow> nth;  // index -> its key and place (count unused)
  std::vector<RunRow> runs;
  std::vector<std::string> notes;
};

// Reads DIR/summary.txt; nullopt when there is none (the layer never saw an instance).
std::optional<Summary> ReadSummary(const std::filesystem::path& dir);

struct RawBinding {
  uint32_t set = 0, binding = 0, element = 0;
  uint64_t bytes = 0;
  bool data = false;
  // A storage image's level and layer, its texels tightly packed: size and VkFormat.
  bool image = false;
  uint32_t width = 0, height = 0;
  int format = 0;
  // A combined image sampler's image (no texels after: only read), and its sampler as a manifest's
  // keys (border "" unless clamp_to_border).
  bool sampled = false;
  bool separate = false;  // a separate sampled image (texture2D): sampled, with no sampler of its own
  std::string filter, address, border;
  bool unnormalized = false;
};

// Where an indirect dispatch's workgroup counts came from: the offset of its
// VkDispatchIndirectCommand in its buffer, the buffer's size, and whether the layer read them.
struct IndirectSource {
  bool indirect = false;
  uint64_t offset = 0, buffer_size = 0;
  bool read = false;
};

// One dispatch of a captured sequence.
struct RawStep {
  uint32_t pipeline = 0;
  std::array<uint32_t, 3> groups{};
  std::string entry = "main";
  std::string signature;
  std::map<uint32_t, std::vector<uint8_t>> spec;
  std::vector<uint8_t> push;
  // (set, binding, element) it bound, and the index in RawCapture::bindings of what it held there
  std::vector<std::array<uint32_t, 4>> slots;
  std::vector<uint32_t> spirv;
  IndirectSource source;  // an indirect dispatch: `groups` are the counts read
};

struct RawCapture {
  uint32_t pipeline = 0;
  std::array<uint32_t, 3> groups{};
  std::string entry = "main";
  std::string signature;
  std::map<uint32_t, std::vector<uint8_t>> spec;  // constant id -> its bytes
  std::vector<uint8_t> push;
  std::vector<RawBinding> bindings;
  // Its separate samplers (`sampler` lines): set, binding, element and the keys (filter, address, border, unnormalized);
  // no data.
  std::vector<RawBinding> samplers;
  std::vector<std::string> notes;
  std::vector<uint32_t> spirv;
  // A sequence: its dispatches in order; `bindings` is then the union of theirs, and the fields
  // above of one dispatch are unused.
  bool sequence = false;
  std::vector<RawStep> steps;
  IndirectSource source;             // an indirect dispatch: `groups` are the counts read
  std::array<uint32_t, 3> limits{};  // the device's maxComputeWorkGroupCount (0: not known)
};

// Reads DIR/capture<T>/; nullopt when the layer wrote nothing there (the dispatch was never run).
std::optional<RawCapture> ReadCapture(const std::filesystem::path& dir);

std::vector<uint8_t> ReadFileBytes(const std::filesystem::path& path);

}  // namespace csbench::capture
