#pragma once
/// @file
/// An indexed d-ary min-heap over node ids with a real decrease-key.

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <span>
#include <utility>
#include <vector>

#include "polynav/search/graph.hpp"

namespace polynav::search {

/// A min-heap of (key, NodeId) entries in which every id appears at most once, with a position
/// array indexed by id so that `decrease` finds its entry in O(1) and moves it up in
/// O(log_Arity n). Ties are left to `Less`: A* passes a comparison on (f, -g).
///
/// Why d-ary: with Arity = 4 the children of an entry are adjacent in memory and the tree is
/// half as deep as a binary heap, so push and decrease (frequent in A*) get cheaper while pop
/// compares a few more keys per level; in practice 4 is the sweet spot for search workloads.
/// Entries move by "hole" shifting (one write per level), not by swaps.
///
/// Memory: one 32-bit position per id ever seen (grown by `reserve_ids`, never shrunk), plus a
/// key and an id per entry in the heap. `clear()` is O(size), so a heap can be reused across
/// queries without touching the whole position array.
template <class Key, class Less = std::less<Key>, std::size_t Arity = 4>
class DAryHeap {
  static_assert(Arity >= 2, "a heap needs at least two children per entry");

 public:
  DAryHeap() = default;
  explicit DAryHeap(Less less) : less_(std::move(less)) {}

  /// Makes ids 0 .. n - 1 usable. Amortised O(1) per new id; never shrinks.
  void reserve_ids(std::size_t n) {
    if (position_.size() < n) position_.resize(n, npos);
  }
  /// Ids below this can be pushed.
  std::size_t id_capacity() const noexcept { return position_.size(); }
  /// Reserves room for n entries.
  void reserve(std::size_t n) {
    keys_.reserve(n);
    ids_.reserve(n);
  }

  bool empty() const noexcept { return ids_.empty(); }
  std::size_t size() const noexcept { return ids_.size(); }
  /// Whether id is in the heap.
  bool contains(NodeId id) const noexcept { return id < position_.size() && position_[id] != npos; }
  /// The key of id. @pre contains(id)
  const Key& key(NodeId id) const noexcept { return keys_[position_[id]]; }
  /// The id with the smallest key. @pre !empty()
  NodeId top() const noexcept { return ids_.front(); }
  /// The smallest key. @pre !empty()
  const Key& top_key() const noexcept { return keys_.front(); }
  /// The keys in heap order: the children of entry i are entries Arity·i + 1 .. Arity·i + Arity.
  std::span<const Key> keys() const noexcept { return keys_; }
  /// The ids in heap order.
  std::span<const NodeId> ids() const noexcept { return ids_; }

  /// Inserts id with key. O(log n). @pre id < id_capacity() and !contains(id)
  void push(NodeId id, Key key) {
    assert(id < position_.size() && position_[id] == npos);
    keys_.push_back(key);
    ids_.push_back(id);
    sift_up(ids_.size() - 1, key, id);
  }

  /// Lowers the key of id. O(log n). @pre contains(id) and key is not greater than its key now
  void decrease(NodeId id, Key key) {
    assert(contains(id) && !less_(keys_[position_[id]], key));
    sift_up(position_[id], key, id);
  }

  /// Changes the key of id in either direction. O(Arity log n). @pre contains(id)
  void update(NodeId id, Key key) {
    assert(contains(id));
    const std::size_t i = position_[id];
    if (less_(key, keys_[i])) {
      sift_up(i, key, id);
    } else {
      sift_down(i, key, id);
    }
  }

  /// Removes the entry with the smallest key and returns its id. O(Arity log n). @pre !empty()
  NodeId pop() {
    assert(!ids_.empty());
    const NodeId id = ids_.front();
    position_[id] = npos;
    const Key last_key = keys_.back();
    const NodeId last_id = ids_.back();
    keys_.pop_back();
    ids_.pop_back();
    if (!ids_.empty()) sift_up(hole_to_leaf(), last_key, last_id);
    return id;
  }

  /// Removes id wherever it is. O(Arity log n). @pre contains(id)
  void erase(NodeId id) {
    assert(contains(id));
    const std::size_t i = position_[id];
    position_[id] = npos;
    const Key last_key = keys_.back();
    const NodeId last_id = ids_.back();
    keys_.pop_back();
    ids_.pop_back();
    if (i == ids_.size()) return;
    if (i > 0 && less_(last_key, keys_[parent(i)])) {
      sift_up(i, last_key, last_id);
    } else {
      sift_down(i, last_key, last_id);
    }
  }

