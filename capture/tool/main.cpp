// csbench-capture: runs a Vulkan program twice with csbench's capture layer, first counting its
// compute dispatches (pass 1), then copying the selected ones' data (pass 2), and writes each
// selected dispatch as a folder that `csbench --manifest=FOLDER` replays and checks
// (docs/capture.md).
#include <fmt/format.h>
#include <unistd.h>

#include <cctype>
#include <cstring>
#include <fstream>
#include <iostream>
#include <stdexcept>

#include "capture/tool/manifest_writer.hpp"
#include "capture/tool/report.hpp"
#include "capture/tool/run_program.hpp"
#include "capture/tool/selection.hpp"
#include "harness/base/provenance.hpp"

namespace csbench::capture {

namespace {

constexpr const char* kUsage =
    "usage: csbench-capture -o DIR [--dispatches=SELECTION] [--max-bytes=N] [--timeout=S] -- PROGRAM [ARGS...]\n"
    "  SELECTION: default (each compute pipeline at its most frequent workgroup counts), all, N (the Nth\n"
    "  dispatch, from 0), pipeline:K, hash:HEX (a prefix of the SPIR-V's SHA-256), sequence:N-M (dispatches N\n"
    "  to M of one recording, as one variant of passes), separated by commas\n";

struct Options {
  std::filesystem::path dir;
  std::string selection = "default";
  uint64_t max_bytes = 256ull << 20;
  double timeout_s = 600;
  std::vector<std::string> program;
};

[[noreturn]] void Usage(const std::string& what) {
  std::cerr << "csbench-capture: " << what << "\n" << kUsage;
  std::exit(kExitUsage);
}

uint64_t ParseBytes(const std::string& text) {
  size_t used = 0;
  uint64_t value = 0;
  try {
    value = std::stoull(text, &used);
  } catch (const std::exception&) {
    Usage(fmt::format("--max-bytes: '{}' is not a number of bytes (e.g. 1048576, 64K, 256M, 2G)", text));
  }
  std::string unit = text.substr(used);
  uint64_t scale = unit.empty()  ? 1
                   : unit == "K" ? 1ull << 10
                   : unit == "M" ? 1ull << 20
                   : unit == "G" ? 1ull << 30
                                 : 0;
  if (scale == 0 || text[0] == '-' || value == 0 || value > (1ull << 50) / scale)
    Usage(fmt::format("--max-bytes: '{}' is not a number of bytes from 1 (e.g. 1048576, 64K, 256M, 2G)", text));
  return value * scale;
}

Options ParseOptions(int argc, char** argv) {
  Options options;
  int i = 1;
  for (; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const std::string& flag) -> std::optional<std::string> {
      if (arg.starts_with(flag + "=")) return arg.substr(flag.size() + 1);
      if (arg == flag) {
        if (i + 1 >= argc) Usage(flag + " needs a value");
        return std::string(argv[++i]);
      }
      return std::nullopt;
    };
    if (arg == "--") {
      ++i;
      break;
    }
    if (arg == "-h" || arg == "--help") {
      std::cout << kUsage;
      std::exit(0);
    }
    if (auto v = value("-o")) {
      options.dir = *v;
    } else if (auto v = value("--output")) {
      options.dir = *v;
    } else if (auto v = value("--dispatches")) {
      options.selection = *v;
    } else if (auto v = value("--max-bytes")) {
      options.max_bytes = ParseBytes(*v);
    } else if (auto v = value("--timeout")) {
      try {
        size_t used = 0;
        options.timeout_s = std::stod(*v, &used);
        if (used != v->size() || !(options.timeout_s >= 0)) throw std::invalid_argument("");
      } catch (const std::exception&) {
        Usage(fmt::format("--timeout: '{}' is not a number of seconds (0: no limit)", *v));
      }
    } else {
      Usage(fmt::format("unknown argument '{}' (the program's command line follows --)", arg));
    }
  }
  for (; i < argc; ++i) options.program.push_back(argv[i]);
  if (options.dir.empty()) Usage("-o DIR is required");
  if (options.program.empty()) Usage("no program: give its command line after --");
  return options;
}

std::filesystem::path LayerFolder(const char* argv0) {
  if (const char* own = std::getenv("CSBENCH_CAPTURE_LAYER_PATH")) return own;
  std::error_code error;
  std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) self = std::filesystem::absolute(argv0);
  std::filesystem::path beside = self.parent_path();
  for (const std::filesystem::path& dir : {beside, beside / CSBENCH_LAYER_FROM_BIN})
    if (std::filesystem::exists(dir / "VkLayer_csbench_capture.json")) return std::filesystem::weakly_canonical(dir);
  std::cerr << "csbench-capture: the capture layer's manifest VkLayer_csbench_capture.json is not beside "
            << beside.string() << " nor in " << (beside / CSBENCH_LAYER_FROM_BIN).string()
            << " (set CSBENCH_CAPTURE_LAYER_PATH to its folder)\n";
  std::exit(kExitUsage);
}

