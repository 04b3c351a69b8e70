#pragma once
/// @file
/// How much memory the machine has, for builds that refuse a structure larger than it before
/// allocating anything (grids, hexagonal grids).

namespace polynav {

/// Physical memory in bytes, or 0 when the system does not say.
double physical_memory();

}  // namespace polynav
