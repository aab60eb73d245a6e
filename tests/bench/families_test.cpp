// Every declared family's GPU variants x workgroups (x its extra axis) on the family's test
// domains, each checked against its reference on the Vulkan device (lavapipe without a GPU) with
// the validation layer on (ctest sets CSBENCH_VALIDATION=1). The points come from the families'
// descriptors: a new family is tested here with no line of its own. A point the device cannot
// run ("unsupported: ...", a missing feature or limit) is skipped with the reason.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "harness/family.hpp"
#include "tests/bench/vulkan_environment.hpp"

namespace csbench {
namespace {

std::vector<TestPoint> AllPoints() {
  std::vector<TestPoint> points;
  for (const Declared& family : Declarations()) {
    if (!family.test_points) continue;
    for (TestPoint& point : family.test_points()) points.push_back(std::move(point));
  }
  return points;
}

class DeclaredFamily : public ::testing::TestWithParam<TestPoint> {};

TEST_P(DeclaredFamily, MatchesTheReference) {
  Suite* suite = testing::SharedSuite();
  if (suite == nullptr) GTEST_SKIP() << "no Vulkan device";
  std::unique_ptr<Case> gpu;
  try {
    gpu = GetParam().make(*suite);
  } catch (const std::exception& e) {
    if (std::string_view(e.what()).starts_with("unsupported:")) GTEST_SKIP() << e.what();
    FAIL() << e.what();
  }
  const Comparison check = gpu->Check();
  EXPECT_TRUE(check.passed) << check.message;
  testing::ExpectNoNewValidationMessages();
}

INSTANTIATE_TEST_SUITE_P(Points, DeclaredFamily, ::testing::ValuesIn(AllPoints()),
                         [](const ::testing::TestParamInfo<TestPoint>& info) {
                           std::string name = info.param.name;
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace csbench
