#include "capture/tool/report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>

namespace csbench::capture {

namespace {

// The submissions that ran several dispatches of one recording, first seen first: the sequences a
// user may capture as one variant of passes.
void WriteRuns(std::ofstream& out, const Summary& s) {
  if (s.runs.empty()) return;
  constexpr size_t kMostLines = 10;
  std::vector<RunRow> runs = s.runs;
  std::sort(runs.begin(), runs.end(), [](const RunRow& a, const RunRow& b) { return a.first_index < b.first_index; });
  out << "  Recordings that ran several dispatches in one submission (one may be captured as a variant of passes):\n";
  for (size_t i = 0; i < runs.size() && i < kMostLines; ++i) {
    const RunRow& r = runs[i];
    uint64_t last = r.first_index + std::min<uint64_t>(r.dispatches, kMostSequenceDispatches) - 1;
    std::string pipelines;
    for (int64_t p : r.pipelines) pipelines += (pipelines.empty() ? "" : ", ") + (p < 0 ? "?" : std::to_string(p));
    out << fmt::format("    dispatches {}-{}: pipelines {}{} ({} submission{} like it): --dispatches=sequence:{}-{}{}\n",
                       r.first_index, r.first_index + r.dispatches - 1, pipelines,
                       r.dispatches > r.pipelines.size() ? ", ..." : "", r.count, r.count == 1 ? "" : "s",
                       r.first_index, last,
                       r.transfers ? " (transfer commands among them: refused)"
                       : r.dispatches > kMostSequenceDispatches
                           ? fmt::format(" (its first {})", kMostSequenceDispatches)
                           : "");
  }
  if (runs.size() > kMostLines) out << fmt::format("    ... and {} more\n", runs.size() - kMostLines);
}

}  // namespace

void WriteReport(const std::filesystem::path& dir, const Report& report,
                 const std::vector<DispatchReport>& dispatches) {
  std::ofstream out(dir / "report.txt", std::ios::trunc);
  const Summary& s = report.summary;
  out << fmt::format("csbench-capture report\ncommand: {}\nmax bytes a dispatch: {}\n\n",
                     fmt::join(report.command, " "), report.max_bytes);
  out << fmt::format("Pass 1: {} dispatches submitted, {} compute pipelines dispatched\n", s.dispatches,
                     s.pipelines.size());
  for (const auto& [id, entry] : s.pipelines) {
    auto hash = report.hashes.find(id);
    out << fmt::format("  pipeline {}: entry {}, SPIR-V SHA-256 {}\n", id, entry,
                       hash == report.hashes.end() ? "?" : hash->second);
    for (const KeyRow& row : s.keys)
      if (row.pipeline == id)
        out << fmt::format("    {}x{}x{} workgroups: {} dispatches{}, first as dispatch {}{}\n", row.groups[0],
                           row.groups[1], row.groups[2], row.count,
                           row.indirect == 0 ? "" : fmt::format(" ({} indirect)", row.indirect), row.first_index,
                           row.first_indirect ? " (indirect)" : "");
    if (auto it = s.indirect.find(id); it != s.indirect.end()) {
      auto unread = s.unread.find(id);
      out << fmt::format(
          "    indirect dispatches: {} (counted above by the counts each read as it ran{})\n", it->second,
          unread == s.unread.end() ? "" : fmt::format("; {} whose counts could not be read are not", unread->second));
    }
    if (auto it = s.based.find(id); it != s.based.end())
      out << fmt::format("    dispatches with a base workgroup: {} (not captured)\n", it->second);
  }
  WriteRuns(out, s);
  for (const std::string& note : s.notes) out << "  note: " << note << "\n";
  if (dispatches.empty()) {
    out << "\nNothing was captured.\n";
    return;
  }
  out << "\nSelected dispatches:\n";
  for (const DispatchReport& d : dispatches) {
    out << fmt::format("\n{}: {}\n", d.chosen.name, d.chosen.why);
    if (d.written.manifest)
      out << "  written: " << std::filesystem::relative(d.written.path, dir).string() << "\n";
    else
      out << "  not replayable: the folder holds the SPIR-V only\n";
    for (const std::string& why : d.written.skipped) out << "  left out: " << why << "\n";
    for (const std::string& note : d.written.notes) out << "  note: " << note << "\n";
  }
  out << "\nNot seen by any capture: host writes into mapped memory while a dispatch runs, and memory a shader "
         "reaches other than through its descriptors.\n";
}

}  // namespace csbench::capture
