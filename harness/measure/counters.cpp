// A benchmark's counters beside its time: roofline% against the memory ceiling and bound% against
// the bound of its work on this device.
#include "harness/measure/measure.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <deque>
#include <future>
#include <limits>
#include <map>

#include "harness/base/error.hpp"
#include "harness/base/statistics.hpp"
#include "harness/measure/record.hpp"
#include "harness/measure/roofline.hpp"
#include "harness/measure/run_notes.hpp"
#include "harness/vulkan/clock_probe.hpp"
#include "harness/vulkan/commands.hpp"
#include "harness/vulkan/context.hpp"
#include "harness/vulkan/limits.hpp"
#include "harness/vulkan/timing.hpp"

namespace csbench {

void SetRooflinePercent(benchmark::State& state, Work work, double roofline_gbs) {
  if (roofline_gbs <= 0) return;
  double iterations = static_cast<double>(state.iterations());
  state.counters["roofline%"] =
      benchmark::Counter(work.bytes * iterations * 1e-9 / roofline_gbs * 100, benchmark::Counter::kIsRate);
}

void SetRooflinePercent(benchmark::State& state, Work work, Context& context) {
  if (!work.roofline) return;
  SetRooflinePercent(state, work, MemoryCeilingGBs(context, work.read_only));
}

void SetBoundPercent(benchmark::State& state, Work work, Context& context) {
  if (work.ops <= 0) return;
  const double bytes = work.bound_bytes >= 0 ? work.bound_bytes : work.bytes;
  const double peak = MeasuredPeak(context, work.peak);
  const double one_dispatch = MeasuredDispatchSeconds(context);
  // The DRAM ceilings are measured one dispatch (or copy command) at a time, each moving twice the
  // ceiling's copy bytes: net of one dispatch's cost, since the bound adds the kernel's own.
  const double ceiling_bytes = 2.0 * static_cast<double>(CeilingCopyBytes(context));
  const double measured_gbs = MemoryCeilingGBs(context, work.read_only);
  if (measured_gbs <= 0 || peak <= 0) return;
  double memory_gbs = ceiling_bytes / std::max(ceiling_bytes / (measured_gbs * 1e9) - one_dispatch, 1e-9) * 1e-9;
  std::string memory_ceiling = work.read_only ? "read" : "copy";
  if (work.footprint > 0) {
    const double resident = MeasuredResidentCopy(context, work.footprint, one_dispatch);
    if (resident > memory_gbs) {
      memory_gbs = resident;
      memory_ceiling = ResidentCopyName(work.footprint);
    }
  }
  const double memory_seconds = bytes / (memory_gbs * 1e9);
  const double compute_seconds = work.ops / peak;
  const double dispatch_seconds = work.dispatches > 0 ? work.dispatches * one_dispatch : 0;
  const double bound_seconds = dispatch_seconds + std::max(memory_seconds, compute_seconds);
  const double iterations = static_cast<double>(state.iterations());
  // A rate: the bound's seconds for every iteration over the loop's seconds.
  state.counters["bound%"] = benchmark::Counter(bound_seconds * iterations * 100, benchmark::Counter::kIsRate);
  if (Record* record = CurrentRecord()) {
    record->NoteIntensity({.ops_per_element = work.ops / work.elements,
                           .unit = std::string(PeakUnit(work.peak)),
                           .bytes_per_element = bytes / work.elements,
                           .memory_ceiling = memory_ceiling,
                           .compute_ceiling = std::string(PeakName(work.peak)),
                           .binds = compute_seconds > memory_seconds ? "compute" : "memory",
                           .dispatch_share = dispatch_seconds / bound_seconds,
                           .lower_bound = work.ops_lower_bound});
  }
}

}  // namespace csbench
