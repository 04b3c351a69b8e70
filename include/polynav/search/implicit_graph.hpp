#pragma once
/// @file
/// An implicit state space (puzzles, lattices generated on the fly) as a SearchGraph: states are
/// hashed to dense NodeIds as they are discovered, so the same A* runs on them.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

#include "polynav/search/graph.hpp"

namespace polynav::search {

/// A graph whose nodes are the states reachable through `successors`, each given the next free
/// NodeId the first time it is seen.
///
/// `successors(const State& s, emit)` must call `emit(const State& next, double cost)` once per
/// move out of s (cost finite and >= 0). `Hash` and `Equal` define state identity. All three are
/// called as const function objects.
///
/// It is a GrowingGraph: for_each_neighbour interns unseen successors, so node_count() grows
/// during a search (the search checks ids against its arrays). Interning allocates (amortised);
/// expanding known states does not. Logically const, physically not: not thread-safe, even for
/// concurrent searches.
///
/// Memory: each state once (in a deque, so references returned by state() stay valid), plus its
/// hash and a 4-byte slot in an open-addressing table kept at most half full.
template <class State, class Successors, class Hash = std::hash<State>,
          class Equal = std::equal_to<State>>
class ImplicitGraph {
 public:
  static constexpr bool grows_during_search = true;

  /// An empty space; states enter through id_of() and the search.
  explicit ImplicitGraph(Successors successors, Hash hash = {}, Equal equal = {})
      : successors_(std::move(successors)), hash_(std::move(hash)), equal_(std::move(equal)) {}

  /// The id of s, allocating one if s is new. @throws std::length_error past 2^32 - 2 states
  NodeId id_of(const State& s) { return intern(s); }

  /// The id of s, or no_node if s has not been seen.
  NodeId find(const State& s) const {
    if (slots_.empty()) return no_node;
    const std::size_t h = hash_of(s);
    for (std::size_t i = h & mask_;; i = (i + 1) & mask_) {
      const NodeId id = slots_[i];
      if (id == no_node) return no_node;
      if (hashes_[id] == h && equal_(states_[id], s)) return id;
    }
  }

  /// The state of id. @pre id < node_count()
  const State& state(NodeId id) const noexcept { return states_[id]; }

  /// States seen so far.
  std::size_t node_count() const noexcept { return states_.size(); }

  /// Forgets every state (ids restart at 0).
  void clear() {
    states_.clear();
    hashes_.clear();
    slots_.clear();
    mask_ = 0;
  }

  /// Calls f(id, cost) for each successor of n, interning new states.
  template <class F>
  void for_each_neighbour(NodeId n, F&& f) const {
    // states_ is a deque: interning successors does not move the state being expanded.
    const State& s = states_[n];
    successors_(s, [&](const State& next, double cost) { f(intern(next), cost); });
  }

 private:
  std::size_t hash_of(const State& s) const {
    // Finalising mix (splitmix64): std::hash of an integer is often the identity, and the table
    // indexes by the low bits.
    std::uint64_t x = static_cast<std::uint64_t>(hash_(s));
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return static_cast<std::size_t>(x ^ (x >> 31));
  }

  NodeId intern(const State& s) const {
    if (2 * (states_.size() + 1) > slots_.size()) rehash();
    const std::size_t h = hash_of(s);
    std::size_t i = h & mask_;
    for (;; i = (i + 1) & mask_) {
      const NodeId id = slots_[i];
      if (id == no_node) break;
      if (hashes_[id] == h && equal_(states_[id], s)) return id;
    }
    if (states_.size() + 1 >= no_node) {
      throw std::length_error("ImplicitGraph: more states than NodeId can number");
    }
    const auto id = static_cast<NodeId>(states_.size());
    states_.push_back(s);
    hashes_.push_back(h);
    slots_[i] = id;
    return id;
  }

  void rehash() const {
    const std::size_t capacity = std::max<std::size_t>(64, 2 * slots_.size());
    slots_.assign(capacity, no_node);
    mask_ = capacity - 1;
    for (NodeId id = 0; id < states_.size(); ++id) {
      std::size_t i = hashes_[id] & mask_;
      while (slots_[i] != no_node) i = (i + 1) & mask_;
      slots_[i] = id;
    }
  }

  Successors successors_;
  Hash hash_;
  Equal equal_;
  mutable std::deque<State> states_;
  mutable std::vector<std::size_t> hashes_;
  mutable std::vector<NodeId> slots_;
  mutable std::size_t mask_ = 0;
};

}  // namespace polynav::search
