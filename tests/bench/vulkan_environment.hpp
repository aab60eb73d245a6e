// One Vulkan context for a test binary, on the machine's default device (lavapipe without a GPU),
// with the validation layer on when CSBENCH_VALIDATION=1 (ctest sets it).
#pragma once

#include "harness/context.hpp"
#include "harness/suite.hpp"

namespace csbench::testing {

// The shared context; the test is skipped with the reason when there is no Vulkan device.
Context* SharedContext();

// A suite on the shared context (warm cache) for the families' cases; null without a device.
Suite* SharedSuite();

// Fails the current test when the validation layer reported anything since the last call.
void ExpectNoNewValidationMessages();

}  // namespace csbench::testing
