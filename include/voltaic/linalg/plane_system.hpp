#pragma once
/// @file plane_system.hpp
/// @brief The in-plane system of a pouch cell's two current-collector foils:
/// PlaneGrid, the coefficients (PlaneSystem) and the operator (PlaneOperator).

#include <array>
#include <cstddef>
#include <memory>

#include "voltaic/core/array.hpp"
#include "voltaic/core/executor.hpp"
#include "voltaic/core/view.hpp"
#include "voltaic/linalg/linear_operator.hpp"
#include "voltaic/linalg/plane_decomposition.hpp"

namespace voltaic {

/// nx x ny cells of uniform size dx x dy in the x-y plane of a pouch cell;
/// cell c = i + nx j.
class PlaneGrid {
 public:
  /// @throws InvalidArgument naming the first size < 1 or spacing that is not finite and > 0
  PlaneGrid(int nx, int ny, double dx, double dy);
  /// The block of a larger plane whose first cell is that plane's cell
  /// (first_i, first_j): positions are the larger plane's, so that every
  /// geometric term of a cell has the bits the whole plane gives it.
  PlaneGrid(int nx, int ny, double dx, double dy, int first_i, int first_j);

  int nx() const { return nx_; }
  int ny() const { return ny_; }
  double dx() const { return dx_; }
  double dy() const { return dy_; }
  int first_i() const { return first_i_; }
  int first_j() const { return first_j_; }
  std::size_t num_cells() const { return static_cast<std::size_t>(nx_) * static_cast<std::size_t>(ny_); }
  std::size_t index(int i, int j) const { return static_cast<std::size_t>(i) + static_cast<std::size_t>(nx_) * j; }
  bool operator==(const PlaneGrid& o) const {
    return nx_ == o.nx_ && ny_ == o.ny_ && dx_ == o.dx_ && dy_ == o.dy_ && first_i_ == o.first_i_ &&
           first_j_ == o.first_j_;
  }
  bool operator!=(const PlaneGrid& o) const { return !(*this == o); }

 private:
  int nx_, ny_;
  double dx_, dy_;
  int first_i_ = 0, first_j_ = 0;
};

/// The four edges of the plane, in the order PlaneSystem stores them.
enum class PlaneEdge { x_lo, x_hi, y_lo, y_hi };

/// Which fraction, in [0, 1], of each boundary face of one field a Dirichlet
/// tab (potential 0) covers. All zero for a field without a tab.
template <class T>
struct PlaneEdges {
  View<const T> x_lo, x_hi;  ///< ny values each: the faces at x = 0 and x = nx dx, by row j
  View<const T> y_lo, y_hi;  ///< nx values each: the faces at y = 0 and y = ny dy, by column i
};

/// Each cell's 2x2 block [[b00, b01], [b10, b11]] coupling its two unknowns
/// (nx ny values each; in use symmetric positive semi-definite, g [[1, -1], [-1, 1]]).
template <class T>
struct PlaneBlocks {
  View<const T> b00, b01, b10, b11;
};

/// The coefficients of the two-foil system, on one executor. Unknowns
/// u[f][c] (f = 0 the negative foil, 1 the positive one), field-outer:
/// u = [u_0 (nx ny values) | u_1 (nx ny values)]. Cell-centred finite volumes:
///
///   (A u)_{f,c} = sum over interior faces  G_f (u_{f,c} - u_{f,nb})
///               + sum over boundary faces  D_f u_{f,c}
///               + B_{f0,c} u_{0,c} + B_{f1,c} u_{1,c}
///
/// with G_f = k_f dy / dx on x faces and k_f dx / dy on y faces (k_f the
/// foil's conductivity times thickness [S], uniform), and on a boundary face
/// of length len (dy on x edges, dx on y edges) of which a fraction w is
/// covered by a tab D_f = 2 k_f w len / h (h the cell's width normal to the
/// edge). A is symmetric positive definite when the blocks are symmetric
/// positive semi-definite and some field has a tab.
///
/// Stored: the coverage, per field x_lo (ny), x_hi (ny), y_lo (nx), y_hi
/// (nx); the per-cell sum of D (2 nx ny values, field-outer); the blocks
/// (4 nx ny values, b00, b01, b10, b11 outer); and the per-direction
/// geometry the kernels read (cell widths and inverse centre distances).
template <class T>
class PlaneSystem {
 public:
  /// @param k k_0 and k_1 [S], each finite and > 0
  /// @param dirichlet0, dirichlet1 each field's tab coverage, each value finite and in [0, 1]
  /// @param blocks the per-cell 2x2 blocks, each value finite
  /// @throws SizeMismatch, ExecutorMismatch, InvalidArgument naming the argument (and the face or cell)
  PlaneSystem(const PlaneGrid& grid, std::shared_ptr<const Executor> exec, std::array<double, 2> k,
              const PlaneEdges<T>& dirichlet0, const PlaneEdges<T>& dirichlet1, const PlaneBlocks<T>& blocks);

