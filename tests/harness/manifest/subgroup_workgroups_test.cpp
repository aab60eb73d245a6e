// Workgroups of SUBGROUP_SIZE: a variant's own, lists with a height, numbers among them, and with
// subgroup_sizes each size's own workgroups.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "harness/manifest/manifest.hpp"

namespace csbench {
namespace {

constexpr std::string_view kRows = R"toml([family]
name = "rows"
domains = ["64x16"]
workgroups = [["SUBGROUP_SIZE", "4"], "16x4"]
bytes = "4 * W * H"

[[buffer]]
name = "o"
binding = 0
type = "uint"
count = "W * H"
output = true

[dispatch]
groups = ["ceil(W / WG_X)", "ceil(H / WG_Y)", "1"]

[[variant]]
name = "family"
source = "k.comp"

[[variant]]
name = "own"
source = "k.comp"
workgroups = ["4 * SUBGROUP_SIZE", ["2 * SUBGROUP_SIZE", 2, "1"]]

[[variant]]
name = "sized"
source = "k.comp"
workgroups = [["SUBGROUP_SIZE", "4"]]
subgroup_sizes = [16, 64]

[check]
o = "i"
)toml";

TEST(SubgroupWorkgroups, AVariantsOwnAndListsWithAHeight) {
  const Manifest m = ParseManifest(kRows, "dir/m.toml");
  ASSERT_EQ(m.variants.size(), 3u);
  // At the load's default of 32.
  EXPECT_EQ(m.variants[0].workgroups, (std::vector<Extent>{{32, 4}, {16, 4}}));
  EXPECT_EQ(m.variants[1].workgroups, (std::vector<Extent>{{128, 1}, {64, 2}}));
  EXPECT_TRUE(m.variants[0].uses_subgroup_size);
  // On a device of 8-wide subgroups.
  EXPECT_EQ(VariantWorkgroupsOn(m.variants[0], 8), (std::vector<Extent>{{8, 4}, {16, 4}}));
  EXPECT_EQ(VariantWorkgroupsOn(m.variants[1], 8), (std::vector<Extent>{{32, 1}, {16, 2}}));
  EXPECT_EQ(WorkgroupsOn(m, 64), (std::vector<Extent>{{64, 4}, {16, 4}}));
  // Duplicates at a size are run once: 16x4 twice at 16.
  EXPECT_EQ(VariantWorkgroupsOn(m.variants[0], 16), (std::vector<Extent>{{16, 4}}));
}

TEST(SubgroupWorkgroups, EachListedSubgroupSizeRunsItsOwn) {
  const Manifest m = ParseManifest(kRows, "dir/m.toml");
  const ManifestVariant& sized = m.variants[2];
  // Every size's workgroups, whatever the device's.
  EXPECT_EQ(sized.workgroups, (std::vector<Extent>{{16, 4}, {64, 4}}));
  EXPECT_EQ(VariantWorkgroupsOn(sized, 32), sized.workgroups);
  EXPECT_TRUE(WorkgroupFitsSize(sized, {16, 4}, 16));
  EXPECT_FALSE(WorkgroupFitsSize(sized, {16, 4}, 64));
  EXPECT_TRUE(WorkgroupFitsSize(sized, {64, 4}, 64));
  EXPECT_FALSE(WorkgroupFitsSize(sized, {64, 4}, 16));
  // A variant without subgroup_sizes fits any.
  EXPECT_TRUE(WorkgroupFitsSize(m.variants[0], {32, 4}, 16));
}

}  // namespace
}  // namespace csbench
