#pragma once
/// @file vector_space.hpp
/// @brief Where a solver's vectors live: the inner product and the norm the
/// Krylov solvers take of them.

#include "voltaic/core/executor.hpp"
#include "voltaic/core/view.hpp"

namespace voltaic {

/// The reductions a Krylov solver needs of its operator's vectors. The
/// default (local()) is the executor's BLAS-1 over every element, in the
/// library's one reduction order. A distributed operator's space
/// (voltaic::mpi) sums only the cells its rank owns, in an order that does
/// not depend on how the plane is cut, over every rank: the solvers are
/// written once and run on either.
template <class T>
class VectorSpace {
 public:
  virtual ~VectorSpace() = default;
  /// x . y, on the host.
  virtual double dot(const Executor& exec, View<const T> x, View<const T> y) const;
  /// x . y into result[0], in the executor's memory (queued; no host wait
  /// where the space allows).
  virtual void dot(const Executor& exec, View<const T> x, View<const T> y, View<T> result) const;
  /// result[i] = y_i . x for i < count, y_i the x.size() values of ys from
  /// i stride (a Krylov basis): Gram-Schmidt's dots as one request, which a
  /// distributed space meets in one all-reduce. Each is dot()'s value, bit
  /// for bit; queued in the executor's memory like dot(..., result).
  virtual void block_dot(const Executor& exec, View<const T> ys, std::size_t stride, int count, View<const T> x,
                         View<T> result) const;
  /// result[0] = ||x||_2 and result[1] = x . y, as nrm2() and dot() give
  /// them (CG's two reductions of an iteration, in one request).
  virtual void norm_and_dot(const Executor& exec, View<const T> x, View<const T> y, View<T> result) const;
  /// ||x||_2, on the host.
  virtual double nrm2(const Executor& exec, View<const T> x) const;
  /// ||x||_2 into result[0], in the executor's memory.
  virtual void nrm2(const Executor& exec, View<const T> x, View<T> result) const;

  /// The executor's own reductions over every element.
  static const VectorSpace& local();
};

}  // namespace voltaic
