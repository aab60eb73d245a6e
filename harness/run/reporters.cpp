#include "harness/run/reporters.hpp"

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
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <string_view>
#include <thread>

#include "harness/base/compat.hpp"
#include "harness/base/error.hpp"
#include "harness/base/ledger.hpp"
#include "harness/measure/selection.hpp"
#include "harness/run/console_reporter.hpp"
#include "harness/run/json_writer.hpp"

namespace csbench {
namespace {

// The suffixes Google Benchmark appends to UseManualTime and UseRealTime benchmarks.
constexpr std::string_view kTimeSuffixes[] = {"/manual_time", "/real_time"};

// What Google Benchmark's "Library was built as DEBUG" warning means for csbench's numbers.
constexpr std::string_view kDebugLibraryNote =
    "csbench: that warning does not concern csbench's numbers: GPU entries are timed by the device's "
    "timestamps, and for host-timed ones the per-iteration loop is inline in benchmark.h, compiled "
    "with csbench's own Release flags; the library's debug code runs once per batch of iterations.";

// What the interrupt handler needs: the file's writer (or text, for CSV) so far, under the lock
// the reporters take.
struct OutputFile {
  std::mutex lock;
  std::string path;
  std::string format;
  std::shared_ptr<JsonWriter> json;  // the file's writer where the format is JSON
  std::ostringstream text;           // what the other formats wrote
  size_t finished = 0;
};

// Process-wide: the interrupt handler (OnSignal, below) writes what finished to this file
// when the run is stopped, and is given nothing but the signal.
OutputFile& TheOutputFile() {
  static OutputFile file;
  return file;
}

bool WriteWhole(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  return static_cast<bool>(out);
}

// The file's text as it should be written now (called with the lock held): JSON with the run's
// own members, complete whether the run ended or was interrupted.
std::string FileText(OutputFile& file, bool interrupted) {
  if (!file.json) return file.text.str();
  file.json->AddRunMembers(!interrupted);
  return file.json->Text(interrupted);
}

// Sends each call to the display reporter and, when there is one, the file reporter (which
// writes into memory, see OutputFile), with csbench's names; notes failures and skips.
class Reporters : public benchmark::BenchmarkReporter {
 public:
  Reporters(std::unique_ptr<benchmark::BenchmarkReporter> display, std::shared_ptr<benchmark::BenchmarkReporter> file,
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
    }
  }

 private:
  std::unique_ptr<benchmark::BenchmarkReporter> display_;
  std::shared_ptr<benchmark::BenchmarkReporter> file_;
  RunSummary& summary_;
  std::set<std::string> counted_;
  std::set<std::string> noted_;
};

// `total`: the number of benchmarks selected, for the console's [k/N].
std::unique_ptr<benchmark::BenchmarkReporter> MakeReporter(const std::string& format, const ConsoleStyle& console,
                                                           std::size_t total) {
  if (format == "json") return std::make_unique<JsonWriter>();
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
    bool written = WriteWhole(file.path, FileText(file, true));
    std::fprintf(stderr, "\ncsbench: %s: stopped; %zu finished benchmark(s) %s %s (marked interrupted)\n",
                 name.c_str(), file.finished, written ? "written to" : "could NOT be written to", file.path.c_str());
  } else {
    std::fprintf(stderr, "\ncsbench: %s: stopped\n", name.c_str());
  }
  std::fflush(stderr);
  _exit(128 + signal_number);
}

}  // namespace

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
  std::shared_ptr<benchmark::BenchmarkReporter> file;
  if (!flags.out.empty()) {
    std::lock_guard lock(TheOutputFile().lock);
    TheOutputFile().path = flags.out;
    TheOutputFile().format = flags.out_format;
    if (flags.out_format == "json") {
      TheOutputFile().json = std::make_shared<JsonWriter>();
      file = TheOutputFile().json;
    } else {
      file = MakeReporter(flags.out_format, ConsoleStyle{.name_width = console.name_width}, total);
    }
  }
  Reporters reporters(MakeReporter(flags.format, console, total), std::move(file), summary);
  benchmark::RunSpecifiedBenchmarks(&reporters);
  const TimeSpent spent = Spent();
  fmt::print(stderr, "csbench: time spent: {}\n", ToText(spent));
  if (!flags.out.empty()) {
    std::lock_guard lock(TheOutputFile().lock);
    if (!WriteWhole(flags.out, FileText(TheOutputFile(), false))) {
      summary.failed.emplace_back("--benchmark_out", fmt::format("cannot write {}", flags.out));
    }
  }
  return summary;
}

}  // namespace csbench
