#pragma once
/// @file plane_level_link.hpp
/// @brief What a plane hierarchy cut over ranks (CutPlaneMultigrid) asks of
/// the ranks on one level: fill a window's band from the cells' owners,
/// gather the owned cells of a small level to every rank, agree on a number.
/// The core library defines the interface; PlaneDecomposition::level_link
/// makes one (voltaic::mpi's BlockDecomposition over MPI).

#include <vector>

#include "voltaic/core/plane_partition.hpp"

namespace voltaic {

/// One level of a cut hierarchy as the ranks hold it: every rank owns a
/// rectangle of the level's cells (together they tile it; a rectangle may be
/// empty) and keeps a window of the level that contains its owned cells and
/// every cell within `band` of them. Window arrays are stored x fastest, then
/// y, then layers (window.nx() x window.ny() values a layer).
struct PlaneLevelLayout {
  int nx = 0, ny = 0;             ///< the whole level's cells
  std::vector<PlaneBlock> owned;  ///< every rank's owned cells, in rank order
  PlaneBlock window;              ///< this rank's window (level coordinates)
  int band = 0;                   ///< the cells beyond the owned ones that exchange() fills
};

/// Collective over the ranks: every rank calls each operation in the same
/// order with the same layer count.
class PlaneLevelLink {
 public:
  virtual ~PlaneLevelLink() = default;
  /// Fills the window's cells that lie within `band` of this rank's owned
  /// cells and are owned by another rank with their owner's values.
  virtual void exchange(double* window, int layers) const = 0;
  virtual void exchange(float* window, int layers) const = 0;
  /// The whole level (nx ny values a layer, x fastest) from every rank's
  /// owned cells, on every rank.
  virtual void gather(const double* window, int layers, double* whole) const = 0;
  virtual void gather(const float* window, int layers, float* whole) const = 0;
  /// The smallest of `value` over the ranks.
  virtual long long min(long long value) const = 0;
};

}  // namespace voltaic
