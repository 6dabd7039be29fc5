#pragma once
// Shared test machinery: a test body written once runs on every executor, in
// float and in double; CUDA cases skip with a message when no GPU is visible.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "voltaic/voltaic.hpp"

namespace voltaic::test {

struct CpuTag {
  static constexpr const char* name = "cpu";
};
struct CudaTag {
  static constexpr const char* name = "cuda";
};

/// One executor kind and one precision.
template <class Tag, class T>
struct Case {
  using tag = Tag;
  using value_type = T;
};

using AllCases =
    ::testing::Types<Case<CpuTag, float>, Case<CpuTag, double>, Case<CudaTag, float>, Case<CudaTag, double>>;
using Precisions = ::testing::Types<float, double>;

/// The process-wide CUDA executor, or null when no device is visible.
inline std::shared_ptr<const CudaExecutor> cuda_executor() {
  static std::shared_ptr<const CudaExecutor> exec =
      CudaExecutor::device_count() > 0 ? CudaExecutor::create(0) : nullptr;
  return exec;
}

inline std::shared_ptr<const Executor> executor_for(CpuTag) { return CpuExecutor::create(); }
inline std::shared_ptr<const Executor> executor_for(CudaTag) { return cuda_executor(); }

#define VOLTAIC_SKIP_WITHOUT_GPU()                                                                      \
  do {                                                                                                  \
    if (!::voltaic::test::cuda_executor()) GTEST_SKIP() << "no CUDA device visible: CUDA test skipped"; \
  } while (0)

/// Fixture of tests typed over Case<Tag, T>: exec_ is that executor.
template <class C>
class ExecutorTest : public ::testing::Test {
 protected:
  using T = typename C::value_type;
  void SetUp() override {
    exec_ = executor_for(typename C::tag{});
    if (!exec_) GTEST_SKIP() << "no CUDA device visible: " << C::tag::name << " case skipped";
  }
  /// An array on this fixture's executor holding `values`.
  Array<T> make(const std::vector<T>& values) const { return Array<T>::from_host(exec_, values); }
  std::shared_ptr<const Executor> exec_;
};

/// A fresh random seed per run, printed on failure.
inline std::uint64_t fresh_seed() { return std::random_device{}(); }

template <class T>
std::vector<T> random_vector(std::size_t n, std::mt19937_64& rng, T lo = T(-1), T hi = T(1)) {
  std::uniform_real_distribution<T> dist(lo, hi);
  std::vector<T> v(n);
  for (T& x : v) x = dist(rng);
  return v;
}

/// NaN everywhere: what a kernel leaves unwritten shows up.
template <class T>
constexpr T poison() {
  return std::numeric_limits<T>::quiet_NaN();
}

template <class T>
constexpr T eps() {
  return std::numeric_limits<T>::epsilon();
}

/// Bit patterns equal (NaN compares equal to the same NaN).
template <class T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

/// Largest |v[i]|.
template <class T>
T max_abs_of(const std::vector<T>& v) {
  T m = T(0);
  for (T x : v) m = std::max(m, std::abs(x));
  return m;
}

/// Sizes that are not multiples of a warp or of a segment, around and above them.
inline std::vector<std::size_t> odd_sizes() { return {1, 33, 257, 4099, 16385, 100003, 1000003}; }

}  // namespace voltaic::test
