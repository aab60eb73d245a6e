// What a run records of what changed what it measured: the environment's overrides of the
// kernels, and the hash its manifests are named with.
#include "harness/base/provenance.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace csbench {
namespace {

TEST(Provenance, Sha256OfTheStandardsExamples) {
  // FIPS 180-4's examples: one block, an empty message, and a message whose padding needs a
  // second block.
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(Sha256Hex(std::string(1000, 'a')), "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3");
}

TEST(Provenance, EveryKernelOverrideSetIsRecorded) {
  for (std::string_view name : kKernelOverrides) unsetenv(std::string(name).c_str());
  EXPECT_TRUE(RunProvenance().overrides.empty());
  setenv("CSBENCH_EXTRA_DEFINES", "SLOWDOWN=800", 1);
  setenv("CSBENCH_KERNEL_DIR", "", 1);  // empty: not an override
  const Provenance p = RunProvenance();
  ASSERT_EQ(p.overrides.size(), 1u);
  EXPECT_EQ(p.overrides[0].first, "CSBENCH_EXTRA_DEFINES");
  EXPECT_EQ(p.overrides[0].second, "SLOWDOWN=800");
  unsetenv("CSBENCH_EXTRA_DEFINES");
  unsetenv("CSBENCH_KERNEL_DIR");
}

}  // namespace
}  // namespace csbench
