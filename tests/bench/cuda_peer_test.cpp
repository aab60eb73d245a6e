// The fused CUDA peer against its twin in the Gray-Scott variant table, with no GPU: built where
// a CUDA toolkit builds the peers, so that a change of the twin's row that the peer's kernel does
// not follow fails here (and in CI) instead of in a user's run.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "bench/cuda/peer.hpp"
#include "bench/cuda_peer.hpp"
#include "bench/grayscott.hpp"

namespace csbench::cuda_peer {
namespace {

std::vector<grayscott::Variant> Table() { return grayscott::Descriptor().variants; }

grayscott::Variant& Twin(std::vector<grayscott::Variant>& table) {
  const auto twin = std::ranges::find(table, kTwin, &grayscott::Variant::name);
  if (twin == table.end()) throw std::runtime_error("the table has no " + std::string(kTwin));
  return *twin;
}

TEST(CudaPeer, MatchesItsTwinInTheVariantTable) {
  const std::optional<std::string> mismatch = TwinMismatch(Table());
  EXPECT_FALSE(mismatch.has_value()) << *mismatch;
}

// The twin's row may list more workgroups than the peer's block (the shuffle-space search added
// three): the peer is compared with the twin at its own block.
TEST(CudaPeer, TakesATwinWithFurtherWorkgroups) {
  std::vector<grayscott::Variant> table = Table();
  Twin(table).workgroups = {{32, 4}, {kFusedShape.block_x, kFusedShape.block_y}, {32, 16}};
  EXPECT_FALSE(TwinMismatch(table).has_value());
}

TEST(CudaPeer, NamesEachWayItsTwinCanDepart) {
  const Extent block{kFusedShape.block_x, kFusedShape.block_y};
  std::vector<std::vector<grayscott::Variant>> departed(4, Table());
  Twin(departed[0]).workgroups = {{32, 4}, {32, 16}};  // the peer's block gone
  Twin(departed[1]).steps = kFusedShape.steps + 2;
  Twin(departed[2]).cells = {kFusedShape.cell_columns, kFusedShape.cell_rows + 4};
  std::erase_if(departed[3], [](const grayscott::Variant& v) { return v.name == kTwin; });
  for (size_t i = 0; i < departed.size(); ++i) {
    const std::optional<std::string> mismatch = TwinMismatch(departed[i]);
    ASSERT_TRUE(mismatch.has_value()) << "departure " << i;
    EXPECT_NE(mismatch->find("which the Gray-Scott variant table no longer has"), std::string::npos) << *mismatch;
    EXPECT_NE(mismatch->find(std::to_string(block.x) + "x" + std::to_string(block.y)), std::string::npos)
        << *mismatch;
  }
}

}  // namespace
}  // namespace csbench::cuda_peer