  /// The id with the largest key (ties: any). O(size): only leaves can hold the maximum, and
  /// they are the last (Arity - 1) / Arity of the entries. @pre !empty()
  NodeId worst() const noexcept {
    assert(!ids_.empty());
    const std::size_t n = ids_.size();
    std::size_t best = n - 1;
    for (std::size_t i = n > 1 ? parent(n - 1) + 1 : 0; i < n; ++i) {
      if (less_(keys_[best], keys_[i])) best = i;
    }
    return ids_[best];
  }

  /// Empties the heap in O(size), keeping its memory.
  void clear() noexcept {
    for (const NodeId id : ids_) position_[id] = npos;
    keys_.clear();
    ids_.clear();
  }

 private:
  static constexpr std::uint32_t npos = std::numeric_limits<std::uint32_t>::max();

  static constexpr std::size_t parent(std::size_t i) noexcept { return (i - 1) / Arity; }

  void place(std::size_t i, const Key& key, NodeId id) noexcept {
    keys_[i] = key;
    ids_[i] = id;
    position_[id] = static_cast<std::uint32_t>(i);
  }

  // Moves the hole at i up until key fits, then puts (key, id) there.
  void sift_up(std::size_t i, const Key key, const NodeId id) noexcept {
    while (i > 0) {
      const std::size_t p = parent(i);
      if (!less_(key, keys_[p])) break;
      place(i, keys_[p], ids_[p]);
      i = p;
    }
    place(i, key, id);
  }

  // The index of the smallest of the Arity keys from `first` (all of which exist). A tournament
  // for Arity = 4: two independent comparisons, then one, instead of a chain of three.
  std::size_t min_child(const Key* k, std::size_t first) const noexcept {
    if constexpr (Arity == 4) {
      const std::size_t a = less_(k[first + 1], k[first]) ? first + 1 : first;
      const std::size_t b = less_(k[first + 3], k[first + 2]) ? first + 3 : first + 2;
      return less_(k[b], k[a]) ? b : a;
    } else {
      std::size_t best = first;
      for (std::size_t c = first + 1; c < first + Arity; ++c) {
        if (less_(k[c], k[best])) best = c;
      }
      return best;
    }
  }

  // After a pop: moves the hole left at the root down along the smallest children to a leaf and
  // returns where it ends (Wegener's bottom-up heapsort). The last entry, which is to fill the
  // hole, is usually among the largest, so sifting it up from the bottom afterwards costs less
  // than comparing it at every level on the way down.
  std::size_t hole_to_leaf() noexcept {
    const std::size_t n = ids_.size();
    const Key* const k = keys_.data();
    std::size_t i = 0;
    for (;;) {
      const std::size_t first = Arity * i + 1;
      if (first + Arity > n) break;
      const std::size_t best = min_child(k, first);
      place(i, k[best], ids_[best]);
      i = best;
    }
    const std::size_t first = Arity * i + 1;
    if (first < n) {
      std::size_t best = first;
      for (std::size_t c = first + 1; c < n; ++c) {
        if (less_(k[c], k[best])) best = c;
      }
      place(i, k[best], ids_[best]);
      i = best;
    }
    return i;
  }

  // Moves the hole at i down until key fits, then puts (key, id) there.
  void sift_down(std::size_t i, const Key key, const NodeId id) noexcept {
    const std::size_t n = ids_.size();
    const Key* const k = keys_.data();
    for (;;) {
      const std::size_t first = Arity * i + 1;
      if (first >= n) break;
      std::size_t best = first;
      if (first + Arity <= n) {
        best = min_child(k, first);
      } else {
        for (std::size_t c = first + 1; c < n; ++c) {
          if (less_(k[c], k[best])) best = c;
        }
      }
      if (!less_(k[best], key)) break;
      place(i, k[best], ids_[best]);
      i = best;
    }
    place(i, key, id);
  }

  // Keys and ids in separate arrays: a sift compares Arity adjacent keys per level and touches
  // ids only for the entries it moves.
  std::vector<Key> keys_;
  std::vector<NodeId> ids_;
  std::vector<std::uint32_t> position_;
  [[no_unique_address]] Less less_{};
};

}  // namespace polynav::search
