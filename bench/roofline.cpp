// The roofline family: device-to-device copies well beyond the last-level cache, by the copy
// command and by a plain copy kernel. Their best GB/s is what `roofline%` of every other
// benchmark is measured against.
#include <benchmark/benchmark.h>

#include <cstring>
#include <vector>

#include "harness/commands.hpp"
#include "harness/context.hpp"
#include "harness/error.hpp"
#include "harness/measure.hpp"
#include "harness/naming.hpp"
#include "harness/roofline.hpp"
#include "harness/suite.hpp"

namespace csbench::roofline {
namespace {

// Domains count vec4 elements (16 bytes): 256 MiB and 512 MiB.
const std::vector<Extent> kDomains = {{4096, 4096}, {4096, 8192}};
const std::vector<uint32_t> kWorkgroups = {64, 256, 1024};

void Run(benchmark::State& state, Context& context, Extent domain, uint32_t workgroup, const std::string& name) {
  RunGuarded(state, [&] {
    const uint64_t bytes = uint64_t{domain.x} * domain.y * 16;
    Copier copier(context, bytes, workgroup);
    Require(copier.Check(), "the copy's destination differs from its source");
    const double elements = static_cast<double>(domain.x) * domain.y;
    MeasureDispatches(
        state, context, name, [&](Commands& c, uint32_t) { copier.Record(c); }, 1,
        {.elements = elements, .bytes = static_cast<double>(bytes) * 2});
  });
}

}  // namespace

void Register(Suite& suite) {
  if (suite.context == nullptr) return;  // a CPU memcpy says nothing about a GPU's roofline
  Context& context = *suite.context;
  for (Extent domain : kDomains) {
    std::string domain_name = Sized("domain", domain);
    std::string command = Name({"roofline", "copy_command", domain_name});
    benchmark::RegisterBenchmark(command.c_str(),
                                 [&context, domain, command](benchmark::State& s) { Run(s, context, domain, 0, command); })
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
    for (uint32_t wg : kWorkgroups) {
      std::string kernel = Name({"roofline", "copy_kernel", Sized("wg", {wg, 1}), domain_name});
      benchmark::RegisterBenchmark(kernel.c_str(), [&context, domain, wg, kernel](benchmark::State& s) {
        Run(s, context, domain, wg, kernel);
      })
          ->UseManualTime()
          ->Unit(benchmark::kMicrosecond);
    }
  }
}

}  // namespace csbench::roofline