// Runs one pass; returns on success, ends the process with the program's failure otherwise
// (the layer's raw files removed first).
void RunPass(const Options& options, const std::filesystem::path& layer, std::map<std::string, std::string> env,
             const std::filesystem::path& raw, const char* pass) {
  std::map<std::string, std::string> all = LayerEnvironment(layer.string());
  all.merge(env);
  ProgramResult result = RunProgram(options.program, all, options.timeout_s);
  const std::string& name = options.program.front();
  if (result.end != ProgramResult::End::kExited || result.code != 0) {
    std::error_code ignored;
    std::filesystem::remove_all(raw, ignored);
  }
  switch (result.end) {
    case ProgramResult::End::kExited:
      if (result.code == 0) return;
      std::cerr << fmt::format("csbench-capture: {} exited with code {} ({}); nothing captured\n", name, result.code,
                               pass);
      std::exit(kExitProgramFailed);
    case ProgramResult::End::kSignalled:
      std::cerr << fmt::format("csbench-capture: {} was killed by signal {} ({}, {}); nothing captured\n", name,
                               result.code, strsignal(result.code), pass);
      std::exit(kExitProgramFailed);
    case ProgramResult::End::kNotStarted:
      std::cerr << fmt::format("csbench-capture: cannot run {}: {}\n", name, std::strerror(result.code));
      std::exit(kExitProgramFailed);
    case ProgramResult::End::kTimedOut:
      std::cerr << fmt::format("csbench-capture: {} ran past --timeout={} s ({}) and was stopped; nothing captured\n",
                               name, options.timeout_s, pass);
      std::exit(kExitTimeout);
  }
}

std::string Sanitized(const std::string& text) {
  std::string out;
  for (char c : text) out += std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' ? c : '_';
  return out.substr(0, 40);
}

// A sequence pass 2 captured, written where each of its dispatches is the one pass 1 found there.
Written CheckedSequence(const RawCapture& capture, const std::filesystem::path& from, const Chosen& c,
                       const Summary& summary, const std::filesystem::path& dir, const std::string& program,
                       const std::vector<std::string>& command, const std::map<uint32_t, std::string>& hashes) {
  Written written;
  for (size_t k = 0; k < c.steps.size() && k < capture.steps.size(); ++k) {
    const KeyRow& want = c.steps[k];
    const RawStep& got = capture.steps[k];
    if (got.signature != summary.signatures.at(want.pipeline) || got.groups != want.groups) {
      written.skipped.push_back(
          fmt::format("pass 2 found another pipeline or size ({}x{}x{}) at dispatch {} of the sequence: the program "
                      "ran differently the second time",
                      got.groups[0], got.groups[1], got.groups[2], k));
      return written;
    }
  }
  try {
    return WriteSequence(capture, from, c, dir / c.name, program + "_" + c.name,
                         fmt::format("{}", fmt::join(command, " ")), hashes);
  } catch (const std::exception& e) {
    written.skipped.push_back(e.what());
  }
  return written;
}

