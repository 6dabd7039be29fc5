#pragma once
/// @file preconditioner.hpp
/// @brief Preconditioners M ~ A: z = M^{-1} r. Jacobi, z-line Jacobi (one
/// tridiagonal solve per (i, j) column along z), and its 2x2-block variant for
/// two-field operators. Geometric multigrid for the two-foil in-plane system
/// is PlaneMultigrid (plane_multigrid.hpp).

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
  /// As LinearOperator::stream_ordered(), for apply().
  virtual bool stream_ordered() const { return false; }
};

/// M = I. Memory per apply: a copy, 2 values per cell.
template <class T>
class IdentityPreconditioner final : public Preconditioner<T> {
 public:
  IdentityPreconditioner(std::shared_ptr<const Executor> exec, std::size_t n);
  std::size_t size() const override { return n_; }
  const std::shared_ptr<const Executor>& executor() const override { return exec_; }
  void apply(View<const T> r, View<T> z) const override;
  bool stream_ordered() const override { return true; }

 private:
  std::shared_ptr<const Executor> exec_;
  std::size_t n_;
};

/// M = diag(A), stored as 1 / diag. Memory per apply: reads r and 1 / diag,
/// writes z: 3 values per cell.
/// @throws InvalidArgument naming the first cell whose diagonal is <= 0 or not finite.
template <class T>
class JacobiPreconditioner final : public Preconditioner<T> {
 public:
  explicit JacobiPreconditioner(const StencilOperator<T>& op);
  JacobiPreconditioner(std::shared_ptr<const Executor> exec, View<const T> diagonal);
  std::size_t size() const override { return inverse_diagonal_.size(); }
  const std::shared_ptr<const Executor>& executor() const override { return exec_; }
  void apply(View<const T> r, View<T> z) const override;
  bool stream_ordered() const override { return true; }

 private:
  std::shared_ptr<const Executor> exec_;
  Array<T> inverse_diagonal_;
};

/// M = the z-couplings and diagonal of A (x-y couplings dropped): one
/// tridiagonal system per (i, j) column, solved by the Thomas algorithm with
/// one GPU thread per column (coalesced: neighbouring threads are neighbouring
/// columns). Absorbs the strong anisotropy of thin layers (dz << dx).
/// The factorisation is computed once at construction (and by update()).
/// @throws InvalidArgument naming the first cell whose diagonal or Thomas
///         pivot is not finite and > 0 (the preconditioner is then unusable
///         until a successful update()).
///
/// Memory per apply: reads r and the three factors, writes z in the forward
/// sweep and reads and rewrites it in the backward one: 7 values per cell.
template <class T>
class ZLinePreconditioner final : public Preconditioner<T> {
 public:
  explicit ZLinePreconditioner(const StencilOperator<T>& op);
  /// From the stencil directly (an operator assembled elsewhere, tests).
  explicit ZLinePreconditioner(const StencilCoefficients<T>& stencil);
  /// Refactors for the operator's current coefficients (no allocation).
  void update(const StencilOperator<T>& op);
  void update(const StencilCoefficients<T>& stencil);
  std::size_t size() const override;
  const std::shared_ptr<const Executor>& executor() const override { return exec_; }
  void apply(View<const T> r, View<T> z) const override;
  bool stream_ordered() const override { return true; }

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
/// tridiagonal system with 2x2 blocks (each cell's local coupling kept),
/// factored by block Thomas with explicit 2x2 inverses.
/// @throws InvalidArgument naming the first cell whose diagonals are not
///         finite and > 0 or whose pivot block has a diagonal or determinant
///         that is not.
///
/// Memory per apply: reads r (2 values per cell) and the 6 factors twice (one
/// per sweep), writes z twice and reads it once: 20 values per cell.
template <class T>
class BlockZLinePreconditioner final : public Preconditioner<T> {
 public:
  explicit BlockZLinePreconditioner(const TwoFieldStencilOperator<T>& op);
  /// From the two stencils and the couplings directly (num_cells values each).
  BlockZLinePreconditioner(const StencilCoefficients<T>& field0, const StencilCoefficients<T>& field1,
                           View<const T> c01, View<const T> c10);
  void update(const TwoFieldStencilOperator<T>& op);
  void update(const StencilCoefficients<T>& field0, const StencilCoefficients<T>& field1, View<const T> c01,
              View<const T> c10);
  std::size_t size() const override;
  const std::shared_ptr<const Executor>& executor() const override { return exec_; }
  void apply(View<const T> r, View<T> z) const override;
  bool stream_ordered() const override { return true; }

  template <class U>
  BlockZLinePreconditioner<U> converted() const;

 private:
  template <class U>
  friend class BlockZLinePreconditioner;
  BlockZLinePreconditioner() = default;
  std::shared_ptr<const Executor> exec_;
  std::shared_ptr<const Grid3D> grid_;
  /// Per cell, component-outer: the 2x2 inverse pivot block Q and the two
  /// z-couplings of the (diagonal) upper block: 6 values (block_zline_ops.hpp).
  Array<T> factors_;
};

}  // namespace voltaic
