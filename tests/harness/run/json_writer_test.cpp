#include "harness/run/json_writer.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "harness/base/error.hpp"

namespace csbench {
namespace {

TEST(JsonWriter, AStoppedRunSaysWhyInItsContext) {
  JsonWriter running;
  running.AddRunMembers(true);
  EXPECT_FALSE(nlohmann::json::parse(running.Text())["context"].contains("stopped"));

  StopRun("the device was lost (a test's stand-in)");
  JsonWriter stopped;
  stopped.AddRunMembers(true);
  const std::string text = stopped.Text();
  ResumeRunForTest();
  const nlohmann::json document = nlohmann::json::parse(text);
  EXPECT_EQ(document["context"]["stopped"], "the device was lost (a test's stand-in)");
  EXPECT_FALSE(document["context"].contains("interrupted"));
  EXPECT_TRUE(document["benchmarks"].is_array());
}

}  // namespace
}  // namespace csbench
