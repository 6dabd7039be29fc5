#pragma once
/// @file preconditioner.hpp
/// @brief Preconditioners M ~ A: z = M^{-1} r. Jacobi, z-line Jacobi (one
/// tridiagonal solve per (i, j) column along z), and its 2x2-block variant for
/// two-field operators. The interface leaves room for geometric multigrid.

#include <memory>

#include "voltaic/core/array.hpp"
#include "voltaic/linalg/linear_operator.hpp"
#include "voltaic/linalg/stencil_operator.hpp"

namespace voltaic {

template <class T>
class Preconditioner {
 public:
  virtual ~Preconditioner() = default;
  virtual std::size_t size() const = 0;
  virtual const std::shared_ptr<const Executor>& executor() const = 0;
  /// z = M^{-1} r (r and z must not overlap).
  virtual void apply(View<const T> r, View<T> z) const = 0;
};

/// M = I.
template <class T>
class IdentityPreconditioner final : public Preconditioner<T> {
 public:
  IdentityPreconditioner(std::shared_ptr<const Executor> exec, std::size_t n);
  std::size_t size() const override { return n_; }
  const std::shared_ptr<const Executor>& executor() const override { return exec_; }
  void apply(View<const T> r, View<T> z) const override;

 private:
  std::shared_ptr<const Executor> exec_;
  std::size_t n_;
};

/// M = diag(A). @throws InvalidArgument naming the first cell whose diagonal is <= 0 or not finite.
template <class T>
class JacobiPreconditioner final : public Preconditioner<T> {
 public:
  explicit JacobiPreconditioner(const StencilOperator<T>& op);
  JacobiPreconditioner(std::shared_ptr<const Executor> exec, View<const T> diagonal);
  std::size_t size() const override { return inverse_diagonal_.size(); }
  const std::shared_ptr<const Executor>& executor() const override { return exec_; }
  void apply(View<const T> r, View<T> z) const override;

 private:
  std::shared_ptr<const Executor> exec_;
  Array<T> inverse_diagonal_;
};

/// M = the z-couplings and diagonal of A (x-y couplings dropped): one
/// tridiagonal system per (i, j) column, solved by the Thomas algorithm with
/// one GPU thread per column (coalesced: neighbouring threads are neighbouring
/// columns). Absorbs the strong anisotropy of thin layers (dz << dx).
/// The factorisation is computed once at construction (and by update()).
/// @throws InvalidArgument when a diagonal is <= 0 or a pivot vanishes.
template <class T>
class ZLinePreconditioner final : public Preconditioner<T> {
 public:
  explicit ZLinePreconditioner(const StencilOperator<T>& op);
  /// Refactors for the operator's current coefficients (no allocation).
  void update(const StencilOperator<T>& op);
  std::size_t size() const override;
  const std::shared_ptr<const Executor>& executor() const override { return exec_; }
  void apply(View<const T> r, View<T> z) const override;

  template <class U>
  ZLinePreconditioner<U> converted() const;

 private:
  template <class U>
  friend class ZLinePreconditioner;
  ZLinePreconditioner() = default;
  std::shared_ptr<const Executor> exec_;
  std::shared_ptr<const Grid3D> grid_;
  Array<T> lower_, inverse_pivot_, upper_;  ///< Thomas factors, num_cells each
};

/// The z-line preconditioner of a two-field operator: per column a block
/// tridiagonal system with 2x2 blocks (each cell's local coupling kept).
template <class T>
class BlockZLinePreconditioner final : public Preconditioner<T> {
 public:
  explicit BlockZLinePreconditioner(const TwoFieldStencilOperator<T>& op);
  void update(const TwoFieldStencilOperator<T>& op);
  std::size_t size() const override;
  const std::shared_ptr<const Executor>& executor() const override { return exec_; }
  void apply(View<const T> r, View<T> z) const override;

  template <class U>
  BlockZLinePreconditioner<U> converted() const;

 private:
  template <class U>
  friend class BlockZLinePreconditioner;
  BlockZLinePreconditioner() = default;
  std::shared_ptr<const Executor> exec_;
  std::shared_ptr<const Grid3D> grid_;
  Array<T> factors_;  ///< per cell: the 2x2 inverse pivot and the 2x2 upper block (8 values, component-outer)
};

}  // namespace voltaic
