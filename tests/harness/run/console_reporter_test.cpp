#include "harness/run/console_reporter.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <utility>

#include "harness/base/compat.hpp"

namespace csbench {
namespace {

// Each value and how SignificantDigits writes it.
void ExpectWritten(std::initializer_list<std::pair<double, const char*>> cases) {
  for (const auto& [value, text] : cases) EXPECT_EQ(SignificantDigits(value), text) << value;
}

TEST(SignificantDigits, ThreeWherePossible) {
  ExpectWritten({{0.0642011, "0.0642"}, {1.02822, "1.03"}, {6.98123, "6.98"}, {55, "55"}, {2.5, "2.5"},
                 {-12.345, "-12.3"}, {0, "0"}, {9.9996, "10"}});
}

TEST(SignificantDigits, LargeAndSmall) {
  ExpectWritten({{1234.6, "1235"}, {99999, "99999"}, {123456, "123k"}, {2073600, "2.07M"}, {999999, "1M"},
                 {0.00012345, "0.000123"}, {0.000012345, "1.23e-05"}});
}

TEST(FormatSeconds, PicksTheUnit) {
  EXPECT_EQ(FormatSeconds(0.004785), "4.79 ms");
  EXPECT_EQ(FormatSeconds(1.79e-6), "1.79 us");
  EXPECT_EQ(FormatSeconds(3.2e-8), "32 ns");
  EXPECT_EQ(FormatSeconds(93.8), "93.8 s");
}

TEST(FormatCounter, RatesGetNoSecondUnit) {
  EXPECT_EQ(FormatCounter(benchmark::Counter(0.0642011, benchmark::Counter::kIsRate), false), "0.0642");
  EXPECT_EQ(FormatCounter(benchmark::Counter(0.0123, benchmark::Counter::kIsRate), true), "1.23%");
}

TEST(CounterOrder, ThroughputFirst) {
  benchmark::UserCounters counters{{"tiles", 1},   {"roofline%", 2}, {"GB/s", 3}, {"dispatches/sample", 4},
                                   {"Gelem/s", 5}, {"atomics", 6}};
  EXPECT_EQ(CounterOrder(counters),
            (std::vector<std::string>{"Gelem/s", "GB/s", "roofline%", "dispatches/sample", "atomics", "tiles"}));
}

benchmark::BenchmarkReporter::Run GpuRun(int64_t repetition, double seconds_per_dispatch, double gelems) {
  benchmark::BenchmarkReporter::Run run;
  run.run_name.function_name = "reduction/subgroup/wg8x8/domain640x480";
  run.run_name.time_type = "manual_time";
  run.iterations = 55;
  run.repetition_index = repetition;
  run.repetitions = 3;
  run.real_accumulated_time = seconds_per_dispatch * 55;
  run.cpu_accumulated_time = 1e-4;
  run.counters["Gelem/s"] = benchmark::Counter(gelems, benchmark::Counter::kIsRate);
  run.counters["roofline%"] = benchmark::Counter(6.98123, benchmark::Counter::kIsRate);
  run.counters["dispatches/sample"] = 55;
  return run;
}

TEST(ConsoleReporter, PrintsOneLinePerRunAndTheChapterLines) {
  std::ostringstream out;
  ConsoleReporter reporter(4, ConsoleStyle{.name_width = 40});
  reporter.SetOutputStream(&out);
  reporter.ReportRuns({GpuRun(0, 0.004785, 0.0642011), GpuRun(1, 0.0047, 0.065), GpuRun(2, 0.0049, 0.063)});
  auto median = GpuRun(-1, 0.004785, 0.0642011);
  median.run_type = benchmark::BenchmarkReporter::Run::RT_Aggregate;
  median.aggregate_name = "median";
  reporter.ReportRuns({median});
  reporter.Finalize();
  std::string text = out.str();
  EXPECT_NE(text.find("[1/4] reduction/subgroup/wg8x8/domain640x480 "), std::string::npos) << text;
  EXPECT_NE(text.find("4.79 ms   Gelem/s=0.0642 roofline%=6.98 dispatches/sample=55\n"), std::string::npos) << text;
  EXPECT_NE(text.find("[1/4] reduction/subgroup/wg8x8/domain640x480_median "), std::string::npos) << text;
  EXPECT_EQ(text.find("/s=0.0642/s"), std::string::npos) << text;
  EXPECT_EQ(text.find("manual_time"), std::string::npos) << text;
  EXPECT_EQ(text.find("CPU="), std::string::npos) << text;  // host time of a GPU entry
  // After the aggregates, sorted: min, median, max.
  ASSERT_NE(text.find("time:   [4.7 ms 4.79 ms 4.9 ms]\n"), std::string::npos) << text;
  EXPECT_GT(text.find("time:   [4.7 ms 4.79 ms 4.9 ms]\n"), text.find("_median ")) << text;
  EXPECT_NE(text.find("thrpt:  [0.063 Gelem/s 0.0642 Gelem/s 0.065 Gelem/s]\n"), std::string::npos) << text;
}

TEST(ConsoleReporter, ErrorsKeepTheirCount) {
  std::ostringstream out;
  ConsoleReporter reporter(12, ConsoleStyle{.name_width = 40});
  reporter.SetOutputStream(&out);
  auto run = GpuRun(0, 0.001, 1);
  run.repetitions = 1;
  compat::MarkError(run, "max error 3 at 17");
  reporter.ReportRuns({run});
  EXPECT_NE(out.str().find("[ 1/12] reduction/subgroup/wg8x8/domain640x480"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("ERROR OCCURRED: 'max error 3 at 17'"), std::string::npos) << out.str();
}

TEST(ConsoleStyleFromFlags, ReadsGoogleBenchmarksBooleans) {
  EXPECT_TRUE(ConsoleStyleFromFlags({"b", "--benchmark_counters_tabular=true"}, false).tabular);
  EXPECT_TRUE(ConsoleStyleFromFlags({"b", "--benchmark_counters_tabular"}, false).tabular);
  EXPECT_TRUE(ConsoleStyleFromFlags({"b", "--benchmark_counters_tabular=1"}, false).tabular);
  EXPECT_FALSE(ConsoleStyleFromFlags({"b", "--benchmark_counters_tabular=false"}, false).tabular);
  EXPECT_FALSE(ConsoleStyleFromFlags({"b"}, false).tabular);
  EXPECT_TRUE(ConsoleStyleFromFlags({"b"}, true).color);
  EXPECT_FALSE(ConsoleStyleFromFlags({"b", "--benchmark_color=no"}, true).color);
  EXPECT_TRUE(ConsoleStyleFromFlags({"b", "--benchmark_color=yes"}, false).color);
  EXPECT_FALSE(ConsoleStyleFromFlags({"b"}, false).live);
}

}  // namespace
}  // namespace csbench
