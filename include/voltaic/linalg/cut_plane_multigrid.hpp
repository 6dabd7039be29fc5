#pragma once
/// @file cut_plane_multigrid.hpp
/// @brief PlaneMultigrid's V-cycle on a plane cut over ranks: each rank
/// smooths, restricts and prolongs its own cells of every large level; only
/// the small coarse levels are gathered and solved whole on every rank.

#include <array>
#include <cstddef>
#include <memory>
#include <vector>

#include "voltaic/core/array.hpp"
#include "voltaic/linalg/plane_decomposition.hpp"
#include "voltaic/linalg/plane_multigrid.hpp"

namespace voltaic {

/// The V-cycle of PlaneMultigrid over the ranks of a PlaneDecomposition,
/// with the whole plane's bits: z on every rank's cells is what
/// PlaneMultigrid gives on the whole plane for the whole r.
///
/// Levels of more than kPlaneFusedCells cells are cut: level l's cell C (in
/// a coarsened direction) belongs to the rank owning fine cell 2C, so a rank
/// whose fine cells are [a, b) owns coarse cells [ceil(a/2), ceil(b/2)). Each
/// rank keeps a window of each cut level (its cells and kBand more on each
/// side) and runs the cell operations of plane_ops.hpp on its own cells
/// only; the cells of the window that other ranks own are exchanged after
/// every step that changes them (each half-sweep, the residual, the
/// prolongation): about 2 (nu1 + nu2) + 2 exchanges a level. The first
/// level of at most kPlaneFusedCells cells (the coarsest when every level is
/// larger) is gathered to every rank and run whole, with the coarser ones, by
/// a PlaneMultigrid of those levels: its memory and work do not grow with
/// the plane. Red-black colours follow the whole level's (i + j), so each
/// cell is updated from the same values in the same order as on one rank.
///
/// The arrays are the executor's, on either backend (the decomposition's
/// memory space); the link's exchanges and gathers move the bands and the
/// tail (PlaneDecomposition::level_link). Every call is collective over the
/// decomposition's ranks.
template <class T>
class CutPlaneMultigrid {
 public:
  /// Cells beyond a rank's own that its window holds on each side: the
  /// transposed bilinear restriction reads fine cells 2C - 2 .. 2C + 3.
  static constexpr int kBand = 3;

  /// @param system the whole plane's system: its grid, k and tab coverage
  ///        (its blocks are not read; update() brings the ranks' blocks)
  /// @param cut the ranks' blocks of that plane, in host memory
  /// @throws InvalidArgument when an option is out of range, the system's
  ///         executor does not hold the decomposition's arrays, or the
  ///         system's plane is not the decomposition's
  CutPlaneMultigrid(const PlaneSystem<T>& system, std::shared_ptr<const PlaneDecomposition> cut,
                    PlaneMultigridOptions options = {});
  ~CutPlaneMultigrid();
  CutPlaneMultigrid(const CutPlaneMultigrid&) = delete;
  CutPlaneMultigrid& operator=(const CutPlaneMultigrid&) = delete;

  /// New blocks, each a field of the decomposition's ghosted block (one
  /// layer; only the owned cells are read).
  /// @throws InvalidArgument on every rank, naming the whole plane's cell,
  ///         when a block value is not finite or a diagonal block (or the
  ///         coarsest LU) is rejected, as PlaneMultigrid::update does
  void update(View<const T> b00, View<const T> b01, View<const T> b10, View<const T> b11);
  /// One V-cycle: z = M^{-1} r, both ghosted fields of two layers; z's owned
  /// cells and its ghosts are written.
  /// @throws InvalidArgument before the first update() and after a rejected one
  void apply(View<const T> r, View<T> z) const;

  /// Ghosted values of one field (r and z hold two).
  std::size_t ghosted_cells() const;
  /// Levels of the whole hierarchy, and how many of them are cut (the rest
  /// are replicated on every rank).
  int num_levels() const;
  int cut_levels() const;

 private:
  struct Level;
  void copy_owned_in(const T* ghosted, int layers, T* window) const;
  void copy_out(const T* window, int layers, T* ghosted) const;
  void smooth(const Level& l, int sweeps, bool down) const;
  void restrict_to(std::size_t l) const;
  void prolong_from(std::size_t l) const;
  /// Throws on every rank when some rank reported `bad` (a window index of level l, or -1).
  void agree(std::size_t l, long long bad, const char* what) const;

  std::shared_ptr<const PlaneDecomposition> cut_;
  PlaneMultigridOptions options_;
  std::array<double, 2> k_{};
  std::vector<std::unique_ptr<Level>> levels_;  ///< the cut levels and the replicated tail's first
  std::unique_ptr<PlaneMultigrid<T>> tail_;     ///< the replicated levels
  int num_levels_ = 0;
  bool ready_ = false;                              ///< the last update() succeeded
  mutable Array<T> tail_r_, tail_z_, tail_blocks_;  ///< the tail's first level, whole
  Array<unsigned long long> first_bad_;             ///< the inversions' report (plane_kernels.hpp)
};

}  // namespace voltaic