  /// New blocks (same grid, k and coverage); checked first, so a rejected
  /// update leaves the old ones. No allocation.
  void update_blocks(View<const T> b00, View<const T> b01, View<const T> b10, View<const T> b11);

  const PlaneGrid& grid() const { return grid_; }
  const std::shared_ptr<const Executor>& executor() const { return exec_; }
  double k(int field) const { return k_[field == 0 ? 0 : 1]; }
  const std::array<double, 2>& k() const { return k_; }
  /// One field's coverage of one edge (ny values on x edges, nx on y edges).
  View<const T> coverage(int field, PlaneEdge edge) const;
  /// The per-cell Dirichlet diagonal of field f: sum over the cell's boundary faces of D_f.
  View<const T> dirichlet_diagonal(int field) const;
  /// b00, b01, b10, b11 (nx ny values each) one after another.
  const Array<T>& blocks() const { return blocks_; }
  /// wx (nx), ax (nx), wy (ny), ay (ny): cell widths and 1 / (centre distance
  /// to the next cell), 0 for the last cell of a row or column.
  const Array<T>& geometry() const { return geometry_; }

  /// The same system with every value rounded to U (k stays as it is).
  template <class U>
  PlaneSystem<U> converted() const;
  /// Overwrites the blocks with `other`'s rounded to T (same grid; no
  /// allocation, no host wait): refreshes an FP32 copy.
  template <class U>
  void assign_converted_blocks(const PlaneSystem<U>& other);

 private:
  template <class U>
  friend class PlaneSystem;
  PlaneSystem(const PlaneGrid& grid, std::shared_ptr<const Executor> exec, std::array<double, 2> k);
  std::size_t edge_offset(int field, PlaneEdge edge) const;

  PlaneGrid grid_;
  std::shared_ptr<const Executor> exec_;
  std::array<double, 2> k_{};
  Array<T> coverage_;   ///< per field: x_lo, x_hi, y_lo, y_hi
  Array<T> dirichlet_;  ///< 2 nx ny
  Array<T> blocks_;     ///< 4 nx ny
  Array<T> geometry_;   ///< 2 nx + 2 ny
};

/// y = A x for a PlaneSystem (size 2 nx ny). One CUDA thread per cell, both
/// fields. Each interior face adds G (x_c - x_nb), the difference first, so
/// that a nearly constant field (the positive foil without a tab) loses no
/// digits to cancellation.
///
/// Memory per apply: reads x (2 values per cell, neighbours from cache), the
/// Dirichlet diagonal (2) and the blocks (4), writes y (2): 10 values per cell.
template <class T>
class PlaneOperator final : public LinearOperator<T> {
 public:
  explicit PlaneOperator(PlaneSystem<T> system);
  /// Builds the system (PlaneSystem's constructor) and the operator.
  PlaneOperator(const PlaneGrid& grid, std::shared_ptr<const Executor> exec, std::array<double, 2> k,
                const PlaneEdges<T>& dirichlet0, const PlaneEdges<T>& dirichlet1, const PlaneBlocks<T>& blocks);

  std::size_t size() const override { return 2 * system_.grid().num_cells(); }
  const std::shared_ptr<const Executor>& executor() const override { return system_.executor(); }
  void apply(View<const T> x, View<T> y) const override;
  /// Whole, or cut with a stream-ordered exchange (PlaneDecomposition::stream_ordered()).
  bool stream_ordered() const override;

  /// New 2x2 blocks, nx ny values each (checked: sizes, memory space, finite). No allocation.
  void update_blocks(View<const T> b00, View<const T> b01, View<const T> b10, View<const T> b11);

  /// Makes this the operator of a rank's ghosted block of a cut plane (the
  /// grid is the block's, ghosts included): apply() then fills x's ghosts
  /// first (a plane is small beside the cells behind it: nothing to hide the
  /// exchange behind) and zeroes y's; space() sums the owned columns of
  /// every rank. x's ghosts are scratch. Null: the whole plane.
  /// @throws SizeMismatch when the grid is not the block's
  void decompose(std::shared_ptr<const PlaneDecomposition> decomposition);
  const VectorSpace<T>& space() const override;

  const PlaneSystem<T>& system() const { return system_; }
  const PlaneGrid& grid() const { return system_.grid(); }

  /// The same operator with values rounded to U (GMRES-IR's FP32 inner solves).
  template <class U>
  PlaneOperator<U> converted() const;
  /// Overwrites the blocks with `other`'s rounded to T (same grid; no allocation).
  template <class U>
  void assign_converted(const PlaneOperator<U>& other);

 private:
  PlaneSystem<T> system_;
  std::shared_ptr<const PlaneDecomposition> decomposition_;
};

}  // namespace voltaic
