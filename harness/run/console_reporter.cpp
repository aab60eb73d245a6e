#include "harness/run/console_reporter.hpp"

#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <functional>
#include <iostream>
#include <sstream>
#include <string_view>
#include <utility>

#include "harness/base/compat.hpp"
#include "harness/base/statistics.hpp"

namespace csbench {
namespace {

constexpr const char* kGreen = "\033[32m";
constexpr const char* kYellow = "\033[33m";
constexpr const char* kCyan = "\033[36m";
constexpr const char* kRed = "\033[31m";
constexpr const char* kReset = "\033[0m";
constexpr const char* kClearLine = "\r\033[K";

constexpr std::size_t kTimeWidth = 10;
constexpr std::size_t kMinCounterWidth = 8;

bool IsGpu(const benchmark::BenchmarkReporter::Run& run) { return run.run_name.time_type == "manual_time"; }

bool IsPercentage(const benchmark::BenchmarkReporter::Run& run) {
  return run.run_type == benchmark::BenchmarkReporter::Run::RT_Aggregate &&
         run.aggregate_unit == benchmark::StatisticUnit::kPercentage;
}

// The designed name: Google Benchmark's "/manual_time" or "/real_time" dropped, the aggregate
// ("_median") kept.
std::string DisplayName(const benchmark::BenchmarkReporter::Run& run) {
  benchmark::BenchmarkReporter::Run copy;
  copy.run_name = run.run_name;
  copy.run_name.time_type.clear();
  copy.run_type = run.run_type;
  copy.aggregate_name = run.aggregate_name;
  return copy.benchmark_name();
}

std::string BaseName(const benchmark::BenchmarkReporter::Run& run) {
  benchmark::BenchmarkName name = run.run_name;
  name.time_type.clear();
  return name.str();
}

double SecondsPerIteration(const benchmark::BenchmarkReporter::Run& run) {
  return run.iterations > 0 ? run.real_accumulated_time / static_cast<double>(run.iterations)
                            : run.real_accumulated_time;
}

double CpuSecondsPerIteration(const benchmark::BenchmarkReporter::Run& run) {
  return run.iterations > 0 ? run.cpu_accumulated_time / static_cast<double>(run.iterations) : run.cpu_accumulated_time;
}

// The time Google Benchmark measures a benchmark by, and divides its rate counters by: the
// device's (manual) or the wall clock's where the benchmark asked for one, else the CPU time.
double MeasuredSecondsPerIteration(const benchmark::BenchmarkReporter::Run& run) {
  bool real = run.run_name.time_type == "manual_time" || run.run_name.time_type == "real_time";
  return real ? SecondsPerIteration(run) : CpuSecondsPerIteration(run);
}

// A time column entry: a percentage for the coefficient of variation, else seconds in a unit.
std::string TimeText(const benchmark::BenchmarkReporter::Run& run, double seconds) {
  if (IsPercentage(run)) return SignificantDigits(run.real_accumulated_time * 100) + " %";
  return FormatSeconds(seconds);
}

std::string Bracket(std::vector<double> values, const std::function<std::string(double)>& format) {
  std::sort(values.begin(), values.end());
  return fmt::format("[{} {} {}]", format(values.front()), format(Median(values)), format(values.back()));
}

std::size_t TerminalWidth() {
  winsize size{};
  if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  return 80;
}

std::string Remaining(double seconds) {
  if (seconds < 60) return fmt::format("~{:.0f} s left", std::max(seconds, 1.0));
  if (seconds < 5400) return fmt::format("~{:.0f} min left", seconds / 60);
  return fmt::format("~{:.1f} h left", seconds / 3600);
}

std::string Padded(const std::string& text, std::size_t width, bool right) {
  if (text.size() >= width) return text;
  std::string pad(width - text.size(), ' ');
  return right ? pad + text : text + pad;
}

}  // namespace

std::string SignificantDigits(double value, int digits) {
  if (!std::isfinite(value)) return fmt::format("{}", value);
  if (value == 0) return "0";
  double magnitude = std::fabs(value);
  if (magnitude < 1e-4) return fmt::format("{:.{}e}", value, digits - 1);
  if (magnitude >= 1e5) {
    constexpr std::array<const char*, 6> kSuffixes = {"k", "M", "G", "T", "P", "E"};
    std::size_t i = 0;
    value /= 1e3;
    // Up to 999.5 of a unit rounds to "1000" at three digits: that is the next unit's "1".
    while (std::fabs(value) >= 999.5 && i + 1 < kSuffixes.size()) {
      value /= 1e3;
      ++i;
    }
    return SignificantDigits(value, digits) + kSuffixes[i];
  }
  int decimals = std::max(0, digits - 1 - static_cast<int>(std::floor(std::log10(magnitude))));
  std::string text = fmt::format("{:.{}f}", value, decimals);
  if (text.find('.') != std::string::npos) {
    text.erase(text.find_last_not_of('0') + 1);
    if (text.back() == '.') text.pop_back();
  }
  return text;
}

std::string FormatSeconds(double seconds) {
  double magnitude = std::fabs(seconds);
  if (magnitude >= 1 || magnitude == 0) return SignificantDigits(seconds) + " s";
  if (magnitude >= 1e-3) return SignificantDigits(seconds * 1e3) + " ms";
  if (magnitude >= 1e-6) return SignificantDigits(seconds * 1e6) + " us";
  return SignificantDigits(seconds * 1e9) + " ns";
}

std::string FormatCounter(const benchmark::Counter& counter, bool percentage) {
  // Google Benchmark finishes the counters before any reporter sees them: a kIsRate value is
  // already per second, kInvert already applied.
  if (percentage) return SignificantDigits(counter.value * 100) + "%";
  return SignificantDigits(counter.value);
}

std::vector<std::string> CounterOrder(const benchmark::UserCounters& counters) {
  static const std::vector<std::string> kFirst = {"Gelem/s", "GB/s", "roofline%", "dispatches/sample"};
  std::vector<std::string> order;
  for (const auto& name : kFirst) {
    if (counters.contains(name)) order.push_back(name);
  }
  for (const auto& [name, counter] : counters) {
    if (std::find(kFirst.begin(), kFirst.end(), name) == kFirst.end()) order.push_back(name);
  }
  return order;
}

ConsoleStyle ConsoleStyleFromFlags(const std::vector<std::string>& args, bool to_terminal) {
  // The last occurrence wins, as in Google Benchmark's own parsing; a bare flag means true.
  auto value = [&](std::string_view flag) -> std::optional<std::string> {
    std::optional<std::string> found;
    for (std::string_view arg : args) {
      if (!arg.starts_with("--") || !arg.substr(2).starts_with(flag)) continue;
      std::string_view rest = arg.substr(2 + flag.size());
      if (rest.empty()) found = "true";
      if (rest.starts_with('=')) found = std::string(rest.substr(1));
    }
    return found;
  };
  // Google Benchmark's reading of a boolean flag's value.
  auto truthy = [](std::string text) {
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
    if (text.size() == 1)
      return std::isalnum(static_cast<unsigned char>(text[0])) && text != "0" && text != "f" && text != "n";
    return text != "false" && text != "no" && text != "off";
  };
  ConsoleStyle style;
  std::string color = value("benchmark_color").value_or("auto");
  style.color = color == "auto" ? to_terminal : truthy(color);
  style.tabular = truthy(value("benchmark_counters_tabular").value_or("false"));
  style.live = to_terminal;
  return style;
}

ConsoleReporter::ConsoleReporter(std::size_t total, ConsoleStyle style) : total_(total), style_(style) {}

bool ConsoleReporter::ReportContext(const Context& context) {
  name_width_ = style_.name_width > 0 ? style_.name_width : context.name_field_width;
  start_ = std::chrono::steady_clock::now();
  PrintBasicContext(&GetErrorStream(), context);
  for (const std::string& note : notes_) GetErrorStream() << note << '\n';
  if (style_.live) PrintStatus("");
  return true;
}

std::string ConsoleReporter::Prefix() const {
  if (total_ == 0) return fmt::format("[{}]", done_);
  std::string n = std::to_string(total_);
  return fmt::format("[{:>{}}/{}]", done_, n.size(), n);
}

std::string ConsoleReporter::Paint(const char* color, const std::string& text) const {
  return style_.color ? color + text + kReset : text;
}

void ConsoleReporter::PrintHeader(const Run& run) {
  bool gpu = IsGpu(run);
  std::ostringstream line;
  line << std::string(Prefix().size(), ' ') << ' ' << Padded("Benchmark", name_width_, false);
  if (style_.tabular) {
    line << Padded(gpu ? "Device" : "Time", kTimeWidth + 1, true);
    if (!gpu) line << Padded("CPU", kTimeWidth + 1, true);
    for (const auto& name : CounterOrder(run.counters)) {
      line << Padded(name, std::max(kMinCounterWidth, name.size()) + 2, true);
    }
  } else {
    line << Padded("Time", kTimeWidth + 1, true) << "   Counters";
  }
  std::string text = line.str();
  std::string rule(text.size(), '-');
  GetOutputStream() << rule << '\n' << text << '\n' << rule << '\n';
}

void ConsoleReporter::PrintRun(const Run& run) {
  bool gpu = IsGpu(run);
  if (!compat::Skipped(run)) {
    // A header when the columns change: once in the plain layout, per counter set in the tabular.
    std::string key = "plain";
    if (style_.tabular) {
      key = gpu ? "gpu" : "host";
      for (const auto& name : CounterOrder(run.counters)) key += '\n' + name;
    }
    if (header_key_ != key) {
      PrintHeader(run);
      header_key_ = key;
    }
  }
  std::ostream& out = GetOutputStream();
  out << Prefix() << ' ' << Paint(kGreen, Padded(DisplayName(run), name_width_, false));
  if (compat::Skipped(run)) {
    out << ' ' << Paint(kRed, "ERROR OCCURRED: '" + compat::SkipMessage(run) + "'") << '\n';
    return;
  }
  bool percentage = IsPercentage(run);
  out << Paint(kYellow, Padded(TimeText(run, SecondsPerIteration(run)), kTimeWidth + 1, true));
  if (style_.tabular) {
    if (!gpu) out << Paint(kYellow, Padded(TimeText(run, CpuSecondsPerIteration(run)), kTimeWidth + 1, true));
    for (const auto& name : CounterOrder(run.counters)) {
      out << Paint(kCyan, Padded(FormatCounter(run.counters.at(name), percentage),
                                 std::max(kMinCounterWidth, name.size()) + 2, true));
    }
  } else {
    out << "  ";
    if (!gpu) {
      std::string cpu = percentage ? SignificantDigits(run.cpu_accumulated_time * 100) + "%"
                                   : FormatSeconds(CpuSecondsPerIteration(run));
      out << " CPU=" << cpu;
    }
    for (const auto& name : CounterOrder(run.counters)) {
      out << ' ' << Paint(kCyan, name + '=' + FormatCounter(run.counters.at(name), percentage));
    }
  }
  if (!run.report_label.empty()) out << ' ' << run.report_label;
  out << '\n';
}

void ConsoleReporter::PrintChapterLines() {
  if (chapter_.empty()) return;
  GetOutputStream() << chapter_;
  chapter_.clear();
}

void ConsoleReporter::ReportRuns(const std::vector<Run>& runs) {
  if (runs.empty()) return;
  ClearStatus();
  std::string name = BaseName(runs.front());
  if (done_ == 0 && style_.name_width > 0) {
    // Aggregates add "_median" or "_stddev" to a name, as Google Benchmark's own width allows for.
    name_width_ = style_.name_width + (runs.front().repetitions > 1 ? std::string_view("_stddev").size() : 0);
  }
  if (name != current_ || done_ == 0) {
    PrintChapterLines();  // the previous benchmark had no aggregates (its repetitions failed)
    current_ = name;
    ++done_;
  }
  for (const auto& run : runs) PrintRun(run);

  bool aggregates = runs.front().run_type == Run::RT_Aggregate;
  if (!aggregates) {
    // The chapter's lines over the repetitions; printed after the aggregates that follow.
    std::vector<double> times;
    std::vector<double> rates;
    for (const auto& run : runs) {
      if (compat::Skipped(run)) continue;
      times.push_back(MeasuredSecondsPerIteration(run));
      if (auto it = run.counters.find("Gelem/s"); it != run.counters.end()) rates.push_back(it->second.value);
    }
    if (times.size() >= 2) {
      std::string indent(Prefix().size() + 3, ' ');
      chapter_ += indent + "time:   " + Bracket(times, FormatSeconds) + '\n';
      if (rates.size() == times.size()) {
        chapter_ +=
            indent + "thrpt:  " + Bracket(rates, [](double r) { return SignificantDigits(r) + " Gelem/s"; }) + '\n';
      }
    }
  } else {
    PrintChapterLines();
  }
  if (style_.live) PrintStatus(name);
  // Each line as soon as its benchmark ends, also into a pipe (tee, a timestamping filter).
  GetOutputStream().flush();
}

void ConsoleReporter::Finalize() {
  ClearStatus();
  PrintChapterLines();
  GetOutputStream().flush();
}

void ConsoleReporter::ClearStatus() {
  if (!status_shown_) return;
  GetOutputStream() << kClearLine;
  status_shown_ = false;
}

void ConsoleReporter::PrintStatus(const std::string& last_name) {
  if (total_ > 0 && done_ >= total_) return;  // nothing left to wait for
  double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  std::string text = Prefix();
  text += last_name.empty() ? " starting" : ' ' + last_name;
  if (total_ > 0 && done_ > 0 && done_ < total_) {
    text += "  " + Remaining(elapsed / static_cast<double>(done_) * static_cast<double>(total_ - done_));
  }
  // Longer than the terminal, the line would wrap and '\r' would clear only its last row.
  std::size_t width = TerminalWidth();
  if (text.size() >= width) text.resize(width - 1);
  GetOutputStream() << text;
  GetOutputStream().flush();
  status_shown_ = true;
}

}  // namespace csbench
