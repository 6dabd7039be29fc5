#pragma once
/// @file stencil_operator.hpp
/// @brief The matrix-free 7-point finite-volume operator on a Grid3D.

#include <cstdint>
#include <memory>

#include "voltaic/core/array.hpp"
#include "voltaic/core/grid.hpp"
#include "voltaic/linalg/boundary.hpp"
#include "voltaic/linalg/linear_operator.hpp"
#include "voltaic/linalg/plane_decomposition.hpp"
#include "voltaic/linalg/stencil_coefficients.hpp"
#include "voltaic/linalg/stencil_point.hpp"

namespace voltaic {

namespace stencil {
template <class T>
struct ApplyArgs;  // the kernels' arguments (internal)
}  // namespace stencil

/// How a face's coefficient is formed from its two cells' k.
enum class FaceMean {
  harmonic,    ///< distance-weighted harmonic mean: exact for piecewise-constant k (the default)
  arithmetic,  ///< (k_a + k_b) / 2 over the centre distance: PyBaMM's rule for some terms
};

/// The cell-centred finite-volume discretisation of
///
///   d u - div(k grad u)
///
/// integrated over each cell (so the matrix is symmetric):
///
///   (A u)_c = V_c d_c u_c + sum over faces f of c: G_f (u_c - u_nb),
///
/// V_c = dx dy dz_k the cell volume, G_f = area_f * 2 / (h_c / k_c + h_nb / k_nb)
/// the face transmissibility, h the cell widths normal to f: the harmonic mean
/// of k weighted by distance, exact at region interfaces for piecewise-constant
/// k (G_f = 0 when either k is 0). Outer faces add their boundary condition:
/// Dirichlet area * 2 k_c / h_c to the diagonal, Robin area / (1/h + h_c / (2 k_c)),
/// Neumann nothing. add_boundary_terms() adds the matching constants to a
/// right-hand side, which is otherwise the volume integral V_c f_c.
///
/// On CUDA, apply() runs one of two kernels that give the same bits: one that
/// tiles x-y in shared memory and streams along z, or the plain
/// one-thread-per-cell kernel. Which is faster depends on the device (the
/// tiled one on an H200, the plain one on an H100: docs/performance.md), so
/// the first apply of a grid of at least kStencilTuneCells cells on a device
/// times both and every later apply in the process uses the faster
/// (stencil_kernel_choice() reports it); smaller grids use the tiled one
/// until then. apply_untiled() always runs the plain kernel (the benchmark
/// baseline). On the CPU both are the same loop.
///
/// Memory per apply: reads x, diag, tx, ty, tz once, writes y: 6 values per cell.
template <class T>
class StencilOperator;

/// The CUDA kernels of StencilOperator::apply.
enum class StencilKernel { tiled, plain };

/// Grids from this size on are large enough for the kernels' bandwidth to
/// show (smaller ones are bound by the launch).
constexpr std::size_t kStencilTuneCells = std::size_t{1} << 21;

/// What apply() measured on one CUDA device for one precision: each kernel's
/// best of a few applies [s] on a grid of `cells` cells, and its choice.
struct StencilKernelChoice {
  bool measured = false;  ///< false until an apply of at least kStencilTuneCells cells ran
  StencilKernel kernel = StencilKernel::tiled;
  double tiled_s = 0.0, plain_s = 0.0;
  std::size_t cells = 0;
};

/// The choice for CUDA device `ordinal` and values of `value_bytes` (4 or 8) in this process.
StencilKernelChoice stencil_kernel_choice(int ordinal, std::size_t value_bytes);

template <class T>
class StencilOperator final : public LinearOperator<T> {
 public:
  /// @param k cell coefficient (conductivity, diffusivity), num_cells values, each finite and >= 0
  /// @param d per-volume diagonal term (mass / dt, linearised reaction), num_cells values, finite
  /// @throws SizeMismatch, ExecutorMismatch, InvalidArgument (naming the first bad value and its cell)
  /// @param mean the face rule (harmonic unless a like-for-like comparison asks otherwise)
  StencilOperator(std::shared_ptr<const Grid3D> grid, std::shared_ptr<const Executor> exec, View<const T> k,
                  View<const T> d, const BoundaryConditions& bc, FaceMean mean = FaceMean::harmonic);

