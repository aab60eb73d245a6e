#include "harness/reporters.hpp"

#include <atomic>
#include <benchmark/benchmark.h>
#include <fmt/format.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <string_view>
#include <thread>

#include "harness/compat.hpp"
#include "harness/ceilings.hpp"
#include "harness/console_reporter.hpp"
#include "harness/error.hpp"
#include "harness/ledger.hpp"
#include "harness/points.hpp"
#include "harness/run_notes.hpp"
#include "harness/selection.hpp"

namespace csbench {
namespace {

// The suffixes Google Benchmark appends to UseManualTime and UseRealTime benchmarks.
constexpr std::string_view kTimeSuffixes[] = {"/manual_time", "/real_time"};

// What Google Benchmark's "Library was built as DEBUG" warning means for csbench's numbers.
constexpr std::string_view kDebugLibraryNote =
    "csbench: that warning does not concern csbench's numbers: GPU entries are timed by the device's "
    "timestamps, and for host-timed ones the per-iteration loop is inline in benchmark.h, compiled "
    "with csbench's own Release flags; the library's debug code runs once per batch of iterations.";

// What the interrupt handler needs: the file's text so far, under the lock the reporters take.
struct OutputFile {
  std::mutex lock;
  std::string path;
  std::string format;
  std::ostringstream text;
  bool finalized = false;
  size_t finished = 0;
};

OutputFile& TheOutputFile() {
  static OutputFile file;
  return file;
}

constexpr std::string_view kContextOpening = "\"context\": {";

// `json` (Google Benchmark's report, its context written) with `member` ("\"key\": value") as
// the context's first member; false where the text has no context yet.
bool WithContextMember(std::string& json, std::string_view member) {
  const size_t at = json.find(kContextOpening);
  if (at == std::string::npos) return false;
  json.insert(at + kContextOpening.size(), fmt::format("\n    {},", member));
  return true;
}

// The ceilings the run measured (harness/ceilings.hpp), as "ceilings" in the JSON's context
// (`json` unchanged where it measured none): the bound% of its entries refer to them.
void WithCeilings(std::string& json) {
  if (const std::string ceilings = CeilingsJson(); !ceilings.empty()) {
    WithContextMember(json, "\"ceilings\": " + ceilings);
  }
}

// The run's time spent (harness/ledger.hpp), as "time_spent" in the JSON's context, and its
// ceilings.
void WithTimeSpent(std::ostringstream& json, const TimeSpent& spent) {
  std::string text = json.str();
  if (!WithContextMember(text, "\"time_spent\": " + ToJson(spent))) return;
  WithCeilings(text);
  json.str(text);
  json.seekp(0, std::ios::end);
}

bool WriteWhole(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  return static_cast<bool>(out);
}

// The file's text as it should be written now (called with the lock held).
std::string FileText(OutputFile& file, bool interrupted) {
  if (file.format == "json") return CompleteJson(file.text.str(), file.finalized, interrupted);
  return file.text.str();
}

// Sends each call to the display reporter and, when there is one, the file reporter (which
// writes into memory, see OutputFile), with csbench's names; notes failures and skips.
class Reporters : public benchmark::BenchmarkReporter {
 public:
  Reporters(std::unique_ptr<benchmark::BenchmarkReporter> display, std::unique_ptr<benchmark::BenchmarkReporter> file,
            RunSummary& summary)
      : display_(std::move(display)), file_(std::move(file)), summary_(summary) {
    if (file_) {
      file_->SetOutputStream(&TheOutputFile().text);
      file_->SetErrorStream(&TheOutputFile().text);
    }
  }

  bool ReportContext(const Context& context) override {
    display_->SetOutputStream(&GetOutputStream());
    display_->SetErrorStream(&GetErrorStream());
    // The header Google Benchmark prints says whether its library is a debug build.
    std::ostringstream header;
    PrintBasicContext(&header, context);
    const bool debug_library = header.str().find("built as DEBUG") != std::string::npos;
    auto* console = dynamic_cast<ConsoleReporter*>(display_.get());
    if (console != nullptr && debug_library) console->AddHeaderNote(std::string(kDebugLibraryNote));
    bool go = display_->ReportContext(context);
    if (console == nullptr && debug_library) GetErrorStream() << kDebugLibraryNote << '\n';
    if (file_) {
      std::lock_guard lock(TheOutputFile().lock);
      go = file_->ReportContext(context) && go;
    }
    return go;
  }

