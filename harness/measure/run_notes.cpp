#include "harness/measure/run_notes.hpp"

#include <atomic>

namespace csbench {
namespace {

std::atomic<bool> g_keep_samples = false;

}  // namespace

void KeepSamples(bool keep) { g_keep_samples = keep; }
bool KeepingSamples() { return g_keep_samples; }

}  // namespace csbench
