// Every variant x workgroup of every manifest in examples/ on its test domains, checked as a
// benchmark is (against the reference variant and its [check] expressions) on the Vulkan device
// (lavapipe without a GPU) with the validation layer on: the examples a user copies must pass
// wherever csbench runs. The points come from the descriptor each manifest builds, by the same
// TestPoints path as the built-in families'.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cctype>
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

std::vector<TestPoint> ExamplePoints() {
  std::vector<std::filesystem::path> files;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(ExamplesDirectory(), error)) {
    if (entry.path().extension() == ".toml") files.push_back(entry.path());
  }
  if (error) ADD_FAILURE() << "cannot list " << ExamplesDirectory() << ": " << error.message();
  std::sort(files.begin(), files.end());
  std::vector<TestPoint> points;
  for (const auto& file : files) {
    // A manifest that does not load fails here, before any test runs, with its one-line message.
    const manifest::Loaded* loaded = nullptr;
    try {
      loaded = &manifest::Adopt(LoadManifest(file));
    } catch (const ManifestError& e) {
      ADD_FAILURE() << e.message;
      continue;
    }
    for (TestPoint& p : TestPoints(loaded->family)) points.push_back(std::move(p));
  }
  return points;
}

class ExampleManifest : public ::testing::TestWithParam<TestPoint> {};

TEST_P(ExampleManifest, PassesItsCheck) { testing::CheckPoint(GetParam()); }

TEST(ExampleManifests, AreFourAndEachHasPoints) {
  // saxpy, blur, tile_sum, stream: a folder that lost one (or a loader that reads none) fails.
  EXPECT_GE(ExamplePoints().size(), 4u * 2u);
}

INSTANTIATE_TEST_SUITE_P(Points, ExampleManifest, ::testing::ValuesIn(ExamplePoints()), testing::PointTestName);

}  // namespace
}  // namespace csbench
