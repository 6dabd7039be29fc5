// CPU backend of the reductions: the canonical order of reduction_order.hpp
// written as plain loops. The CUDA kernels must reproduce it bit for bit.
#include <algorithm>
#include <array>
#include <vector>

#include "../linalg/blas1_kernels.hpp"
#include "fma_clones.hpp"
#include "voltaic/linalg/reduction_order.hpp"
#include "voltaic/linalg/reduction_policies.hpp"

namespace voltaic::cpu {

namespace {

using reduction::kGroupLanes;
using reduction::kGroups;
using reduction::kLanes;
using reduction::kSteps;

/// The fixed tree over kLanes lane accumulators (destroys `lanes`), of
/// which only the first `active` hold anything but the identity. A combine
/// with an identity lane changes nothing but the sign of a zero (x + (+0) is
/// x for x != -0), so those are skipped and the result is combined with the
/// identity once at the end: the same bits as the whole tree, whose sum of
/// zeros is +0 as soon as one identity lane takes part.
template <class P>
typename P::Acc combine_lanes(std::array<typename P::Acc, kLanes>& lanes, int active) {
  if (active == 0) return P::identity();
  std::array<typename P::Acc, kGroups> groups;
  groups.fill(P::identity());
  const int active_groups = (active + kGroupLanes - 1) / kGroupLanes;
  for (int g = 0; g < active_groups; ++g) {
    typename P::Acc* a = lanes.data() + g * kGroupLanes;
    const int in_group = std::min(kGroupLanes, active - g * kGroupLanes);
    for (int h = kGroupLanes / 2; h >= 1; h /= 2) {
      for (int l = 0; l < h && l + h < in_group; ++l) P::combine(a[l], a[l + h]);
    }
    groups[g] = a[0];
  }
  for (int h = kGroups / 2; h >= 1; h /= 2) {
    for (int g = 0; g < h && g + h < active_groups; ++g) P::combine(groups[g], groups[g + h]);
  }
  if (active < kLanes) P::combine(groups[0], P::identity());
  return groups[0];
}

/// Lanes that receive at least one of `count` elements, `per_lane` at a time.
inline int active_lanes(std::size_t count, int per_lane) {
  return static_cast<int>(std::min<std::size_t>(kLanes, (count + per_lane - 1) / per_lane));
}

/// Lanes [0, active) take steps [0, steps) of the segment at `begin`. Whole:
/// every element lies before n (all segments but the last), so the loop has
/// no test, and the compiler vectorises it across lanes.
template <class P, bool Whole, class T>
__attribute__((always_inline)) inline void accumulate(typename P::Acc* lanes, const T* x, const T* y, std::size_t begin,
                                                      std::size_t n, int steps, int active) {
  constexpr int vec = reduction::kVec<T>;
  for (int s = 0; s < steps; ++s) {
    for (int l = 0; l < active; ++l) {
      for (int v = 0; v < vec; ++v) {
        const std::size_t e = begin + (static_cast<std::size_t>(s) * kLanes + l) * vec + v;
        if constexpr (!Whole) {
          if (e >= n) continue;
        }
        if constexpr (P::arity == 2) {
          P::add(lanes[l], x[e], y[e]);
        } else {
          P::add(lanes[l], x[e]);
        }
      }
    }
  }
}

/// One pass-1 segment: elements [begin, begin + kSegment) clipped to n.
template <class P, class T>
VOLTAIC_FMA_CLONES typename P::Acc reduce_segment(const T* x, const T* y, std::size_t begin, std::size_t n) {
  constexpr int vec = reduction::kVec<T>;
  std::array<typename P::Acc, kLanes> lanes;
  // Steps past the end would only skip elements: leave them out (same order, same bits).
  const std::size_t per_step = static_cast<std::size_t>(kLanes) * vec, count = n > begin ? n - begin : 0;
  const int steps = static_cast<int>(std::min<std::size_t>(kSteps, (count + per_step - 1) / per_step));
  const int active = active_lanes(std::min(count, per_step * kSteps), vec);
  std::fill(lanes.begin(), lanes.begin() + std::max(active, 1), P::identity());
  if (count >= per_step * kSteps) {
    accumulate<P, true>(lanes.data(), x, y, begin, n, kSteps, kLanes);
  } else {
    accumulate<P, false>(lanes.data(), x, y, begin, n, steps, active);
  }
  return combine_lanes<P>(lanes, active);
}

/// One later-pass segment of the partial results in[0, size).
template <class P>
VOLTAIC_FMA_CLONES typename P::Acc reduce_partials(const typename P::Acc* in, std::size_t size, std::size_t begin) {
  std::array<typename P::Acc, kLanes> lanes;
  const std::size_t count = size > begin ? size - begin : 0;
  const int steps = static_cast<int>(std::min<std::size_t>(kSteps, (count + kLanes - 1) / kLanes));
  const int active = active_lanes(std::min<std::size_t>(count, std::size_t(kLanes) * kSteps), 1);
  std::fill(lanes.begin(), lanes.begin() + std::max(active, 1), P::identity());
  for (int s = 0; s < steps; ++s) {
    for (int l = 0; l < active; ++l) {
      const std::size_t e = begin + static_cast<std::size_t>(s) * kLanes + l;
      if (e < size) P::combine(lanes[l], in[e]);
    }
  }
  return combine_lanes<P>(lanes, active);
}

template <class P, class T>
T reduce_canonical(const T* x, const T* y, std::size_t n) {
  const std::size_t segment = reduction::kSegment<T>;
  if (n <= segment) {  // one segment, one later pass over its result: no heap
    const typename P::Acc partial = reduce_segment<P>(x, y, 0, n);
    return P::finish(reduce_partials<P>(&partial, 1, 0));
  }
  std::vector<typename P::Acc> partials(reduction::num_segments(n, segment));
  for (std::size_t s = 0; s < partials.size(); ++s) partials[s] = reduce_segment<P>(x, y, s * segment, n);
  do {
    std::vector<typename P::Acc> next(reduction::num_segments(partials.size(), reduction::kPartialSegment));
    for (std::size_t s = 0; s < next.size(); ++s)
      next[s] = reduce_partials<P>(partials.data(), partials.size(), s * reduction::kPartialSegment);
    partials.swap(next);
  } while (partials.size() > 1);
  return P::finish(partials[0]);
}

}  // namespace

template <Reduction R, class T>
T reduce(const T* x, const T* y, std::size_t n) {
  if constexpr (R == Reduction::dot) return reduce_canonical<reduction::DotPolicy<T>>(x, y, n);
  if constexpr (R == Reduction::nrm2) return reduce_canonical<reduction::Nrm2Policy<T>>(x, x, n);
  if constexpr (R == Reduction::max_abs) return reduce_canonical<reduction::MaxAbsPolicy<T>>(x, x, n);
}

template float reduce<Reduction::dot, float>(const float*, const float*, std::size_t);
template double reduce<Reduction::dot, double>(const double*, const double*, std::size_t);
template float reduce<Reduction::nrm2, float>(const float*, const float*, std::size_t);
template double reduce<Reduction::nrm2, double>(const double*, const double*, std::size_t);
template float reduce<Reduction::max_abs, float>(const float*, const float*, std::size_t);
template double reduce<Reduction::max_abs, double>(const double*, const double*, std::size_t);

}  // namespace voltaic::cpu
