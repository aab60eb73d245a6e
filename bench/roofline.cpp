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

#include "harness/base/error.hpp"
#include "harness/base/naming.hpp"
#include "harness/family/family.hpp"
#include "harness/family/suite.hpp"
#include "harness/measure/measure.hpp"
#include "harness/measure/roofline.hpp"
#include "harness/vulkan/commands.hpp"
#include "harness/vulkan/context.hpp"

namespace csbench::roofline {
namespace {

struct Variant {
  std::string name;
  // Empty: the copy command, which has no workgroup.
  std::vector<Extent> workgroups;
  Access access = Access::kCopy;
  std::vector<Pick> cpu_default;  // harness/family/family.hpp
};

// One copy benchmark: the copier of `domain` vec4 elements, by the copy command (a variant
// without workgroups) or the kernel.
class CopyCase : public Case {
 public:
  CopyCase(Suite& suite, const Variant& variant, const Point& point)
      : context_(suite.context),
        name_(point.name),
        elements_(point.domain.Count()),
        copier_(*suite.context, uint64_t{point.domain.x} * point.domain.y * 16,
                variant.workgroups.empty() ? 0 : point.workgroup.x, variant.access),
        read_only_(variant.access == Access::kRead) {}

  Comparison Check() override {
    Comparison c;
    c.passed = copier_.Check();
    if (!c.passed) c.message = read_only_ ? "a workgroup's XOR of what it read differs from the CPU's"
                                          : "the copy's destination differs from its source";
    return c;
  }

  void Measure(benchmark::State& state) override {
    MeasureDispatches(state, *context_, [&](Commands& c, uint32_t) { copier_.Record(c); }, 1,
        {.elements = elements_, .bytes = static_cast<double>(copier_.traffic()), .read_only = read_only_});
  }

 private:
  Context* context_;
  std::string name_;
  double elements_;
  Copier copier_;
  bool read_only_;
};

const Family<Variant>& Descriptor() {
  // Domains count vec4 elements (16 bytes): 256 MiB and 512 MiB. No --domain or --workgroup: the
  // ceilings are measured beyond the caches, at the sizes every device's baseline has. No plain
  // loop: a CPU memcpy says nothing about a GPU's roofline.
  static const std::vector<Extent> kWorkgroups = {{64, 1}, {256, 1}, {1024, 1}};
  static const Family<Variant> family{
      .name = "roofline",
      // A CPU device's default set: the kernels every roofline% of its run is measured against.
      .variants = {{.name = "copy_command"},
                   {.name = "copy_kernel",
                    .workgroups = kWorkgroups,
                    .cpu_default = {{.workgroups = {{256, 1}}, .domains = {{4096, 4096}}}}},
                   {.name = "read_kernel",
                    .workgroups = kWorkgroups,
                    .access = Access::kRead,
                    .cpu_default = {{.workgroups = {{256, 1}}, .domains = {{4096, 4096}}}}}},
      .domains = {{4096, 4096}, {4096, 8192}},
      // A partial last workgroup and block of loads; a copy smaller than one workgroup.
      .test_domains = {{333, 187}, {7, 3}},
      .one_dimensional = false,
      .takes_overrides = false,
      .make = MakeCase<CopyCase>};
  return family;
}

const Declaration kDeclared = Declare("roofline", &Descriptor);

}  // namespace
}  // namespace csbench::roofline
