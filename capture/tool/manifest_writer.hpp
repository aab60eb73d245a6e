// One captured dispatch written as a csbench manifest: the SPIR-V, the manifest (each value with
// a comment saying where it came from), each binding's bytes before the dispatch (inN.bin) and,
// for each binding the shader may write, after it (outN.bin).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "capture/tool/raw.hpp"
#include "capture/tool/selection.hpp"

namespace csbench::capture {

struct Written {
  bool manifest = false;             // a manifest that replays the dispatch with its data
  std::filesystem::path path;        // the manifest, where written
  std::vector<std::string> skipped;  // why there is no manifest, one reason a line
  std::vector<std::string> notes;    // what the capture says beside it
};

struct Tolerances {
  double f16 = 1e-2, f16_abs = 1e-3;
  double f32 = 1e-4, f32_abs = 1e-6;
  double f64 = 1e-9, f64_abs = 1e-12;
};

// Writes `folder` from the capture. `family` names the manifest's family; `command` is the
// program's command line, for the manifest's header.
Written WriteDispatch(const RawCapture& capture, const std::filesystem::path& raw_dir, const Chosen& chosen,
                      const std::filesystem::path& folder, const std::string& family, const std::string& command,
                      const std::string& hash);

// Writes `folder` from a captured sequence (capture/tool/sequence_writer.cpp): one manifest whose
// variant `captured` is the sequence's dispatches as passes. `hashes` maps each pipeline to its
// SPIR-V's SHA-256.
Written WriteSequence(const RawCapture& capture, const std::filesystem::path& raw_dir, const Chosen& chosen,
                      const std::filesystem::path& folder, const std::string& family, const std::string& command,
                      const std::map<uint32_t, std::string>& hashes);

}  // namespace csbench::capture