  void ReportRuns(const std::vector<Run>& runs) override {
    std::vector<Run> renamed = runs;
    for (auto& run : renamed) run.run_name.time_type.clear();
    for (const auto& run : renamed) {
      if (run.run_type != Run::RT_Iteration) continue;
      if (!compat::Skipped(run)) {
        if (counted_.insert(run.benchmark_name()).second) ++summary_.finished;
        continue;
      }
      if (!noted_.insert(run.benchmark_name()).second) continue;
      std::string_view message = compat::SkipMessage(run);
      if (message.starts_with(kUnsupportedPrefix)) {
        message.remove_prefix(kUnsupportedPrefix.size());
        summary_.unsupported.emplace_back(run.benchmark_name(), message);
      } else {
        summary_.failed.emplace_back(run.benchmark_name(), message);
      }
      if (counted_.insert(run.benchmark_name()).second) ++summary_.finished;
    }
    // The file first: once a result is on the console, an interrupt must find it in the file too.
    if (file_) {
      std::lock_guard lock(TheOutputFile().lock);
      file_->ReportRuns(renamed);
      TheOutputFile().finished = summary_.finished;
    }
    // csbench's console reporter drops the suffix itself, and reads it: it marks a GPU-timed run.
    display_->ReportRuns(dynamic_cast<ConsoleReporter*>(display_.get()) != nullptr ? runs : renamed);
    // Each line as soon as its benchmark ends, also into a pipe (tee, a timestamping filter).
    display_->GetOutputStream().flush();
  }

  void Finalize() override {
    display_->Finalize();
    if (file_) {
      std::lock_guard lock(TheOutputFile().lock);
      file_->Finalize();
      TheOutputFile().finalized = true;
    }
  }

 private:
  std::unique_ptr<benchmark::BenchmarkReporter> display_;
  std::unique_ptr<benchmark::BenchmarkReporter> file_;
  RunSummary& summary_;
  std::set<std::string> counted_;
  std::set<std::string> noted_;
};

// Each run's note (harness/run_notes.hpp) as JSON members, empty for aggregates and for runs
// whose loop left none (plain loops, skipped runs).
std::vector<std::string> NotesOf(const std::vector<benchmark::BenchmarkReporter::Run>& runs) {
  using Run = benchmark::BenchmarkReporter::Run;
  std::map<std::string, size_t> counts;
  for (const Run& run : runs) {
    if (run.run_type == Run::RT_Iteration) ++counts[run.run_name.function_name];
  }
  std::map<std::string, std::vector<RunNote>> notes;
  for (const auto& [name, count] : counts) notes[name] = TakeRunNotes(name, count);
  // A benchmark's notes match its runs from the last backwards: a run without a note (one that
  // failed) leaves the earlier ones unmatched rather than shifted.
  std::vector<std::string> members(runs.size());
  std::map<std::string, size_t> seen;
  for (size_t i = 0; i < runs.size(); ++i) {
    const Run& run = runs[i];
    if (run.run_type != Run::RT_Iteration) continue;
    const std::vector<RunNote>& mine = notes[run.run_name.function_name];
    const size_t k = seen[run.run_name.function_name]++;
    const size_t from_end = counts[run.run_name.function_name] - k;
    if (from_end > mine.size()) continue;
    const RunNote& note = mine[mine.size() - from_end];
    if (note.iterations == static_cast<uint64_t>(run.iterations)) {
      members[i] = ToJsonMembers(note) + CaseJsonMembers(run.run_name.function_name) +
                   IntensityJsonMembers(run.run_name.function_name);
    }
  }
  return members;
}

// Google Benchmark's JSON, each benchmark entry with its description (harness/points.hpp). The
// library's entries cannot be extended, so each call's text is written into memory first and the
// field goes in after each entry's "name" line; a call's entries then reach the real stream
// together, so that a file cut short by an interrupt still ends between entries (CompleteJson).
class DescribedJsonReporter : public benchmark::JSONReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    std::ostream& out = GetOutputStream();
    std::ostringstream entries;
    SetOutputStream(&entries);
    JSONReporter::ReportRuns(runs);
    SetOutputStream(&out);
    std::vector<std::string> names;
    // The name as registered: without the "/manual_time" suffix or an aggregate's "_mean".
    for (const Run& run : runs) names.push_back(run.run_name.function_name);
    out << WithDescriptions(entries.str(), names, NotesOf(runs));
  }
};

// `total`: the number of benchmarks selected, for the console's [k/N].
std::unique_ptr<benchmark::BenchmarkReporter> MakeReporter(const std::string& format, const ConsoleStyle& console,
                                                           std::size_t total) {
  if (format == "json") return MakeJsonReporter();
  if (format == "csv") return compat::MakeCsvReporter();
  return std::make_unique<ConsoleReporter>(total, console);
}

// Prints the names as designed for --benchmark_list_tests.
void ListTests() {
  std::ostringstream names;
  benchmark::ConsoleReporter lister;
  lister.SetOutputStream(&names);
  benchmark::RunSpecifiedBenchmarks(&lister);
  std::istringstream lines(names.str());
  for (std::string line; std::getline(lines, line);) std::cout << WithoutTimeSuffix(line) << '\n';
}

std::atomic<void (*)(int)> g_forward_interrupt{nullptr};

