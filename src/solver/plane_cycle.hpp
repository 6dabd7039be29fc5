#pragma once
// The 2D V-cycle of the solver's plane problems (the foils' Schur complement,
// the heat step's column correction) on a rank's block, however the plane is
// held: whole (no cut), gathered to every rank and run whole (a cut plane on
// one rank, or a GPU's below kCutOnDeviceCells), or cut over the ranks
// (CutPlaneMultigrid: several CPU ranks, or GPUs on a large plane). Every
// mode gives the whole plane's bits.

#include <memory>

#include "voltaic/core/array.hpp"
#include "voltaic/linalg/cut_plane_multigrid.hpp"
#include "voltaic/linalg/plane_decomposition.hpp"
#include "voltaic/linalg/plane_multigrid.hpp"

namespace voltaic {

class PlaneCycle {
 public:
  /// Planes of at least this many cells (2048 x 2048) cut on GPUs; below
  /// it the whole plane is gathered to every GPU (32 M values of a V-cycle's
  /// r, z and blocks at this size). The cut cycle's exchanges are staged
  /// through host memory, about 70 a V-cycle at 1040 x 1040: two ranks
  /// sharing an H200 took 19.3-20.7 ms a cycle cut against 4.5-5.3
  /// gathered (docs/performance.md, "Twenty-sixth and twenty-seventh
  /// sessions"). An estimate, not yet timed on several GPUs.
  static constexpr std::size_t kCutOnDeviceCells = std::size_t(1) << 22;
  /// Whether a plane of `plane_cells` cells cut by `cut` runs the cut V-cycle
  /// (on GPUs from `cut_on_device_cells` cells on).
  static bool cuts(const PlaneDecomposition& cut, std::size_t plane_cells,
                   std::size_t cut_on_device_cells = kCutOnDeviceCells);

  /// @param whole the whole plane's system (grid, k, tab coverage); its
  ///        blocks are the first ones until update() brings others
  /// @param cut the plane's decomposition, or null
  /// @param cut_on_device_cells the plane size from which GPUs cut (cuts())
  PlaneCycle(const PlaneSystem<double>& whole, std::shared_ptr<const PlaneDecomposition> cut,
             PlaneMultigridOptions options = {}, std::size_t cut_on_device_cells = kCutOnDeviceCells);
  /// Whether this cycle runs cut over the ranks (else whole or gathered).
  bool cut() const { return split_ != nullptr; }

  /// New blocks: b00 | b01 | b10 | b11, each a field of the block (ghosted
  /// on a cut plane).
  void update(View<const double> blocks);
  /// New blocks [[d, 0], [0, d]] from one field d of the block.
  void update_diagonal(View<const double> d);
  /// One V-cycle: z = M^{-1} r, two fields of the block each (z's ghosts
  /// written on a cut plane).
  void apply(View<const double> r, View<double> z) const;
  /// Kernels and stream-ordered exchanges only (never with the cut cycle's MPI).
  bool stream_ordered() const;

 private:
  /// Values of one field of the block.
  std::size_t field() const;
  void update_blocks(View<const double> b00, View<const double> b01, View<const double> b10, View<const double> b11);

  std::shared_ptr<const PlaneDecomposition> cut_;
  std::shared_ptr<const Executor> exec_;
  std::unique_ptr<PlaneMultigrid<double>> whole_;     ///< not cut, or gathered
  std::unique_ptr<CutPlaneMultigrid<double>> split_;  ///< cut over the ranks
  std::size_t plane_ = 0;                             ///< the whole plane's cells
  Array<double> zeros_;                               ///< a field of the block (update_diagonal)
  Array<double> blocks_;                              ///< gathered: the whole plane's blocks
  mutable Array<double> r_, z_;                       ///< gathered: the whole plane's r and z
};

}  // namespace voltaic
