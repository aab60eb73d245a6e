// One Vulkan context for a test binary, on the machine's default device (lavapipe without a GPU),
// with the validation layer on when CSBENCH_VALIDATION=1 (ctest sets it).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "harness/family/family.hpp"
#include "harness/family/suite.hpp"
#include "harness/vulkan/context.hpp"

namespace csbench::testing {

// The shared context; the test is skipped with the reason when there is no Vulkan device.
Context* SharedContext();

// A suite on the shared context (warm cache) for the families' cases; null without a device.
Suite* SharedSuite();

// Fails the current test when the validation layer reported anything since the last call.
void ExpectNoNewValidationMessages();

// The test of one point of a family, built-in or a manifest's: its case made on the shared suite
// (skipped with the reason where the device cannot run it, or there is no device), checked as a
// benchmark is checked before it is timed, and no new validation message.
void CheckPoint(const TestPoint& point);

// A point's benchmark name as a GoogleTest name (every character not a letter or digit an '_').
std::string PointTestName(const ::testing::TestParamInfo<TestPoint>& info);

}  // namespace csbench::testing
