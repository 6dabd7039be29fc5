#pragma once
// The CG and GMRES device-loop tests' operators: a random layered stencil,
// and two that go wrong inside a device-decided loop's run (an indefinite
// shift and a NaN after a count of applies), both stream-ordered so that a
// captured graph replays them.

#include <memory>
#include <random>
#include <vector>

#include "test_support.hpp"
#include "voltaic/core/array.hpp"
#include "voltaic/linalg/blas1.hpp"
#include "voltaic/linalg/stencil_operator.hpp"

namespace voltaic::test {

/// A random operator (seed) on `exec`: anisotropic layers, as the heat
/// step's, one Dirichlet face; the same values on every executor.
template <class T>
std::shared_ptr<const StencilOperator<T>> layered_stencil(const std::shared_ptr<const Executor>& exec,
                                                          std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto g = std::make_shared<Grid3D>(37, 19, 1e-3, 2e-3,
                                    std::vector<ZRegionSpec>{{"a", 5, 5e-5}, {"b", 3, 1e-5}, {"c", 6, 7e-5}});
  const auto k = random_vector<T>(g->num_cells(), rng, T(0.1), T(2));
  const auto d = random_vector<T>(g->num_cells(), rng, T(1e8), T(1e9));
  BoundaryConditions bc{};
  bc[int(Face::z_lo)] = BoundaryCondition::dirichlet(1.0);
  return std::make_shared<StencilOperator<T>>(g, exec, Array<T>::from_host(exec, k).view(),
                                              Array<T>::from_host(exec, d).view(), bc);
}

/// A - sigma I: indefinite for sigma inside A's spectrum.
template <class T>
class Shifted final : public LinearOperator<T> {
 public:
  Shifted(std::shared_ptr<const StencilOperator<T>> a, T sigma) : a_(std::move(a)), sigma_(sigma) {}
  std::size_t size() const override { return a_->size(); }
  const std::shared_ptr<const Executor>& executor() const override { return a_->executor(); }
  void apply(View<const T> x, View<T> y) const override {
    a_->apply(x, y);
    axpy(*executor(), -sigma_, x, y);
  }
  bool stream_ordered() const override { return true; }

 private:
  std::shared_ptr<const StencilOperator<T>> a_;
  T sigma_;
};

/// A, until its `fuse`-th apply writes NaN: a vector scaled by `growth` at
/// every apply overflows then, and 0 times it is added to y (fma(0, w, y) is
/// y while w is finite). The count lives in device memory, so a captured
/// graph counts too.
template <class T>
class Fused final : public LinearOperator<T> {
 public:
  Fused(std::shared_ptr<const StencilOperator<T>> a, T growth)
      : a_(std::move(a)), w_(Array<T>::from_host(a_->executor(), std::vector<T>(a_->size(), T(1)))), growth_(growth) {}
  std::size_t size() const override { return a_->size(); }
  const std::shared_ptr<const Executor>& executor() const override { return a_->executor(); }
  void apply(View<const T> x, View<T> y) const override {
    a_->apply(x, y);
    scale(*executor(), growth_, w_.view());
    axpy(*executor(), T(0), w_.const_view(), y);
  }
  bool stream_ordered() const override { return true; }

 private:
  std::shared_ptr<const StencilOperator<T>> a_;
  mutable Array<T> w_;
  T growth_;
};

}  // namespace voltaic::test
