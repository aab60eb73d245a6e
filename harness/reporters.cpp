#include "harness/reporters.hpp"

#include <benchmark/benchmark.h>
#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <sstream>
#include <string_view>

#include "harness/console_reporter.hpp"

namespace csbench {
namespace {

// The suffixes Google Benchmark appends to UseManualTime and UseRealTime benchmarks.
constexpr std::string_view kTimeSuffixes[] = {"/manual_time", "/real_time"};

template <typename Base>
class DesignedNames : public Base {
 public:
  using Base::Base;
  void ReportRuns(const std::vector<benchmark::BenchmarkReporter::Run>& runs) override {
    std::vector<benchmark::BenchmarkReporter::Run> renamed = runs;
    for (auto& run : renamed) run.run_name.time_type.clear();
    Base::ReportRuns(renamed);
    // Each line as soon as its benchmark ends, also into a pipe (tee, a timestamping filter).
    this->GetOutputStream().flush();
  }
};

std::string FlagValue(const std::vector<std::string>& args, std::string_view flag, std::string fallback) {
  for (const auto& arg : args) {
    std::string_view a = arg;
    if (a.starts_with("--") && a.substr(2).starts_with(flag) && a.substr(2 + flag.size()).starts_with('=')) {
      fallback = a.substr(3 + flag.size());
    }
  }
  return fallback;
}

bool ListTests(const std::vector<std::string>& args) {
  for (const auto& arg : args) {
    if (arg == "--benchmark_list_tests" || arg == "--benchmark_list_tests=true" || arg == "--benchmark_list_tests=1") {
      return true;
    }
  }
  return false;
}

// `total`: the number of benchmarks selected, for the console's [k/N].
std::unique_ptr<benchmark::BenchmarkReporter> MakeReporter(const std::string& format, const ConsoleStyle& console,
                                                           std::size_t total) {
  if (format == "json") return std::make_unique<DesignedNames<benchmark::JSONReporter>>();
  if (format == "csv") return std::make_unique<DesignedNames<benchmark::CSVReporter>>();
  return std::make_unique<ConsoleReporter>(total, console);
}

}  // namespace

std::string WithoutTimeSuffix(std::string name) {
  for (std::string_view suffix : kTimeSuffixes) {
    if (std::string_view(name).ends_with(suffix)) name.resize(name.size() - suffix.size());
  }
  return name;
}

void RunBenchmarks(const std::vector<std::string>& args) {
  // Google Benchmark validated the format flags in Initialize; an unknown one never gets here.
  ConsoleStyle console = ConsoleStyleFromFlags(args, isatty(STDOUT_FILENO));
  std::size_t total = 0;
  if (!ListTests(args)) {
    std::vector<std::string> selected = SelectedBenchmarkNames(args);
    total = selected.size();
    for (const auto& name : selected) console.name_width = std::max(console.name_width, WithoutTimeSuffix(name).size());
  }
  auto display = MakeReporter(FlagValue(args, "benchmark_format", "console"), console, total);
  if (ListTests(args)) {
    std::ostringstream names;
    display->SetOutputStream(&names);
    benchmark::RunSpecifiedBenchmarks(display.get());
    std::istringstream lines(names.str());
    for (std::string line; std::getline(lines, line);) std::cout << WithoutTimeSuffix(line) << '\n';
    return;
  }
  std::unique_ptr<benchmark::BenchmarkReporter> file;
  if (!FlagValue(args, "benchmark_out", "").empty()) {
    ConsoleStyle plain{.name_width = console.name_width};
    file = MakeReporter(FlagValue(args, "benchmark_out_format", "json"), plain, total);
  }
  benchmark::RunSpecifiedBenchmarks(display.get(), file.get());
}

}  // namespace csbench