  /// Rebuilds the coefficients for new k and d (same grid and boundary kinds); no allocation.
  void update(View<const T> k, View<const T> d);
  /// The diagonal alone for a new d, k as the last update() had it: the
  /// faces' part of each diagonal is kept from that update and d's term
  /// added last (update(k, d)'s diagonal summed in another order, a few ulp
  /// apart; the couplings unchanged), at a fraction of its work and with no
  /// host wait: a Newton step's Jacobian, whose conductivities stay while the
  /// reaction's derivative moves. d is not checked: a non-finite d gives
  /// non-finite rows.
  /// @throws InvalidArgument unless keep_face_sums() and then update() ran
  ///         (and no assign_converted() since)
  void update_diagonal(View<const T> d);
  /// Makes every later update() keep the faces' part of each diagonal (one
  /// more array, written by every update) for update_diagonal(); operators
  /// that never update their diagonal alone skip those bytes.
  void keep_face_sums();

  /// Makes this the operator of a rank's ghosted block of a cut plane (the
  /// grid is the block's, ghosts included; k's ghosts must hold the
  /// neighbours' values): apply() and apply_coupled() then post the
  /// exchange of x's ghosts, apply the whole block while they travel, redo
  /// the rows beside them (apply_frame(), the same bits) and zero y's
  /// ghosts; x's ghosts are scratch, though x is const to the solvers.
  /// space() sums the owned cells over every rank. Null: the whole plane.
  /// @throws SizeMismatch when the grid is not the block's
  void decompose(std::shared_ptr<const PlaneDecomposition> decomposition);
  const std::shared_ptr<const PlaneDecomposition>& decomposition() const { return decomposition_; }
  const VectorSpace<T>& space() const override;
  /// The whole plane's operator, or a cut block whose exchanges and sums are stream-ordered.
  bool stream_ordered() const override { return !decomposition_ || decomposition_->stream_ordered(); }

  std::size_t size() const override { return coefficients_.grid->num_cells(); }
  const std::shared_ptr<const Executor>& executor() const override { return exec_; }
  void apply(View<const T> x, View<T> y) const override;
  void apply_untiled(View<const T> x, View<T> y) const;
  /// y = A x on the rows of the columns in `frame` only (the rest of y is
  /// untouched), with the bits apply() gives them: a decomposed operator
  /// applies the whole block while its ghost columns travel, then this
  /// once they have arrived. Memory: 6 values per frame cell, plus neighbours.
  void apply_frame(View<const T> x, View<T> y, stencil::ColumnFrame frame) const;
  /// apply_coupled() on the rows of the frame's columns only.
  void apply_coupled_frame(View<const T> x, View<const T> coupling, View<const T> other, View<T> y,
                           stencil::ColumnFrame frame) const;
  /// y = A x + coupling .* other, in one pass (a two-field operator's block row).
  void apply_coupled(View<const T> x, View<const T> coupling, View<const T> other, View<T> y) const;

  /// b += the constant parts of the boundary conditions (Dirichlet values,
  /// Neumann fluxes, Robin ambient terms), integrated over the boundary faces.
  void add_boundary_terms(View<T> b) const;

  const Grid3D& grid() const { return *coefficients_.grid; }
  const BoundaryConditions& boundary_conditions() const { return bc_; }
  const StencilCoefficients<T>& coefficients() const { return coefficients_; }

  /// The same operator with coefficients rounded to U (GMRES-IR's FP32 inner solves).
  template <class U>
  StencilOperator<U> converted() const;

  /// Overwrites the coefficients with `other`'s rounded to T (same grid and
  /// boundary kinds; no allocation, no host wait): refreshes the FP32 copy of
  /// an operator whose FP64 coefficients changed. Where `other` has seen
  /// update_diagonal() alone since this took its coefficients, only the
  /// diagonal is converted: the rest is equal already (a Newton iteration's
  /// FP32 Jacobian after the first).
  /// @throws SizeMismatch when the grids differ
  template <class U>
  void assign_converted(const StencilOperator<U>& other);

 private:
  template <class U>
  friend class StencilOperator;
  StencilOperator(std::shared_ptr<const Executor> exec, const BoundaryConditions& bc,
                  StencilCoefficients<T> coefficients, Array<T> boundary_rhs, Array<T> dz);
  void check_inputs(View<const T> k, View<const T> d, const char* where) const;
  void check_vectors(View<const T> x, View<T> y, const char* where) const;
  /// The kernels' arguments (stencil_kernels.hpp) for y = A x (+ coupling .* other).
  stencil::ApplyArgs<T> apply_args(View<const T> x, View<T> y, const T* coupling, const T* other) const;
  void run_apply(View<const T> x, View<T> y, const T* coupling, const T* other, bool tiled) const;
  void run_apply_frame(View<const T> x, View<T> y, const T* coupling, const T* other, stencil::ColumnFrame frame) const;
  /// apply()'s kernel on this device: measured on the first large enough apply (stencil_kernel_choice()).
  bool use_tiled(View<const T> x, View<T> y, const T* coupling, const T* other) const;
  /// apply() or apply_coupled() on a decomposed block: the exchange hidden behind the local apply.
  void apply_block(View<const T> x, View<T> y, const T* coupling, const T* other) const;