int Main(int argc, char** argv) {
  Options options = ParseOptions(argc, argv);
  std::vector<SelectionItem> selection;
  try {
    selection = ParseSelection(options.selection);
  } catch (const std::invalid_argument& e) {
    Usage(e.what());
  }
  std::error_code error;
  if (std::filesystem::exists(options.dir) && !std::filesystem::is_empty(options.dir, error))
    Usage(fmt::format("-o {}: the folder is not empty (a capture writes into an empty or new folder)",
                      options.dir.string()));
  std::filesystem::create_directories(options.dir, error);
  if (error) Usage(fmt::format("-o {}: cannot make the folder: {}", options.dir.string(), error.message()));
  std::filesystem::path dir = std::filesystem::absolute(options.dir);
  std::filesystem::path layer = LayerFolder(argv[0]);
  std::filesystem::path raw = dir / ".raw";

  std::string nth;
  for (uint64_t index : IndicesOf(selection)) nth += (nth.empty() ? "" : ",") + std::to_string(index);
  RunPass(options, layer,
          {{"CSBENCH_CAPTURE_MODE", "count"},
           {"CSBENCH_CAPTURE_DIR", (raw / "count").string()},
           {"CSBENCH_CAPTURE_NTH", nth}},
          raw, "pass 1, counting dispatches");
  std::optional<Summary> summary = ReadSummary(raw / "count");
  Report report{.command = options.program, .max_bytes = options.max_bytes};
  if (summary) report.summary = *summary;
  if (!summary || summary->keys.empty()) {
    WriteReport(dir, report, {});
    std::string indirect;
    if (summary && !summary->indirect.empty()) indirect = " (only indirect dispatches, whose counts could not be read)";
    std::cerr << fmt::format("csbench-capture: {} made no compute dispatch{}{}; see {}\n", options.program.front(),
                             summary ? indirect : " (no Vulkan instance with the capture layer)", "",
                             (options.dir / "report.txt").string());
    std::filesystem::remove_all(raw, error);
    return kExitNoDispatch;
  }
  for (const auto& [id, entry] : summary->pipelines) {
    std::vector<uint8_t> bytes = ReadFileBytes(raw / "count" / fmt::format("pipeline{}.spv", id));
    report.hashes[id] = Sha256Hex({reinterpret_cast<const char*>(bytes.data()), bytes.size()});
  }
  std::vector<Chosen> chosen;
  try {
    chosen = Resolve(selection, *summary, report.hashes);
  } catch (const std::invalid_argument& e) {
    WriteReport(dir, report, {});
    std::filesystem::remove_all(raw, error);
    Usage(e.what());
  }

  // The Nth dispatch is found again by its place; the others by their pipeline's signature and
  // workgroup counts, which a program's thread timing does not move.
  std::string targets;
  for (const Chosen& c : chosen) {
    targets += targets.empty() ? "" : ",";
    if (!c.steps.empty())
      targets += fmt::format("seq:{}:{}:{}:{}", c.row.first.serial, c.row.first.ordinal,
                             c.steps.back().first.ordinal, c.row.first.submission);
    else if (c.by_index)
      targets += fmt::format("at:{}:{}:{}", c.row.first.serial, c.row.first.ordinal, c.row.first.submission);
    else
      targets += fmt::format("key:{}:{}:{}:{}", summary->signatures[c.row.pipeline], c.row.groups[0], c.row.groups[1],
                             c.row.groups[2]);
  }
  RunPass(options, layer,
          {{"CSBENCH_CAPTURE_MODE", "capture"},
           {"CSBENCH_CAPTURE_DIR", (raw / "capture").string()},
           {"CSBENCH_CAPTURE_TARGETS", targets},
           {"CSBENCH_CAPTURE_MAX_BYTES", std::to_string(options.max_bytes)}},
          raw, "pass 2, capturing");

  std::vector<DispatchReport> dispatches;
  std::string program = Sanitized(std::filesystem::path(options.program.front()).filename().string());
  for (size_t i = 0; i < chosen.size(); ++i) {
    const Chosen& c = chosen[i];
    DispatchReport entry{.chosen = c};
    std::filesystem::path from = raw / "capture" / fmt::format("capture{}", i);
    std::optional<RawCapture> capture = ReadCapture(from);
    if (!capture) {
      entry.written.skipped.push_back("pass 2 never ran it: the program ran differently the second time");
    } else if (!c.steps.empty()) {
      entry.written = CheckedSequence(*capture, from, c, *summary, dir, program, options.program, report.hashes);
    } else if (capture->signature != summary->signatures[c.row.pipeline] || capture->groups != c.row.groups) {
      entry.written.skipped.push_back(fmt::format(
          "pass 2 found another pipeline or size ({}x{}x{}) in its place: the program ran differently the second time",
          capture->groups[0], capture->groups[1], capture->groups[2]));
    } else {
      try {
        entry.written =
            WriteDispatch(*capture, from, c, dir / c.name, program + "_" + c.name,
                          fmt::format("{}", fmt::join(options.program, " ")), report.hashes[c.row.pipeline]);
      } catch (const std::exception& e) {
        entry.written.skipped.push_back(e.what());
      }
    }
    dispatches.push_back(std::move(entry));
  }
  std::filesystem::remove_all(raw, error);
  WriteReport(dir, report, dispatches);
  int written = 0;
  for (const DispatchReport& d : dispatches) {
    if (d.written.manifest) {
      ++written;
      // Paths as the user named the folder.
      std::cout << fmt::format("captured {}: {}\n", d.chosen.name,
                               (options.dir / std::filesystem::relative(d.written.path, dir)).string());
    } else {
      std::cout << fmt::format("not replayable {}: {}\n", d.chosen.name, fmt::join(d.written.skipped, "; "));
    }
  }
  std::cout << fmt::format("{} of {} selected dispatches written as manifests; report: {}\n", written,
                           dispatches.size(), (options.dir / "report.txt").string());
  return written == static_cast<int>(dispatches.size()) ? kExitOk : kExitPartial;
}

}  // namespace

}  // namespace csbench::capture

int main(int argc, char** argv) {
  try {
    return csbench::capture::Main(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "csbench-capture: " << e.what() << "\n";
    return csbench::capture::kExitPartial;
  }
}
