// Descriptions of benchmarks and their place in the JSON report: the spelling of values, the
// JSON object, and its insertion into Google Benchmark's JSONReporter output.
#include "harness/points.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "harness/error.hpp"
#include "harness/reporters.hpp"

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
  EXPECT_EQ(ToJson(d),
            "{\"family\": \"run_simulation\", \"variant\": \"fused4\", \"clock\": \"host\", \"axes\": "
            "{\"workgroup\": \"64x4\", \"domain\": \"2048x1024\", \"total\": 512, \"mode\": \"compute\"}}");
  // A string that needs escaping stays valid JSON.
  EXPECT_EQ(ToJson({.family = "a\"b\\c", .variant = "v", .clock = Clock::kDevice, .axes = {}}),
            "{\"family\": \"a\\\"b\\\\c\", \"variant\": \"v\", \"clock\": \"device\", \"axes\": {}}");
}

TEST(Points, TheRegistryFindsADescriptionByName) {
  Describe("points_test/a/wg8x8/domain7x5", {.family = "points_test", .variant = "a", .axes = {{"domain", "7x5"}}});
  const Description* d = Described("points_test/a/wg8x8/domain7x5");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->variant, "a");
  EXPECT_EQ(d->clock, Clock::kDevice);
  EXPECT_EQ(Described("points_test/a/wg8x8/domain7x6"), nullptr);
  EXPECT_THROW(Describe("points_test/nan", {.axes = {{"keep", std::numeric_limits<double>::quiet_NaN()}}}), Error);
}

benchmark::BenchmarkReporter::Run MakeRun(const std::string& name, bool aggregate) {
  benchmark::BenchmarkReporter::Run run;
  run.run_name.function_name = name;
  run.family_index = 0;
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

// The text of a JSON report with the given calls of ReportRuns, as the file reporter writes it.
std::string Report(const std::vector<std::vector<benchmark::BenchmarkReporter::Run>>& calls, bool finalize) {
  std::ostringstream text;
  // The context's own lines do not matter here; JSONReporter's would name this machine.
  text << "{\n  \"context\": {\n    \"date\": \"x\"\n  },\n  \"benchmarks\": [\n";
  std::unique_ptr<benchmark::BenchmarkReporter> reporter = MakeJsonReporter();
  reporter->SetOutputStream(&text);
  reporter->SetErrorStream(&text);
  for (const auto& runs : calls) reporter->ReportRuns(runs);
  if (finalize) reporter->Finalize();
  return text.str();
}

size_t Count(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

TEST(Points, EveryEntryOfADescribedBenchmarkCarriesItAfterItsName) {
  const std::string a = "points_test/x/wg8x8/domain640x480";
  const std::string b = "points_test/plain_loop/domain640x480";
  Describe(a, {.family = "points_test", .variant = "x", .axes = {{"workgroup", "8x8"}, {"domain", "640x480"}}});
  Describe(b, {.family = "points_test", .variant = "plain_loop", .clock = Clock::kHost, .axes = {{"domain", "640x480"}}});
  const std::string text =
      Report({{MakeRun(a, false), MakeRun(a, false), MakeRun(a, true)}, {MakeRun(b, false), MakeRun("undescribed", false)}},
             true);
  const std::string field_a =
      "      \"name\": \"" + a + "\",\n      \"csbench\": {\"family\": \"points_test\", \"variant\": \"x\", \"clock\": "
      "\"device\", \"axes\": {\"workgroup\": \"8x8\", \"domain\": \"640x480\"}},\n      \"family_index\"";
  // Both repetitions and the mean (whose name is the benchmark's with "_mean").
  EXPECT_EQ(Count(text, field_a), 2u) << text;
  EXPECT_EQ(Count(text, "\"name\": \"" + a + "_mean\",\n      \"csbench\": {\"family\": \"points_test\""), 1u) << text;
  EXPECT_EQ(Count(text, "\"name\": \"" + b + "\",\n      \"csbench\": {\"family\": \"points_test\", \"variant\": "
                            "\"plain_loop\", \"clock\": \"host\""),
            1u)
      << text;
  // A benchmark nobody described keeps its entry as Google Benchmark wrote it.
  EXPECT_EQ(Count(text, "\"name\": \"undescribed\",\n      \"family_index\""), 1u) << text;
  EXPECT_EQ(Count(text, "\"csbench\""), 4u);
  // The entries stay separated and closed: as many openings as closings, one comma between each.
  EXPECT_EQ(Count(text, "    {\n"), 5u);
  EXPECT_EQ(Count(text, "    },\n"), 4u);
  EXPECT_TRUE(text.ends_with("    }\n  ]\n}\n")) << text;
}

TEST(Points, AnInterruptedReportStaysCompleteWithTheFields) {
  const std::string a = "points_test/y/wg8x8/domain640x480";
  Describe(a, {.family = "points_test", .variant = "y", .axes = {{"workgroup", "8x8"}, {"domain", "640x480"}}});
  const std::string json = CompleteJson(Report({{MakeRun(a, false)}, {MakeRun(a, false)}}, false), false, true);
  EXPECT_EQ(Count(json, "\"csbench\": {\"family\": \"points_test\", \"variant\": \"y\""), 2u) << json;
  EXPECT_TRUE(json.ends_with("    }\n  ]\n}\n")) << json;
  EXPECT_NE(json.find("\"interrupted\": true"), std::string::npos);
}

}  // namespace
}  // namespace csbench
