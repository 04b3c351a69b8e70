#pragma once
/// @file
/// A sequence that grows a block at a time and never moves what it holds.

#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace polynav {

/// An append-only sequence of trivially copyable T in blocks of 2^Shift elements, cleared
/// without freeing its blocks.
///
/// Why not std::vector: a search's node pool grows to the largest query's node count and is
/// reused by every query after. A vector doubles: it holds up to twice the nodes ever needed,
/// and while it grows the old and the new arrays are both alive, so the process's peak memory
/// is up to three times the nodes' (Polyanya on the aurora mesh: 10.2 MB for 4.3 MB of nodes).
/// Blocks waste at most one block's tail, copy nothing when they grow, and are written only as
/// far as elements are added. Elements never move, so references to them stay valid.
template <class T, unsigned Shift = 9>
class BlockVector {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "elements are placed in raw blocks and never destroyed");
  static constexpr std::size_t block_size = std::size_t(1) << Shift;
  static constexpr std::size_t mask = block_size - 1;

 public:
  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  T& operator[](std::size_t i) noexcept { return blocks_[i >> Shift][i & mask]; }
  const T& operator[](std::size_t i) const noexcept { return blocks_[i >> Shift][i & mask]; }

  void push_back(const T& value) {
    if (size_ == blocks_.size() * block_size) [[unlikely]]
      add_block();
    std::construct_at(&(*this)[size_], value);
    ++size_;
  }
  /// Forgets every element, keeping the blocks for the next use.
  void clear() noexcept { size_ = 0; }

 private:
  struct Free {
    void operator()(T* p) const noexcept { ::operator delete(p); }
  };
  [[gnu::noinline]] void add_block() {
    std::unique_ptr<T[], Free> block(static_cast<T*>(::operator new(sizeof(T) * block_size)));
    blocks_.push_back(std::move(block));
  }

  std::vector<std::unique_ptr<T[], Free>> blocks_;
  std::size_t size_ = 0;
};

}  // namespace polynav
