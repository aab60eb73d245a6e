#include "harness/tune/tune_output.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "harness/base/error.hpp"

#include "tests/harness/temp_folder.hpp"

namespace csbench {
namespace {

namespace fs = std::filesystem;

// A fresh folder of the test's own, removed after it.
class TempFolder : public testing::TempFolder {
 public:
  TempFolder() : testing::TempFolder("csbench_tune_output") {}
};

std::string Read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void Write(const fs::path& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

TunedPoint Point(std::string variant, std::string workgroup, std::string tm, double gelems) {
  TunedPoint p;
  p.name = "matmul/" + variant + "/wg" + workgroup + "/TM" + tm + "/domain2048x2048";
  p.point = {{"variant", variant}, {"workgroup", workgroup}, {"TM", tm}, {"subgroup_size", "32"}};
  p.gelems = gelems;
  p.low = gelems * 0.99;
  p.high = gelems * 1.01;
  p.repetitions = 12;
  return p;
}

TunedDomain Domain(std::string family, std::string domain, TunedPoint winner) {
  TunedDomain d;
  d.family = std::move(family);
  d.domain = std::move(domain);
  d.winner = std::move(winner);
  TunedPoint tied = Point("tiled", "8x8", "2", d.winner.gelems * 0.995);
  tied.p_vs_winner = 0.21;
  TunedPoint beaten = Point("naive", "8x8", "1", d.winner.gelems * 0.5);
  beaten.p_vs_winner = 0.0001;
  d.tied = {tied};
  d.finalists = {d.winner, tied, beaten};
  d.worst = 3;
  d.median = 40;
  d.best = d.winner.gelems;
  d.evaluated = 20;
  d.space = 200;
  d.failed = 2;
  d.cached = 5;
  d.strategy = "model";
  d.device_seconds = 12.5;
  for (const TunedPoint& p : d.finalists) {
    TunedPoint look = p;
    look.repetitions = 1;
    d.looked.push_back(look);
  }
  return d;
}

TuneReport Report(std::string key, std::vector<TunedDomain> domains) {
  return {.device_key = std::move(key),
          .device_name = "NVIDIA H200",
          .driver = "570.86.15",
          .revision = "abc1234",
          .domains = std::move(domains)};
}

// ---------------------------------------------------------------- MedianInterval

TEST(MedianInterval, FewerThanSixValuesGiveTheRange) {
  EXPECT_EQ(MedianInterval({}), std::make_pair(0.0, 0.0));
  EXPECT_EQ(MedianInterval({7}), std::make_pair(7.0, 7.0));
  EXPECT_EQ(MedianInterval({5, 1, 4, 2, 3}), std::make_pair(1.0, 5.0));
  // Six is the first count whose range holds the median with 95%: 1 - 2/64.
  EXPECT_EQ(MedianInterval({6, 2, 5, 1, 4, 3}), std::make_pair(1.0, 6.0));
  EXPECT_EQ(MedianInterval({8, 2, 5, 1, 4, 3, 7, 6}), std::make_pair(1.0, 8.0));
}

std::vector<double> Shuffled(int n) {
  std::vector<double> values;
  for (int i = 0; i < n; ++i) values.push_back(1 + (i * 7) % n);  // 1..n, as 7 and n share no factor
  return values;
}

TEST(MedianInterval, OrderStatisticsOfTheBinomialRule) {
  // The ranks (k, n + 1 - k) of the largest k with P(Binomial(n, 1/2) < k) <= 2.5%.
  EXPECT_EQ(MedianInterval(Shuffled(9)), std::make_pair(2.0, 8.0));
  EXPECT_EQ(MedianInterval(Shuffled(10)), std::make_pair(2.0, 9.0));
  EXPECT_EQ(MedianInterval(Shuffled(20)), std::make_pair(6.0, 15.0));
  EXPECT_EQ(MedianInterval(Shuffled(100)), std::make_pair(40.0, 61.0));
}

TEST(MedianInterval, LongSamplesDoNotUnderflow) {
  const std::pair<double, double> interval = MedianInterval(Shuffled(3001));  // 2^-3001 is no double
  EXPECT_LT(interval.first, 1501);
  EXPECT_GT(interval.second, 1501);
  EXPECT_NEAR(interval.second - interval.first, 2 * 1.96 * std::sqrt(3001.0) / 2, 4);
}

// ---------------------------------------------------------------- JSON

TEST(TuneJson, Shape) {
  TempFolder temp;
  const fs::path path = temp.path() / "tuned.json";
  WriteTuneJson(Report("nvidia-h200", {Domain("matmul", "2048x2048", Point("tiled", "16x8", "4", 100))}), path);
  const nlohmann::ordered_json j = nlohmann::ordered_json::parse(Read(path));
  EXPECT_EQ(j["csbench_tune"], 1);
  const auto& device = j["devices"]["nvidia-h200"];
  EXPECT_EQ(device["device"], "NVIDIA H200");
  EXPECT_EQ(device["driver"], "570.86.15");
  EXPECT_EQ(device["revision"], "abc1234");
  const auto& domain = device["families"]["matmul"]["2048x2048"];
  const auto& winner = domain["winner"];
  EXPECT_EQ(winner["name"], "matmul/tiled/wg16x8/TM4/domain2048x2048");
  EXPECT_EQ(winner["gelems"], 100.0);
  EXPECT_DOUBLE_EQ(winner["low"].get<double>(), 99.0);
  EXPECT_DOUBLE_EQ(winner["high"].get<double>(), 101.0);
  EXPECT_EQ(winner["repetitions"], 12);
  EXPECT_FALSE(winner.contains("p_vs_winner"));
  // The axes in the name's order, as written.
  std::vector<std::string> axes;
  for (const auto& [axis, value] : winner["point"].items()) axes.push_back(axis);
  EXPECT_EQ(axes, (std::vector<std::string>{"variant", "workgroup", "TM", "subgroup_size"}));
  EXPECT_EQ(winner["point"]["workgroup"], "16x8");
  ASSERT_EQ(domain["tied"].size(), 1u);
  EXPECT_EQ(domain["tied"][0]["p_vs_winner"], 0.21);
  EXPECT_EQ(domain["finalists"].size(), 3u);
  EXPECT_EQ(domain["finalists"][2]["p_vs_winner"], 0.0001);
  EXPECT_EQ(domain["spread"]["worst"], 3.0);
  EXPECT_EQ(domain["spread"]["median"], 40.0);
  EXPECT_EQ(domain["spread"]["best"], 100.0);
  EXPECT_EQ(domain["spread"]["evaluated"], 20);
  EXPECT_EQ(domain["spread"]["space"], 200);
  EXPECT_EQ(domain["spread"]["failed"], 2);
  EXPECT_EQ(domain["spread"]["cached"], 5);
  EXPECT_EQ(domain["strategy"], "model");
  EXPECT_EQ(domain["device_s"], 12.5);
  EXPECT_EQ(domain["revision"], "abc1234");
  ASSERT_EQ(domain["looked"].size(), 3u);
  EXPECT_EQ(domain["looked"][1]["gelems"], 99.5);
  EXPECT_FALSE(domain["looked"][1].contains("repetitions"));
  // Written whole: nothing beside it.
  EXPECT_EQ(std::distance(fs::directory_iterator(temp.path()), fs::directory_iterator()), 1);
}

TEST(TuneJson, DeviceWorkOfTheLooksAndTheRace) {
  TempFolder temp;
  const fs::path path = temp.path() / "tuned.json";
  TunedDomain timed = Domain("matmul", "2048x2048", Point("tiled", "16x8", "4", 100));
  timed.looks_device = TunedDeviceWork{
      .seconds = 3.0, .samples = 1.0, .measured = 16, .phases = {{"check", 1.5}, {"timed", 1.25}, {"other", 0.25}}};
  timed.race_device = TunedDeviceWork{.seconds = 0.5, .samples = 0.25, .measured = 0};
  TunedDomain untimed = Domain("matmul", "1024x1024", Point("tiled", "16x8", "2", 90));
  WriteTuneJson(Report("nvidia-h200", {timed, untimed}), path);
  const nlohmann::ordered_json j = nlohmann::ordered_json::parse(Read(path));
  const auto& family = j["devices"]["nvidia-h200"]["families"]["matmul"];
  const auto& looks = family["2048x2048"]["device_work"]["looks"];
  EXPECT_EQ(looks["device_s"], 3.0);
  EXPECT_EQ(looks["samples_s"], 1.0);
  EXPECT_EQ(looks["measured"], 16);
  // (3 - 1) / 16: what a look cost the device beyond its samples.
  EXPECT_EQ(looks["beyond_samples_each_s"], 0.125);
  EXPECT_EQ(looks["phases"]["check_s"], 1.5);
  EXPECT_EQ(looks["phases"]["other_s"], 0.25);
  EXPECT_EQ(looks["phases"].size(), 3u);
  // Nothing measured (all from the cache): nothing per point.
  EXPECT_EQ(family["2048x2048"]["device_work"]["race"]["beyond_samples_each_s"], 0.0);
  // Not timed: null.
  EXPECT_TRUE(family["1024x1024"]["device_work"].is_null());
}

// A family and domain where no point passed its check.
TunedDomain NoWinner() {
  TunedDomain failed;
  failed.family = "matmul";
  failed.domain = "64x64";
  return failed;
}

TEST(TuneJson, DomainWithoutWinnerHasNull) {
  TempFolder temp;
  const fs::path path = temp.path() / "tuned.json";
  TunedDomain failed = NoWinner();
  failed.evaluated = failed.failed = 4;
  WriteTuneJson(Report("nvidia-h200", {failed}), path);
  const nlohmann::json j = nlohmann::json::parse(Read(path));
  EXPECT_TRUE(j["devices"]["nvidia-h200"]["families"]["matmul"]["64x64"]["winner"].is_null());
  EXPECT_EQ(j["devices"]["nvidia-h200"]["families"]["matmul"]["64x64"]["spread"]["failed"], 4);
}

TEST(TuneJson, MergesDevicesFamiliesAndDomains) {
  TempFolder temp;
  const fs::path path = temp.path() / "tuned.json";
  WriteTuneJson(Report("nvidia-h200", {Domain("matmul", "2048x2048", Point("tiled", "16x8", "4", 100))}), path);
  WriteTuneJson(Report("amd-mi300", {Domain("matmul", "2048x2048", Point("tiled", "16x16", "8", 80))}), path);
  WriteTuneJson(Report("nvidia-h200", {Domain("matmul", "1024x1024", Point("tiled", "8x8", "2", 60)),
                                       Domain("reduction", "1920x1080", Point("prefetch4", "8x32", "1", 300))}),
                path);
  // A later run of one domain replaces that domain alone.
  TuneReport later = Report("nvidia-h200", {Domain("matmul", "2048x2048", Point("tiled", "32x8", "4", 110))});
  later.revision = "def5678";
  WriteTuneJson(later, path);

  const nlohmann::json j = nlohmann::json::parse(Read(path));
  ASSERT_EQ(j["devices"].size(), 2u);
  EXPECT_EQ(j["devices"]["amd-mi300"]["families"]["matmul"]["2048x2048"]["winner"]["gelems"], 80.0);
  const auto& h200 = j["devices"]["nvidia-h200"];
  EXPECT_EQ(h200["revision"], "def5678");
  EXPECT_EQ(h200["families"]["matmul"]["2048x2048"]["winner"]["gelems"], 110.0);
  EXPECT_EQ(h200["families"]["matmul"]["2048x2048"]["revision"], "def5678");
  EXPECT_EQ(h200["families"]["matmul"]["1024x1024"]["winner"]["gelems"], 60.0);
  EXPECT_EQ(h200["families"]["matmul"]["1024x1024"]["revision"], "abc1234");
  EXPECT_EQ(h200["families"]["reduction"]["1920x1080"]["winner"]["gelems"], 300.0);
}

void ExpectRefused(const std::string& content, const std::string& why) {
  TempFolder temp;
  const fs::path path = temp.path() / "results.json";
  Write(path, content);
  try {
    WriteTuneJson(Report("nvidia-h200", {Domain("matmul", "2048x2048", Point("tiled", "16x8", "4", 100))}), path);
    ADD_FAILURE() << "not refused: " << content;
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(path.string()), std::string::npos) << message;
    EXPECT_NE(message.find(why), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
  EXPECT_EQ(Read(path), content);  // left as it was
}

TEST(TuneJson, RefusesOtherFiles) {
  ExpectRefused(R"({"context": {}, "benchmarks": []})", "not a csbench tune file");
  ExpectRefused("[1, 2, 3]", "not a csbench tune file");
  ExpectRefused("name,gelems\nx,1\n", "not JSON");
  ExpectRefused(R"({"csbench_tune": 2, "devices": {}})", "format 2");
  ExpectRefused(R"({"csbench_tune": 1, "devices": []})", "damaged");
}

TEST(TuneJson, EmptyFileIsNew) {
  TempFolder temp;
  const fs::path path = temp.path() / "tuned.json";
  Write(path, "");
  WriteTuneJson(Report("nvidia-h200", {Domain("matmul", "2048x2048", Point("tiled", "16x8", "4", 100))}), path);
  EXPECT_EQ(nlohmann::json::parse(Read(path))["csbench_tune"], 1);
}

TEST(TuneOutput, UnwritablePathThrows) {
  TempFolder temp;
  Write(temp.path() / "file", "x");
  const TuneReport report = Report("nvidia-h200", {Domain("matmul", "2048x2048", Point("tiled", "16x8", "4", 100))});
  for (const fs::path& path : {temp.path() / "file" / "tuned.json", temp.path() / "missing" / "tuned.json"}) {
    try {
      WriteTuneJson(report, path);
      ADD_FAILURE() << "written: " << path;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("cannot write tune results to " + path.string()), std::string::npos)
          << e.what();
    }
    try {
      WriteTuneHeader(report, path);
      ADD_FAILURE() << "written: " << path;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(WriteTuneJson(report, temp.path()), Error);                                     // a folder
  EXPECT_EQ(std::distance(fs::directory_iterator(temp.path()), fs::directory_iterator()), 1);  // no temporary left
}

// ---------------------------------------------------------------- header

bool Found(const char* tool) {
  return std::system(("command -v " + std::string(tool) + " >/dev/null 2>&1").c_str()) == 0;
}

// A report with what strangers may name: a family that sanitizes like another, axes that are
// keywords, macros or not identifiers, strings with quotes and trigraphs, a comment closer.
TuneReport AwkwardReport() {
  TunedPoint matmul = Point("tiled", "16x8", "4", 123.5);
  matmul.point.push_back({"alpha", "0.5"});
  matmul.point.push_back({"layout", "s\"o?\?/a"});
  matmul.point.push_back({"int", "7"});
  matmul.point.push_back({"T-M", "3"});  // becomes T_M
  matmul.point.push_back({"T_M", "5"});  // and so T_M_2
  matmul.point.push_back({"9lives", "1"});
  matmul.point.push_back({"errno", "2"});
  matmul.point.push_back({"big", "8000000000"});
  matmul.point.push_back({"wg_x", "11"});  // taken by the workgroup: wg_x_2
  TunedPoint smaller = Point("naive", "8x8", "2", 45.25);
  smaller.name = "matmul/naive/wg8x8/TM2/domain512x512 */ /*";
  TunedDomain failed;
  failed.family = "empty";
  failed.domain = "64";
  TuneReport report =
      Report("nvidia-h200 \"*/ ?\?=", {Domain("matmul", "2048x2048", matmul), Domain("matmul", "512x512", smaller),
                                       failed, Domain("mat-mul", "300x200x2", Point("x", "256", "1", 9)),
                                       Domain("mat_mul", "odd domain", Point("y", "4x4x4", "z", 1))});
  report.device_name = "GPU */ with a \\ and ?\?/";
  return report;
}

TEST(TuneHeader, CompilesAsC11AndCpp17) {
  if (!Found("cc") || !Found("c++")) GTEST_SKIP() << "no cc and c++ to compile the header with";
  TempFolder temp;
  const fs::path header = temp.path() / "tuned.h";
  WriteTuneHeader(AwkwardReport(), header);
  // Included after headers that define errno and friends, as an application would.
  Write(temp.path() / "use.c",
        "#include <errno.h>\n#include <stdio.h>\n#include <stddef.h>\n#include \"tuned.h\"\n#include \"tuned.h\"\n"
        "int main(void) {\n"
        "  const csbench_matmul_tuned* w = &csbench_matmul_tuned_rows[0];\n"
        "  printf(\"%d %s|%d %d %d|%d %d %d|%s|%d|%g|%s|%d|%d %d %d %d %lld %d|%g|%d|%s %d %d %d|%s %d %d %d|%d\\n\",\n"
        "         csbench_matmul_tuned_count, w->device_key, w->domain_x, w->domain_y, w->domain_z, w->wg_x,\n"
        "         w->wg_y, w->wg_z, w->variant, w->TM, w->alpha, w->layout, w->subgroup_size, w->int_, w->T_M,\n"
        "         w->T_M_2, w->v9lives, w->big, w->errno_, w->gelems, csbench_matmul_tuned_rows[1].wg_x_2,\n"
        "         csbench_mat_mul_tuned_rows[0].variant, csbench_mat_mul_tuned_rows[0].domain_x,\n"
        "         csbench_mat_mul_tuned_rows[0].domain_z, csbench_mat_mul_tuned_rows[0].wg_y,\n"
        "         csbench_mat_mul_2_tuned_rows[0].domain, csbench_mat_mul_2_tuned_rows[0].wg_x,\n"
        "         csbench_mat_mul_2_tuned_rows[0].wg_z, csbench_mat_mul_2_tuned_rows[0].TM == NULL,\n"
        "         csbench_matmul_tuned_rows[1].wg_x_2);\n"
        "  return 0;\n}\n");
  Write(temp.path() / "use.cpp",
        "#include <cerrno>\n#include \"tuned.h\"\nint main() { return csbench_matmul_tuned_rows[0].TM; }\n");
  const std::string at = "cd '" + temp.path().string() + "' && ";
  const std::string strict = " -Wall -Wextra -pedantic -Werror ";
  ASSERT_EQ(std::system((at + "cc -fsyntax-only -std=c11" + strict + "-x c tuned.h").c_str()), 0) << Read(header);
  ASSERT_EQ(std::system((at + "c++ -fsyntax-only -std=c++17" + strict + "-x c++ tuned.h").c_str()), 0) << Read(header);
  ASSERT_EQ(std::system((at + "c++ -fsyntax-only -std=c++17" + strict + "use.cpp").c_str()), 0) << Read(header);
  ASSERT_EQ(std::system((at + "cc -std=c11" + strict + "-o use use.c && ./use > printed").c_str()), 0) << Read(header);
  EXPECT_EQ(Read(temp.path() / "printed"),
            "2 nvidia-h200 \"*/ ?\?=|2048 2048 1|16 8 1|tiled|4|0.5|s\"o?\?/a|32|7 3 5 1 8000000000 2|123.5|0|"
            "x 300 2 1|odd domain 4 4 0|0\n");
}

TEST(TuneHeader, HoldsTheWinnersAndWhatMadeIt) {
  TempFolder temp;
  const fs::path path = temp.path() / "tuned.h";
  WriteTuneHeader(Report("nvidia-h200", {Domain("matmul", "2048x2048", Point("tiled", "16x8", "4", 123.5))}), path);
  const std::string text = Read(path);
  EXPECT_NE(text.find("revision abc1234"), std::string::npos) << text;
  EXPECT_NE(text.find("device NVIDIA H200 (device key nvidia-h200); driver 570.86.15"), std::string::npos) << text;
  EXPECT_NE(text.find("--tune-out"), std::string::npos) << text;
  EXPECT_NE(text.find("typedef struct csbench_matmul_tuned {"), std::string::npos) << text;
  EXPECT_NE(text.find("  int wg_x, wg_y, wg_z; /* axis \"workgroup\" */"), std::string::npos) << text;
  EXPECT_NE(text.find("  int TM;\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  const char* variant;\n"), std::string::npos) << text;
  EXPECT_NE(text.find("{\"nvidia-h200\", 2048, 2048, 1, \"tiled\", 16, 8, 1, 4, 32, 123.5},"), std::string::npos)
      << text;
  EXPECT_NE(text.find("enum { csbench_matmul_tuned_count = 1 };"), std::string::npos) << text;
}

TEST(TuneHeader, FamilyWithoutWinnerHasNoTable) {
  TempFolder temp;
  const fs::path path = temp.path() / "tuned.h";
  WriteTuneHeader(Report("nvidia-h200", {NoWinner()}), path);
  const std::string text = Read(path);
  EXPECT_NE(text.find("no point passed its check"), std::string::npos) << text;
  EXPECT_EQ(text.find("csbench_matmul_tuned"), std::string::npos) << text;
}

}  // namespace
}  // namespace csbench