  std::shared_ptr<const Executor> exec_;
  BoundaryConditions bc_;
  FaceMean mean_ = FaceMean::harmonic;
  StencilCoefficients<T> coefficients_;
  Array<T> boundary_rhs_;          ///< the constants add_boundary_terms() adds
  Array<T> dz_;                    ///< layer widths in the executor's memory, for the kernels
  Array<T> faces_;                 ///< each diagonal's part from the faces, as the last update() left it
  bool keep_faces_ = false;        ///< keep_face_sums() ran: update() fills faces_
  bool faces_current_ = false;     ///< faces_ belongs to the coefficients (update_diagonal() may run)
  mutable int chosen_tiled_ = -1;  ///< apply()'s kernel once the device's choice is known: 1 tiled, 0 plain
  /// Names the faces and boundary terms of the last update() (or the
  /// construction): unique over the process, so a converted copy can tell
  /// whether they moved since it took them.
  std::uint64_t faces_stamp_ = next_stamp();
  std::uint64_t converted_stamp_ = 0;  ///< faces_stamp_ of the operator whose faces this holds rounded; 0: none
  static std::uint64_t next_stamp();
  std::shared_ptr<const PlaneDecomposition> decomposition_;
};

/// Two unknowns per cell (phi_s and phi_e of the potential step), stored
/// field-major: x = [u_0 (all cells), u_1 (all cells)]. Each field has its own
/// stencil; cell c couples its two unknowns through a local 2x2 block:
///
///   (A x)_0 = S_0 x_0 + c01 .* x_1,   (A x)_1 = c10 .* x_0 + S_1 x_1
///
/// (S_f's own diagonal holds the c00 and c11 terms).
template <class T>
class TwoFieldStencilOperator final : public LinearOperator<T> {
 public:
  /// @param c01, c10 the off-diagonal coupling of each cell's 2x2 block, num_cells values each
  TwoFieldStencilOperator(StencilOperator<T> field0, StencilOperator<T> field1, View<const T> c01, View<const T> c10);

  std::size_t size() const override { return 2 * field0_.size(); }
  const std::shared_ptr<const Executor>& executor() const override { return field0_.executor(); }
  void apply(View<const T> x, View<T> y) const override;
  bool stream_ordered() const override { return field0_.stream_ordered() && field1_.stream_ordered(); }
  /// Over both fields' owned cells when the fields are decomposed (StencilOperator::decompose()).
  const VectorSpace<T>& space() const override;

  const StencilOperator<T>& field(int f) const { return f == 0 ? field0_ : field1_; }
  const Array<T>& c01() const { return c01_; }
  const Array<T>& c10() const { return c10_; }

  template <class U>
  TwoFieldStencilOperator<U> converted() const;
  /// Decomposes both fields (StencilOperator::decompose()).
  void decompose(const std::shared_ptr<const PlaneDecomposition>& decomposition);

  /// New coefficients for both fields and the coupling (same grid and
  /// boundary kinds; no allocation): a Newton step's Jacobian.
  void update(View<const T> k0, View<const T> d0, View<const T> k1, View<const T> d1, View<const T> c01,
              View<const T> c10);
  /// As update() with the k0 and k1 of the last update: each field's
  /// diagonal alone (StencilOperator::update_diagonal()) and the coupling.
  void update_diagonals(View<const T> d0, View<const T> d1, View<const T> c01, View<const T> c10);
  /// StencilOperator::keep_face_sums() for both fields.
  void keep_face_sums();

  /// Overwrites everything with `other`'s values rounded to T (see StencilOperator::assign_converted).
  template <class U>
  void assign_converted(const TwoFieldStencilOperator<U>& other);

 private:
  template <class U>
  friend class TwoFieldStencilOperator;
  StencilOperator<T> field0_, field1_;
  Array<T> c01_, c10_;
};

}  // namespace voltaic
