#pragma once
/// @file linear_operator.hpp
/// @brief The interface every operator (stencil, CSR, ELL) offers the solvers.

#include <cstddef>
#include <memory>

#include "voltaic/core/executor.hpp"
#include "voltaic/core/view.hpp"
#include "voltaic/linalg/vector_space.hpp"

namespace voltaic {

/// A square linear operator y = A x on one executor.
template <class T>
class LinearOperator {
 public:
  virtual ~LinearOperator() = default;
  /// Rows (= columns).
  virtual std::size_t size() const = 0;
  virtual const std::shared_ptr<const Executor>& executor() const = 0;
  /// y = A x, queued on the executor (stream 0 for CUDA). x and y must not
  /// overlap; both must hold size() elements in the executor's memory.
  virtual void apply(View<const T> x, View<T> y) const = 0;
  /// The reductions the solvers take of this operator's vectors: every
  /// element, unless the operator's vectors are distributed.
  virtual const VectorSpace<T>& space() const { return VectorSpace<T>::local(); }
  /// Whether apply() and space()'s reductions only queue work on the
  /// executor's stream 0 (no host wait, no host copy, no allocation) once the
  /// operator has been applied once, and their launches take the same values
  /// at every call with the same vectors (what changes, an update's
  /// coefficients, is read through the same pointers): a solver may then
  /// capture them into a CUDA graph, replay it, and let the device decide its
  /// iterations. False unless the operator says so.
  virtual bool stream_ordered() const { return false; }
};

}  // namespace voltaic
