// Device limits a benchmark must fit, checked before anything is made.
#pragma once

#include <cstdint>

#include "harness/base/naming.hpp"

namespace csbench {

class Context;

// Device limits a point must fit, checked before anything is made: each throws Unsupported
// (error.hpp) naming the limit, so that the benchmark is skipped, not failed.
void RequireWorkgroup(const Context& context, Extent workgroup);
// A buffer of `bytes` bound whole to a kernel: maxStorageBufferRange, and RequireMemory.
void RequireStorage(const Context& context, uint64_t bytes);
// A buffer of `bytes`: maxMemoryAllocationSize and the device's memory.
void RequireMemory(const Context& context, uint64_t bytes);

}  // namespace csbench
