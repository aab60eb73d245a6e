// Every variant x workgroup (x axis values: a sample, where there are many) of a manifest in
// examples/ on its test domains, checked as a benchmark
// is (against the reference variant and its [check] expressions) on the Vulkan device (lavapipe
// without a GPU) with the validation layer on: the examples a user copies must pass wherever
// csbench runs. The points come from the descriptor each manifest builds, by the same TestPoints
// path as the built-in families'.
//
// Usage: manifest_examples_test [gtest flags] [MANIFEST.toml ...]
// With no manifest, every .toml of the examples folder. ctest runs one process per example: loading
// a manifest compiles and reflects its shaders, which is the cost of a process start, so the points
// are registered at run time (not at static initialisation, where every test process of a binary
// would pay for every example).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <string>
#include <vector>

#include "bench/manifest.hpp"
#include "harness/family/family.hpp"
#include "tests/bench/vulkan_environment.hpp"

namespace csbench {
namespace {

// The examples folder: CSBENCH_EXAMPLES_DIR where set, else the source tree's, else ./examples
// (a test binary copied beside a checkout, as onto a GPU machine).
std::filesystem::path ExamplesDirectory() {
  if (const char* dir = std::getenv("CSBENCH_EXAMPLES_DIR"); dir != nullptr && *dir != '\0') return dir;
  std::error_code error;
  if (std::filesystem::is_directory(CSBENCH_EXAMPLES_DIR, error)) return CSBENCH_EXAMPLES_DIR;
  return "examples";
}

std::string TestName(std::string name) {
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

class Fixture : public ::testing::Test {};

class PointTest : public Fixture {
 public:
  explicit PointTest(TestPoint point) : point_(std::move(point)) {}
  void TestBody() override { testing::CheckPoint(point_); }

 private:
  TestPoint point_;
};

class LoadFailure : public Fixture {
 public:
  explicit LoadFailure(std::string message) : message_(std::move(message)) {}
  void TestBody() override { FAIL() << message_; }

 private:
  std::string message_;
};

// The most points of one example the test runs.
constexpr size_t kMostPoints = 48;

// Registers `file`'s points as tests of the suite named after it; a manifest that does not load,
// or builds no point, is one failing test that says so.
// The examples' families, kept for the test program's life: their test points refer to them.
std::deque<manifest::Loaded>& Examples() {
  static std::deque<manifest::Loaded> examples;
  return examples;
}

void RegisterExample(const std::filesystem::path& file) {
  const std::string suite = "Example_" + TestName(file.stem().string());
  const std::string where = file.string();
  std::string failure;
  std::vector<TestPoint> points;
  try {
    // A pointer, not a reference bound to the call: GCC 13+ would warn of a dangling reference
    // (Adopt takes the manifest by value and returns what it keeps).
    const manifest::Loaded* loaded = &manifest::Adopt(Examples(), LoadManifest(file));
    points = TestPoints(loaded->family);
    if (points.empty()) failure = where + ": the manifest builds no test point";
    // A manifest of [axes] has a tuning space's points (tiled_matmul: over 2000 on its test
    // domains): an evenly spaced sample of them, which spans the domains, variants, workgroups
    // and knobs in the registration's order, keeps the test within minutes on lavapipe.
    if (points.size() > kMostPoints) {
      std::vector<TestPoint> sample;
      for (size_t k = 0; k < kMostPoints; ++k) sample.push_back(points[k * points.size() / kMostPoints]);
      points = std::move(sample);
    }
  } catch (const ManifestError& e) {
    failure = e.message;
  }
  if (!failure.empty()) {
    ::testing::RegisterTest(suite.c_str(), "Loads", nullptr, nullptr, where.c_str(), 0,
                            [failure]() -> Fixture* { return new LoadFailure(failure); });
    return;
  }
  for (TestPoint& point : points) {
    const std::string name = TestName(point.name);
    ::testing::RegisterTest(suite.c_str(), name.c_str(), nullptr, point.name.c_str(), where.c_str(), 0,
                            [point]() -> Fixture* { return new PointTest(point); });
  }
}

}  // namespace
}  // namespace csbench

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  std::vector<std::filesystem::path> files;
  for (int i = 1; i < argc; ++i) files.emplace_back(argv[i]);
  if (files.empty()) {
    std::error_code error;
    const std::filesystem::path dir = csbench::ExamplesDirectory();
    for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
      if (entry.path().extension() == ".toml") files.push_back(entry.path());
    }
    if (error || files.empty()) {
      std::fprintf(stderr, "manifest_examples_test: no manifest in %s%s%s\n", dir.string().c_str(),
                   error ? ": " : "", error ? error.message().c_str() : "");
      return 1;
    }
    std::sort(files.begin(), files.end());
  }
  for (const auto& file : files) csbench::RegisterExample(file);
  return RUN_ALL_TESTS();
}
