#include "tests/bench/vulkan_environment.hpp"

#include <gtest/gtest.h>

#include <cctype>
#include <memory>
#include <string>
#include <string_view>

namespace csbench::testing {
namespace {

struct Shared {
  std::unique_ptr<Context> context;
  std::unique_ptr<Suite> suite;
  std::string failure;
  uint32_t seen_messages = 0;
};

Shared& Get() {
  static Shared* shared = [] {
    auto* s = new Shared;
    Options options;
    std::vector<std::string> args{"test"};
    options = ParseOptions(args);  // picks up CSBENCH_VALIDATION
    options.cache = CacheMode::kWarm;  // no rotation copies: the tests check values, not speed
    try {
      s->context = std::make_unique<Context>(options);
      s->suite = std::make_unique<Suite>();
      s->suite->context = s->context.get();
      s->suite->options = options;
    } catch (const std::exception& e) {
      s->failure = e.what();
    }
    return s;
  }();
  return *shared;
}

}  // namespace

Context* SharedContext() { return Get().context.get(); }

Suite* SharedSuite() { return Get().suite.get(); }

void ExpectNoNewValidationMessages() {
  uint32_t now = ValidationMessages();
  EXPECT_EQ(now, Get().seen_messages) << "the validation layer reported messages (printed above)";
  Get().seen_messages = now;
}

void CheckPoint(const TestPoint& point) {
  Suite* suite = SharedSuite();
  if (suite == nullptr) GTEST_SKIP() << "no Vulkan device";
  std::unique_ptr<Case> gpu;
  try {
    gpu = point.make(*suite);
  } catch (const std::exception& e) {
    if (std::string_view(e.what()).starts_with("unsupported:")) GTEST_SKIP() << e.what();
    FAIL() << e.what();
  }
  const Comparison check = gpu->Check();
  EXPECT_TRUE(check.passed) << check.message;
  ExpectNoNewValidationMessages();
}

std::string PointTestName(const ::testing::TestParamInfo<TestPoint>& info) {
  std::string name = info.param.name;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

}  // namespace csbench::testing
