// Every packing variant on small odd-sized images against the plain loop (on the fp16-rounded
// image for the fp16 variants), on the Vulkan device with validation on; a device without fp16
// support must refuse the fp16 variants with a reason.
#include "bench/packing.hpp"

#include <gtest/gtest.h>

#include "harness/context.hpp"
#include "harness/error.hpp"
#include "tests/bench/vulkan_environment.hpp"

namespace csbench::packing {
namespace {

struct Case {
  const Variant* variant;
  Extent3 domain;
};

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (Extent3 domain : {Extent3{67, 45}, Extent3{13, 7}}) {
    for (const Variant& v : Variants()) cases.push_back({&v, domain});
  }
  return cases;
}

class PackingVariant : public ::testing::TestWithParam<Case> {};

TEST_P(PackingVariant, MatchesTheReferenceOrIsRefused) {
  Context* context = testing::SharedContext();
  if (context == nullptr) GTEST_SKIP() << "no Vulkan device";
  const Case& c = GetParam();
  static neighborhood::Inputs inputs(&ThisFamily());
  const DeviceInfo& info = context->info();
  if (c.variant->needs_float16 && !(info.shader_float16 && info.storage_buffer_16bit)) {
    EXPECT_THROW(neighborhood::GpuCase(*context, *c.variant, c.variant->workgroups[0], c.domain, inputs), Error);
    GTEST_SKIP() << info.name << " has no fp16 storage or arithmetic";
  }
  neighborhood::GpuCase gpu(*context, *c.variant, c.variant->workgroups[0], c.domain, inputs);
  Comparison check = gpu.Check();
  EXPECT_TRUE(check.passed) << check.message;
  testing::ExpectNoNewValidationMessages();
}

INSTANTIATE_TEST_SUITE_P(AllVariants, PackingVariant, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return info.param.variant->name + "_" + neighborhood::Sized3("domain", info.param.domain);
                         });

TEST(PackingCheck, Fp16IsNotExact) {
  // The fp16 result must differ from fp32's by more than fp32 rounding, or the variant would not
  // be computing in fp16: checked against the fp32 reference with fp32's tolerance, it fails.
  Context* context = testing::SharedContext();
  if (context == nullptr) GTEST_SKIP() << "no Vulkan device";
  if (!context->info().shader_float16 || !context->info().storage_buffer_16bit) GTEST_SKIP() << "no fp16";
  Variant strict = Variants().at(2);
  strict.tolerance = 1e-5;
  static neighborhood::Inputs inputs(&ThisFamily());
  neighborhood::GpuCase gpu(*context, strict, strict.workgroups[0], {67, 45, 1}, inputs);
  Comparison check = gpu.Check();
  EXPECT_FALSE(check.passed);
  EXPECT_LT(check.max_relative_error, Variants().at(2).tolerance);
  testing::ExpectNoNewValidationMessages();
}

}  // namespace
}  // namespace csbench::packing
