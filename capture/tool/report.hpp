// The capture's report (DIR/report.txt) and the tool's exit codes.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "capture/tool/manifest_writer.hpp"
#include "capture/tool/raw.hpp"
#include "capture/tool/selection.hpp"

namespace csbench::capture {

inline constexpr int kExitOk = 0;             // every selected dispatch written as a manifest with its data
inline constexpr int kExitPartial = 1;        // at least one was not (the report says why)
inline constexpr int kExitUsage = 2;          // a bad flag, selection or folder
inline constexpr int kExitNoDispatch = 3;     // the program made no compute dispatch the layer could count
inline constexpr int kExitProgramFailed = 4;  // the program exited non-zero, was killed, or did not start
inline constexpr int kExitTimeout = 5;        // the program ran past --timeout

struct Report {
  std::vector<std::string> command;
  uint64_t max_bytes = 0;
  Summary summary;
  std::map<uint32_t, std::string> hashes;  // pipeline -> SHA-256 of its SPIR-V
};

struct DispatchReport {
  Chosen chosen;
  Written written;
};

// Writes DIR/report.txt: what pass 1 counted, what was selected, what each folder holds and what
// was left out.
void WriteReport(const std::filesystem::path& dir, const Report& report, const std::vector<DispatchReport>& dispatches);

}  // namespace csbench::capture
