#pragma once
// Host-side geometry of the plane hierarchy (internal), computed once in
// double when a PlaneSystem or a PlaneMultigrid is built: cell edges per
// direction, the covered length of each boundary face, and from them the
// arrays the kernels read (plane_ops.hpp). Level 0 of a multigrid hierarchy
// and the operator use the same functions, so their coefficients are the
// same numbers.

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "plane_kernels.hpp"
#include "voltaic/core/array.hpp"
#include "voltaic/linalg/plane_system.hpp"

namespace voltaic::plane {

/// One direction of a level: the n + 1 cell edges [m].
struct Axis {
  std::vector<double> edges;
  int cells() const { return static_cast<int>(edges.size()) - 1; }
  double width(int i) const { return edges[i + 1] - edges[i]; }
  double centre(int i) const { return 0.5 * (edges[i] + edges[i + 1]); }
};

/// n cells of width h, the first at `first` h (a block of a longer axis has its positions).
Axis uniform_axis(int n, double h, int first = 0);
/// Cells paired from the first: coarse cell I spans fine cells 2I and 2I + 1
/// (the last alone when n is odd).
Axis coarsened(const Axis& fine);

/// The Dirichlet conductance D [S] of each boundary face of one field: x_lo,
/// x_hi by row, y_lo, y_hi by column.
struct BoundaryFaces {
  std::vector<double> x_lo, x_hi, y_lo, y_hi;
};

/// From a field's coverage on level 0: D = 2 k w len / h.
BoundaryFaces boundary_faces(const Axis& x, const Axis& y, double k, const std::vector<double>& x_lo,
                             const std::vector<double>& x_hi, const std::vector<double>& y_lo,
                             const std::vector<double>& y_hi);
/// A system's faces of one field on level 0 (its coverage read to the host).
template <class T>
BoundaryFaces faces_of(const PlaneSystem<T>& s, int field, const Axis& x, const Axis& y);
/// The coarse level's faces. A coarse face gathers the fine faces it covers
/// (in parallel: their D summed, S), and where the direction normal to it was
/// coarsened, the coarse cell's centre lies further from the wall than the
/// fine boundary cells' centres, by d = (h_coarse - h_fine) / 2: that strip
/// of foil is in series, D = 1 / (1 / S + d / (k len)), len the coarse face.
BoundaryFaces coarsened(const BoundaryFaces& fine, const Axis& fine_x, const Axis& fine_y, const Axis& coarse_x,
                        const Axis& coarse_y, bool coarsen_x, bool coarsen_y, double k);

/// wx, ax, wy, ay (plane_ops.hpp's Level::geometry) rounded to T.
template <class T>
std::vector<T> geometry_values(const Axis& x, const Axis& y);
/// Each cell's sum of D over its boundary faces, field-outer, rounded to T.
template <class T>
std::vector<T> dirichlet_values(const Axis& x, const Axis& y, const std::array<BoundaryFaces, 2>& faces);
/// The interpolation of one transfer (Transfer::index and Transfer::weight).
void transfer_values(const Axis& fine_x, const Axis& fine_y, const Axis& coarse_x, const Axis& coarse_y, bool coarsen_x,
                     bool coarsen_y, std::vector<int>& index, std::vector<double>& weight);

/// One level of a multigrid hierarchy on the host, as PlaneMultigrid and
/// CutPlaneMultigrid load it (the whole level's values; a cut one slices them).
template <class T>
struct HostLevel {
  int nx = 0, ny = 0;
  bool coarsen_x = false, coarsen_y = false;  ///< how this level was made from the finer one
  std::vector<T> geometry, dirichlet;         ///< geometry_values, dirichlet_values
  std::vector<int> transfer_index;            ///< from the finer level (empty on level 0)
  std::vector<T> transfer_weight;
  std::size_t cells() const { return static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny); }
};

/// The levels of PlaneMultigrid's hierarchy from level 0's axes and faces:
/// each next level halves every direction of more than kPlaneCoarsest cells,
/// until both have at most kPlaneCoarsest.
template <class T>
std::vector<HostLevel<T>> hierarchy(Axis x, Axis y, std::array<BoundaryFaces, 2> faces, std::array<double, 2> k);

/// Checks that the four block views hold n values each in exec's memory and
/// are finite (one device pass, one word read back); throws naming the first
/// bad argument and cell.
template <class T>
void check_blocks(const Executor& exec, const PlaneGrid& grid, View<const T> b00, View<const T> b01, View<const T> b10,
                  View<const T> b11, const std::string& where);

/// The level-0 view of a system, for the kernels.
template <class T>
Level<T> level_of(const PlaneSystem<T>& s);

}  // namespace voltaic::plane
