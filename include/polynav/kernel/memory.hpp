#pragma once
/// @file
/// How much memory the machine has, for builds that refuse a structure larger than it before
/// allocating anything (grids, hexagonal grids), and freeing a container's storage early.

namespace polynav {

/// Frees a container's storage now. (`c = {}` does not: the empty braces pick the assignment from
/// an initializer list, which clears the container and keeps its capacity.)
template <class Container>
void release(Container& c) {
  Container().swap(c);
}

/// Physical memory in bytes, or 0 when the system does not say.
double physical_memory();

}  // namespace polynav
