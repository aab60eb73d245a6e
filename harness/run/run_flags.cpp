#include "harness/run/run_flags.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <string_view>
#include <system_error>

#include "harness/base/options.hpp"

namespace csbench {
namespace {

// The value of `--<name>=value` when `arg` is that flag.
std::optional<std::string> ValueOf(std::string_view arg, std::string_view name) {
  if (!arg.starts_with("--") || !arg.substr(2).starts_with(name)) return std::nullopt;
  std::string_view rest = arg.substr(2 + name.size());
  if (!rest.starts_with('=')) return std::nullopt;
  return std::string(rest.substr(1));
}

bool IsFlag(std::string_view arg, std::string_view name) {
  return arg.starts_with("--") && arg.substr(2) == name;
}

void CheckChoice(std::string_view flag, const std::string& value, std::initializer_list<std::string_view> valid) {
  std::string list;
  for (std::string_view v : valid) {
    if (v == value) return;
    list += list.empty() ? "" : ", ";
    list += v;
  }
  throw UsageError{fmt::format("unknown value '{}' for --{}; valid choices: {}", value, flag, list)};
}

bool ParseBool(std::string_view flag, const std::string& value) {
  if (value.empty() || value == "true" || value == "yes" || value == "1") return true;
  if (value == "false" || value == "no" || value == "0") return false;
  throw UsageError{fmt::format("unknown value '{}' for --{}; valid choices: true, false", value, flag)};
}

int ParseRepetitions(const std::string& value) {
  int n = 0;
  auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (error != std::errc() || end != value.data() + value.size() || n < 1 || n > 10000) {
    throw UsageError{fmt::format("--benchmark_repetitions={} is not valid: give a whole number from 1 to 10000", value)};
  }
  return n;
}

// Checks the value and returns it as the Google Benchmark csbench is built with reads it.
std::string CheckMinTime(const std::string& value) {
  // Google Benchmark 1.7 takes seconds as a bare number; 1.8 also "<seconds>s" and "<iterations>x".
  std::string_view number = value;
  if (number.ends_with('s')) number.remove_suffix(1);
  double seconds = 0;
  auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), seconds);
  if (error != std::errc() || end != number.data() + number.size() || !std::isfinite(seconds) || seconds <= 0 ||
      seconds > 3600) {
    throw UsageError{fmt::format(
        "--benchmark_min_time={} is not valid: give the minimum seconds per benchmark, a number above 0 and at most "
        "3600 (e.g. 0.1)",
        value)};
  }
  return std::string(number) + CSBENCH_MIN_TIME_UNIT;
}

}  // namespace

RunFlags TakeRunFlags(std::vector<std::string>& args) {
  RunFlags flags;
  std::vector<std::string> rest;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (i == 0) {
      rest.push_back(arg);
    } else if (auto filter = ValueOf(arg, "benchmark_filter")) {
      flags.filter = *filter;
    } else if (auto out = ValueOf(arg, "benchmark_out")) {
      if (out->empty()) throw UsageError{"--benchmark_out needs a file name"};
      flags.out = *out;
    } else if (auto out_format = ValueOf(arg, "benchmark_out_format")) {
      CheckChoice("benchmark_out_format", *out_format, {"json", "console", "csv"});
      flags.out_format = *out_format;
    } else {
      if (auto format = ValueOf(arg, "benchmark_format")) {
        CheckChoice("benchmark_format", *format, {"console", "json", "csv"});
        flags.format = *format;
      } else if (auto color = ValueOf(arg, "benchmark_color")) {
        CheckChoice("benchmark_color", *color, {"auto", "true", "false", "yes", "no", "1", "0"});
        flags.color = *color;
      } else if (auto list = ValueOf(arg, "benchmark_list_tests")) {
        flags.list_tests = ParseBool("benchmark_list_tests", *list);
      } else if (IsFlag(arg, "benchmark_list_tests")) {
        flags.list_tests = true;
      } else if (auto repetitions = ValueOf(arg, "benchmark_repetitions")) {
        ParseRepetitions(*repetitions);
      } else if (auto min_time = ValueOf(arg, "benchmark_min_time")) {
        flags.min_time_given = true;
        flags.min_time = CheckMinTime(*min_time);
        rest.push_back("--benchmark_min_time=" + flags.min_time);
        continue;
      } else if (IsFlag(arg, "benchmark_filter") || IsFlag(arg, "benchmark_out") ||
                 IsFlag(arg, "benchmark_repetitions") || IsFlag(arg, "benchmark_min_time")) {
        throw UsageError{fmt::format("{} needs a value: {}=...", arg, arg)};
      }
      rest.push_back(arg);
    }
  }
  args = std::move(rest);
  return flags;
}

}  // namespace csbench
