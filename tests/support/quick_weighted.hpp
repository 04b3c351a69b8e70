#pragma once
// The weighted method's epsilon for tests that run every method for some other property
// (threads, goal sets, corridors, smoothers, validity): its Steiner graph grows as epsilon
// shrinks, and at the default (0.1) a query takes about a tenth of a second on the bundled
// scenes. Its own tests (weighted_test.cpp) hold it to its bound at finer epsilon.

namespace polynav::test {

inline constexpr double quick_weighted_epsilon = 0.5;

}  // namespace polynav::test
