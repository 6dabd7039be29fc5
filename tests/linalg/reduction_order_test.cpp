// The CPU reductions skip the lanes a short input leaves empty; this checks
// them bit for bit against the whole canonical tree of reduction_order.hpp,
// written out here as the CUDA kernels compute it, at sizes around every
// lane, step and segment boundary and on data with signed zeros,
// infinities and NaN.
#include "voltaic/linalg/reduction_order.hpp"

#include <gtest/gtest.h>

#include <array>
#include <limits>

#include "test_support.hpp"
#include "voltaic/linalg/blas1.hpp"
#include "voltaic/linalg/reduction_policies.hpp"

using namespace voltaic;

namespace {

namespace r = reduction;

/// The whole tree over kLanes lanes, identities included.
template <class P>
typename P::Acc full_tree(std::array<typename P::Acc, r::kLanes> lanes) {
  std::array<typename P::Acc, r::kGroups> groups;
  for (int g = 0; g < r::kGroups; ++g) {
    typename P::Acc* a = lanes.data() + g * r::kGroupLanes;
    for (int h = r::kGroupLanes / 2; h >= 1; h /= 2)
      for (int l = 0; l < h; ++l) P::combine(a[l], a[l + h]);
    groups[g] = a[0];
  }
  for (int h = r::kGroups / 2; h >= 1; h /= 2)
    for (int g = 0; g < h; ++g) P::combine(groups[g], groups[g + h]);
  return groups[0];
}

/// The canonical order of reduction_order.hpp, every lane and every pass.
template <class P, class T>
T canonical(const std::vector<T>& x, const std::vector<T>& y) {
  const std::size_t n = x.size(), seg = r::kSegment<T>;
  constexpr int vec = r::kVec<T>;
  std::vector<typename P::Acc> partials(r::num_segments(n, seg));
  for (std::size_t s = 0; s < partials.size(); ++s) {
    std::array<typename P::Acc, r::kLanes> lanes;
    lanes.fill(P::identity());
    for (int step = 0; step < r::kSteps; ++step)
      for (int l = 0; l < r::kLanes; ++l)
        for (int v = 0; v < vec; ++v) {
          const std::size_t e = s * seg + (static_cast<std::size_t>(step) * r::kLanes + l) * vec + v;
          if (e >= n) continue;
          if constexpr (P::arity == 2) {
            P::add(lanes[l], x[e], y[e]);
          } else {
            P::add(lanes[l], x[e]);
          }
        }
    partials[s] = full_tree<P>(lanes);
  }
  do {
    std::vector<typename P::Acc> next(r::num_segments(partials.size(), r::kPartialSegment));
    for (std::size_t s = 0; s < next.size(); ++s) {
      std::array<typename P::Acc, r::kLanes> lanes;
      lanes.fill(P::identity());
      for (int step = 0; step < r::kSteps; ++step)
        for (int l = 0; l < r::kLanes; ++l) {
          const std::size_t e = s * r::kPartialSegment + static_cast<std::size_t>(step) * r::kLanes + l;
          if (e < partials.size()) P::combine(lanes[l], partials[e]);
        }
      next[s] = full_tree<P>(lanes);
    }
    partials.swap(next);
  } while (partials.size() > 1);
  return P::finish(partials[0]);
}

template <class T>
std::vector<std::size_t> sizes() {
  const std::size_t seg = r::kSegment<T>, lane = r::kVec<T>, step = lane * r::kLanes;
  std::vector<std::size_t> s = {0, 1, 2, 3, 31, 32, 33, 63, 120, 255};
  for (std::size_t b : {lane, step, 2 * step, seg, 2 * seg, 3 * seg})
    for (std::size_t d : {b - 1, b, b + 1})
      if (d > 0) s.push_back(d);
  return s;
}

template <class T>
class ReductionOrder : public ::testing::Test {};
TYPED_TEST_SUITE(ReductionOrder, test::Precisions);

TYPED_TEST(ReductionOrder, CpuMatchesTheWholeCanonicalTreeBitwise) {
  using T = TypeParam;
  const auto cpu = CpuExecutor::create();
  std::mt19937_64 rng(test::fresh_seed());
  const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  for (std::size_t n : sizes<T>()) {
    // Random data, then all negative zeros (the sign of an empty sum), then one infinity and one NaN.
    for (int kind = 0; kind < 4; ++kind) {
      std::vector<T> x = test::random_vector<T>(n, rng, T(-3), T(3)), y = test::random_vector<T>(n, rng, T(-3), T(3));
      if (kind == 1) std::fill(x.begin(), x.end(), T(-0.0));
      if (kind >= 2 && n > 0) x[n / 2] = kind == 2 ? inf : nan;
      const Array<T> xa = Array<T>::from_host(cpu, x), ya = Array<T>::from_host(cpu, y);
      const T d = canonical<r::DotPolicy<T>>(x, y), m = canonical<r::MaxAbsPolicy<T>>(x, x),
              e = canonical<r::Nrm2Policy<T>>(x, x);
      EXPECT_TRUE(test::same_bits(dot(*cpu, xa.view(), ya.view()), d)) << "dot n=" << n << " kind " << kind;
      EXPECT_TRUE(test::same_bits(max_abs(*cpu, xa.view()), m)) << "max_abs n=" << n << " kind " << kind;
      EXPECT_TRUE(test::same_bits(nrm2(*cpu, xa.view()), e)) << "nrm2 n=" << n << " kind " << kind;
    }
  }
}

}  // namespace
