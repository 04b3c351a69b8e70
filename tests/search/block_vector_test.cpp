// BlockVector (kernel/block_vector.hpp) against std::vector as the model: the same elements by
// index across block boundaries, elements that stay where they are while it grows, and blocks
// reused after clear().

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "polynav/kernel/block_vector.hpp"

namespace polynav {
namespace {

struct Record {
  double value;
  std::uint32_t id;
};

TEST(BlockVector, HoldsWhatAVectorHoldsAcrossBlocks) {
  BlockVector<Record, 3> blocks;  // 8 elements a block: many boundaries
  std::vector<Record> model;
  std::mt19937 random(5);
  for (int round = 0; round < 3; ++round) {
    const std::size_t n = 1 + random() % 200;
    for (std::size_t i = 0; i < n; ++i) {
      const Record r{double(random()) / 7.0, std::uint32_t(random())};
      blocks.push_back(r);
      model.push_back(r);
    }
    ASSERT_EQ(blocks.size(), model.size());
    for (std::size_t i = 0; i < model.size(); ++i) {
      EXPECT_EQ(blocks[i].value, model[i].value) << i;
      EXPECT_EQ(blocks[i].id, model[i].id) << i;
    }
    blocks.clear();
    model.clear();
    EXPECT_TRUE(blocks.empty());
  }
}

TEST(BlockVector, ElementsStayInPlaceWhileItGrows) {
  BlockVector<Record, 2> blocks;
  blocks.push_back({1.0, 1});
  const Record* first = &blocks[0];
  for (std::uint32_t i = 0; i < 100; ++i) blocks.push_back({double(i), i});
  EXPECT_EQ(first, &blocks[0]);
  EXPECT_EQ(first->id, 1u);
  EXPECT_EQ(blocks[100].id, 99u);
}

TEST(BlockVector, ClearKeepsTheBlocksForTheNextUse) {
  BlockVector<Record, 2> blocks;
  for (std::uint32_t i = 0; i < 10; ++i) blocks.push_back({0.0, i});
  const Record* fifth = &blocks[5];
  blocks.clear();
  for (std::uint32_t i = 0; i < 10; ++i) blocks.push_back({1.0, 100 + i});
  EXPECT_EQ(fifth, &blocks[5]);
  EXPECT_EQ(blocks[5].id, 105u);
}

}  // namespace
}  // namespace polynav
