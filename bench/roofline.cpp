// The roofline family: device-to-device copies well beyond the last-level cache, by the copy
// command and by a plain copy kernel, and reads by a read kernel. The best copy is what
// `roofline%` of every kernel that reads and writes is measured against; the best read, that of
// every kernel that only reads.
#include <benchmark/benchmark.h>

#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "harness/commands.hpp"
#include "harness/context.hpp"
#include "harness/error.hpp"
#include "harness/family.hpp"
#include "harness/measure.hpp"
#include "harness/naming.hpp"
#include "harness/roofline.hpp"
#include "harness/suite.hpp"

namespace csbench::roofline {
namespace {

// Domains count vec4 elements (16 bytes): 256 MiB and 512 MiB.
const std::vector<Extent> kDomains = {{4096, 4096}, {4096, 8192}};
const std::vector<uint32_t> kWorkgroups = {64, 256, 1024};

// One copy benchmark: the copier of `domain` vec4 elements, by the copy command (workgroup 0) or
// the kernel.
class CopyCase {
 public:
  CopyCase(Context& context, Extent domain, uint32_t workgroup, Access access, std::string name)
      : context_(&context),
        name_(std::move(name)),
        elements_(static_cast<double>(domain.x) * domain.y),
        copier_(context, uint64_t{domain.x} * domain.y * 16, workgroup, access),
        read_only_(access == Access::kRead) {}

  Comparison Check() {
    Comparison c;
    c.passed = copier_.Check();
    if (!c.passed) c.message = read_only_ ? "a workgroup's XOR of what it read differs from the CPU's"
                                          : "the copy's destination differs from its source";
    return c;
  }

  void Measure(benchmark::State& state) {
    MeasureDispatches(
        state, *context_, name_, [&](Commands& c, uint32_t) { copier_.Record(c); }, 1,
        {.elements = elements_, .bytes = static_cast<double>(copier_.traffic()), .read_only = read_only_});
  }

 private:
  Context* context_;
  std::string name_;
  double elements_;
  Copier copier_;
  bool read_only_;
};

void RegisterCopy(Suite& suite, Extent domain, uint32_t workgroup, Access access, const std::string& name) {
  Context& context = *suite.context;
  std::vector<Coordinate> axes;
  if (workgroup != 0) axes.push_back({"workgroup", Sized("", {workgroup, 1})});
  axes.push_back({"domain", Sized("", domain)});
  Describe(name, {.family = "roofline",
                  .variant = name.substr(9, name.find('/', 9) - 9),
                  .clock = DeviceTimedClock(suite),
                  .axes = std::move(axes)});
  RegisterGpuCase(name, [&context, domain, workgroup, access, name] {
    return std::make_unique<CopyCase>(context, domain, workgroup, access, name);
  });
}

}  // namespace

void Register(Suite& suite) {
  if (suite.context == nullptr) return;  // a CPU memcpy says nothing about a GPU's roofline
  for (Extent domain : kDomains) {
    std::string domain_name = Sized("domain", domain);
    RegisterCopy(suite, domain, 0, Access::kCopy, Name({"roofline", "copy_command", domain_name}));
    for (uint32_t wg : kWorkgroups) {
      RegisterCopy(suite, domain, wg, Access::kCopy,
                   Name({"roofline", "copy_kernel", Sized("wg", {wg, 1}), domain_name}));
    }
    for (uint32_t wg : kWorkgroups) {
      RegisterCopy(suite, domain, wg, Access::kRead,
                   Name({"roofline", "read_kernel", Sized("wg", {wg, 1}), domain_name}));
    }
  }
}

}  // namespace csbench::roofline