void OnSignal(int signal_number) {
  if (auto forward = g_forward_interrupt.load()) {
    forward(signal_number);
    _exit(128 + signal_number);
  }
  OutputFile& file = TheOutputFile();
  std::unique_lock lock(file.lock, std::defer_lock);
  // A reporter holds the lock only while it formats one benchmark's lines; do not wait longer.
  for (int i = 0; i < 200 && !lock.try_lock(); ++i) usleep(10000);
  std::string name = signal_number == SIGINT ? "SIGINT" : "SIGTERM";
  std::cout.flush();
  if (!file.path.empty() && lock.owns_lock()) {
    std::string text = FileText(file, true);
    if (file.format == "json") WithCeilings(text);  // those measured so far
    bool written = WriteWhole(file.path, text);
    std::fprintf(stderr, "\ncsbench: %s: stopped; %zu finished benchmark(s) %s %s (marked interrupted)\n",
                 name.c_str(), file.finished, written ? "written to" : "could NOT be written to", file.path.c_str());
  } else {
    std::fprintf(stderr, "\ncsbench: %s: stopped\n", name.c_str());
  }
  std::fflush(stderr);
  _exit(128 + signal_number);
}

}  // namespace

std::string CompleteJson(const std::string& text, bool finalized, bool interrupted) {
  std::string json = text;
  if (json.find(kContextOpening) == std::string::npos || json.find("\"benchmarks\": [") == std::string::npos) {
    // Stopped before the reporter wrote its context: a report with no benchmarks.
    return fmt::format("{{\n  \"context\": {{\n    \"interrupted\": {}\n  }},\n  \"benchmarks\": []\n}}\n",
                       interrupted ? "true" : "false");
  }
  if (!finalized) json += "\n  ]\n}\n";
  if (interrupted) WithContextMember(json, "\"interrupted\": true");
  return json;
}

std::string WithDescriptions(std::string_view entries, const std::vector<std::string>& names,
                             const std::vector<std::string>& notes) {
  // JSONReporter opens each entry with "{", then the name on its own line; a string value cannot
  // hold this text, since JSON escapes its quotes and line breaks.
  constexpr std::string_view kEntryOpening = "{\n      \"name\": ";
  std::string out;
  size_t from = 0;
  for (size_t i = 0; i < names.size(); ++i) {
    const std::string& name = names[i];
    const size_t at = entries.find(kEntryOpening, from);
    if (at == std::string_view::npos) break;
    const size_t line_end = entries.find('\n', at + kEntryOpening.size());
    if (line_end == std::string_view::npos) break;
    out.append(entries.substr(from, line_end + 1 - from));
    from = line_end + 1;
    const std::string note = i < notes.size() ? notes[i] : std::string();
    if (const Description* description = Described(name)) {
      std::string object = ToJson(*description);
      // The run's note goes in the same object, after the description's members.
      if (!note.empty()) object.insert(object.size() - 1, ", " + note);
      out.append("      \"csbench\": ").append(object).append(",\n");
    }
  }
  out.append(entries.substr(from));
  return out;
}

std::unique_ptr<benchmark::BenchmarkReporter> MakeJsonReporter() { return std::make_unique<DescribedJsonReporter>(); }

void SetInterruptForwarder(void (*forward)(int)) { g_forward_interrupt = forward; }

void HandleInterrupts() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  std::thread([signals] {
    int signal_number = 0;
    if (sigwait(&signals, &signal_number) == 0) OnSignal(signal_number);
  }).detach();
}

std::string WithoutTimeSuffix(std::string name) {
  for (std::string_view suffix : kTimeSuffixes) {
    if (std::string_view(name).ends_with(suffix)) name.resize(name.size() - suffix.size());
  }
  return name;
}

RunSummary RunBenchmarks(const RunFlags& flags, const std::vector<std::string>& args) {
  RunSummary summary;
  if (flags.list_tests) {
    ListTests();
    return summary;
  }
  ConsoleStyle console = ConsoleStyleFromFlags(args, isatty(STDOUT_FILENO));
  for (const auto& name : SelectedNames()) console.name_width = std::max(console.name_width, name.size());
  const std::size_t total = SelectedNames().size();
  std::unique_ptr<benchmark::BenchmarkReporter> file;
  if (!flags.out.empty()) {
    std::lock_guard lock(TheOutputFile().lock);
    TheOutputFile().path = flags.out;
    TheOutputFile().format = flags.out_format;
    file = MakeReporter(flags.out_format, ConsoleStyle{.name_width = console.name_width}, total);
  }
  Reporters reporters(MakeReporter(flags.format, console, total), std::move(file), summary);
  benchmark::RunSpecifiedBenchmarks(&reporters);
  const TimeSpent spent = Spent();
  fmt::print(stderr, "csbench: time spent: {}\n", ToText(spent));
  if (!flags.out.empty()) {
    std::lock_guard lock(TheOutputFile().lock);
    if (flags.out_format == "json") WithTimeSpent(TheOutputFile().text, spent);
    if (!WriteWhole(flags.out, FileText(TheOutputFile(), false))) {
      summary.failed.emplace_back("--benchmark_out", fmt::format("cannot write {}", flags.out));
    }
  }
  return summary;
}

}  // namespace csbench
