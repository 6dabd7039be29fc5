#pragma once
/// @file reduction_order.hpp
/// @brief The one order in which voltaic sums: fixed by the array length alone,
/// so a reduction is bitwise identical for every launch configuration, from
/// run to run, and between the CPU and CUDA backends.
///
/// Pass 1 cuts the input into segments of kLanes * kSteps * vec elements.
/// Within a segment, lane l (0 <= l < kLanes) accumulates, in this order,
/// elements (s * kLanes + l) * vec + v for s = 0..kSteps-1, v = 0..vec-1
/// (those past the end are skipped). The kLanes lane results are then combined
/// by a fixed tree: in each group of 32 lanes, lane l takes lane l + h for
/// h = 16, 8, 4, 2, 1; then the kLanes/32 group results, group g takes group
/// g + h for h = kGroups/2, ..., 1. Later passes reduce the per-segment
/// partial results the same way with vec = 1, until one is left.

#include <cstddef>

namespace voltaic::reduction {

inline constexpr int kLanes = 256;
inline constexpr int kGroupLanes = 32;
inline constexpr int kGroups = kLanes / kGroupLanes;
/// Eight steps: a 1M-value vector has 248 segments, so pass 1's blocks fill
/// every SM of a large GPU with all of a lane's loads in flight at once (32
/// steps left 62 blocks to a 132-SM H200: 1.6x slower at 1M values, the same
/// at 2^27; docs/performance.md, "Twenty-first session").
inline constexpr int kSteps = 8;

/// Elements per lane per step in pass 1: one 16-byte load.
template <class T>
inline constexpr int kVec = static_cast<int>(16 / sizeof(T));

/// Elements per segment in pass 1 and in the later passes over partials.
template <class T>
inline constexpr std::size_t kSegment = static_cast<std::size_t>(kLanes) * kSteps* kVec<T>;
inline constexpr std::size_t kPartialSegment = static_cast<std::size_t>(kLanes) * kSteps;

/// Number of segments of size `segment` covering n elements; at least 1, so
/// that an empty input still yields one (identity) partial.
constexpr std::size_t num_segments(std::size_t n, std::size_t segment) {
  return n == 0 ? 1 : (n + segment - 1) / segment;
}

}  // namespace voltaic::reduction
