#pragma once
/// @file checkpoint.hpp
/// @brief Checkpoint: everything a Simulation needs to continue a run and end
/// in bitwise the same state as if it had never stopped (io/checkpoint_file.hpp
/// stores it in HDF5).

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "voltaic/core/plane_partition.hpp"

namespace voltaic {

/// Named values, copied exactly. Which names a Simulation writes is its own
/// business; a reader only stores and returns them.
struct Checkpoint {
  std::map<std::string, std::vector<double>> arrays;  ///< state fields and time-series columns
  std::map<std::string, double> scalars;
  std::map<std::string, std::int64_t> integers;
  std::map<std::string, std::string> texts;
};

/// The columns a checkpoint's state arrays ("state/NAME") cover when they
/// are not the whole plane's: columns [i_begin, i_end) x [j_begin, j_end) of
/// a plane_nx x plane_ny plane, x fastest, then y, then the array's layers.
/// A rank of a cut plane writes its owned block (RunObserver::takes_blocks);
/// a reader assembling pieces gives a rank its ghosted block.
struct CheckpointWindow {
  int plane_nx = 0, plane_ny = 0;
  PlaneBlock columns;
  bool operator==(const CheckpointWindow& o) const {
    return plane_nx == o.plane_nx && plane_ny == o.plane_ny && columns.i_begin == o.columns.i_begin &&
           columns.i_end == o.columns.i_end && columns.j_begin == o.columns.j_begin && columns.j_end == o.columns.j_end;
  }
  bool operator!=(const CheckpointWindow& o) const { return !(*this == o); }
  /// True when the window is the whole plane.
  bool whole() const {
    return columns.i_begin == 0 && columns.j_begin == 0 && columns.i_end == plane_nx && columns.j_end == plane_ny;
  }
  /// "columns [0, 16) x [0, 32) of 64 x 64".
  std::string describe() const;
};

/// The window recorded in `c` (integers "window ..."); none: the whole plane's.
/// @throws InvalidArgument when the recorded window is not inside its plane
std::optional<CheckpointWindow> window_of(const Checkpoint& c);
/// Records `w` in `c`.
void set_window(Checkpoint& c, const CheckpointWindow& w);
/// Removes the window `c` records.
void clear_window(Checkpoint& c);

}  // namespace voltaic
