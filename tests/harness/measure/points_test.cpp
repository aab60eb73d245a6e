// Descriptions of benchmarks and their place in the JSON report: the spelling of values, the
// record's object, and the writer that puts it after each entry's name.
#include "harness/measure/points.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "harness/base/error.hpp"
#include "harness/measure/record.hpp"
#include "harness/measure/selection.hpp"
#include "harness/run/json_writer.hpp"

namespace csbench {
namespace {

TEST(Points, ValuesAreSpelledAsNamesWriteThem) {
  EXPECT_EQ(Spelled(512.0), "512");
  EXPECT_EQ(Spelled(0.25), "0.25");
  EXPECT_EQ(Spelled(16777216.0), "16777216");
  EXPECT_EQ(Spelled(std::string("8x8")), "8x8");
}

TEST(Points, JsonKeepsTheAxesInOrderWithNumbersAsNumbers) {
  const Description d{.family = "run_simulation",
                      .variant = "fused4",
                      .clock = Clock::kHost,
                      .axes = {{"workgroup", "64x4"}, {"domain", "2048x1024"}, {"total", 512.0}, {"mode", "compute"}}};
  // Whole numbers are written as the names spell them, others as they are.
  EXPECT_EQ(EntryObject(Record("points_test/fused4", &d), nullptr).dump(),
            R"({"family":"run_simulation","variant":"fused4","clock":"host","axes":)"
            R"({"workgroup":"64x4","domain":"2048x1024","total":512,"mode":"compute"}})");
  // A string that needs escaping stays valid JSON.
  const Description odd{.family = "a\"b\\c", .variant = "v", .clock = Clock::kDevice, .axes = {}};
  EXPECT_EQ(EntryObject(Record("points_test/odd", &odd), nullptr).dump(),
            R"({"family":"a\"b\\c","variant":"v","clock":"device","axes":{}})");
}

TEST(Points, ARecordRefusesAnAxisJsonCannotHold) {
  const Description nan{.axes = {{"keep", std::numeric_limits<double>::quiet_NaN()}}};
  EXPECT_THROW(Record("points_test/nan", &nan), Error);
  EXPECT_FALSE(Record("points_test/none", nullptr).described());
}

benchmark::BenchmarkReporter::Run MakeRun(const std::string& name, bool aggregate) {
  benchmark::BenchmarkReporter::Run run;
  run.run_name.function_name = name;
  run.family_index = -1;  // found by name
  run.per_family_instance_index = 0;
  run.iterations = 10;
  run.real_accumulated_time = 1e-3;
  run.cpu_accumulated_time = 1e-3;
  run.repetitions = 2;
  if (aggregate) {
    run.run_type = benchmark::BenchmarkReporter::Run::RT_Aggregate;
    run.aggregate_name = "mean";
  }
  return run;
}

// Registers `name` (never run here) as registration does, with its record described.
void Register(const std::string& name, const Description& description) {
  const Describing described(description);
  AddBenchmark(name, [](benchmark::State&) {});
}

TEST(Points, EveryEntryOfADescribedBenchmarkCarriesItAfterItsName) {
  const std::string a = "points_test/x/wg8x8/domain640x480";
  const std::string b = "points_test/plain_loop/domain640x480";
  Register(a, {.family = "points_test", .variant = "x", .axes = {{"workgroup", "8x8"}, {"domain", "640x480"}}});
  Register(b, {.family = "points_test", .variant = "plain_loop", .clock = Clock::kHost, .axes = {{"domain", "640x480"}}});
  JsonWriter writer;
  writer.ReportRuns({MakeRun(a, false), MakeRun(a, false), MakeRun(a, true)});
  writer.ReportRuns({MakeRun(b, false), MakeRun("undescribed", false)});
  const nlohmann::ordered_json json = nlohmann::ordered_json::parse(writer.Text());
  const auto& entries = json["benchmarks"];
  ASSERT_EQ(entries.size(), 5u) << writer.Text();
  // Both repetitions and the mean (whose name is the benchmark's with "_mean"), right after the name.
  for (size_t i : {0, 1, 2}) {
    auto member = entries[i].begin();
    EXPECT_EQ(member.key(), "name");
    ++member;
    EXPECT_EQ(member.key(), "csbench");
    EXPECT_EQ(member.value()["variant"], "x");
    EXPECT_EQ(member.value()["axes"]["workgroup"], "8x8");
  }
  EXPECT_EQ(entries[2]["name"], a + "_mean");
  EXPECT_EQ(entries[3]["csbench"]["clock"], "host");
  // A benchmark nobody described keeps its entry as Google Benchmark wrote it.
  EXPECT_FALSE(entries[4].contains("csbench"));
  EXPECT_EQ(entries[4]["name"], "undescribed");
  EXPECT_EQ(entries[4]["iterations"], 10);
}

TEST(Points, AnInterruptedReportStaysCompleteWithTheFields) {
  const std::string a = "points_test/y/wg8x8/domain640x480";
  Register(a, {.family = "points_test", .variant = "y", .axes = {{"workgroup", "8x8"}, {"domain", "640x480"}}});
  JsonWriter writer;
  writer.ReportRuns({MakeRun(a, false)});
  writer.ReportRuns({MakeRun(a, false)});
  const nlohmann::ordered_json json = nlohmann::ordered_json::parse(writer.Text(true));
  EXPECT_EQ(json["context"]["interrupted"], true);
  ASSERT_EQ(json["benchmarks"].size(), 2u);
  EXPECT_EQ(json["benchmarks"][1]["csbench"]["variant"], "y");
  // Stopped before the context was written: still a whole report, with no benchmarks.
  const nlohmann::ordered_json empty = nlohmann::ordered_json::parse(JsonWriter().Text(true));
  EXPECT_EQ(empty["context"]["interrupted"], true);
  EXPECT_TRUE(empty["benchmarks"].empty());
}

}  // namespace
}  // namespace csbench
