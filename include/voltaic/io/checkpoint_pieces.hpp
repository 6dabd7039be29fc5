#pragma once
/// @file checkpoint_pieces.hpp
/// @brief A checkpoint of a plane cut over ranks, written per rank: each
/// rank writes its piece (its owned block's state arrays), rank 0 a manifest
/// (everything else, and where each piece lies). read_checkpoint_for()
/// assembles any rank's block of the state from the pieces that overlap it,
/// so a checkpoint written on 4 ranks continues on 2 (or 1) and no rank reads
/// the whole plane's state. Pieces come in two generations, so that the
/// manifest, renamed last, always names complete pieces: a crash while a
/// checkpoint is written leaves the one before it.

#include <string>
#include <vector>

#include "voltaic/io/atomic_file.hpp"  // FileError
#include "voltaic/solver/checkpoint.hpp"

namespace voltaic::io {

/// Rank `rank`'s piece of generation `generation` (0 or 1), beside the
/// manifest: checkpoint.h5 -> checkpoint.g0.rank-3.h5.
std::string checkpoint_piece_path(const std::string& manifest, int generation, int rank);

/// Writes the state arrays of `piece` (a rank's checkpoint holding its owned
/// block: Simulation with RunObserver::takes_blocks), its window, time and
/// step index, atomically.
/// @throws InvalidArgument when `piece` records no window
/// @throws FileError when it cannot be written
void write_checkpoint_piece(const std::string& path, const Checkpoint& piece);

/// Writes the manifest atomically: `c` (rank 0's piece) without its state
/// arrays and window, and for each rank its piece's file name (in the
/// manifest's directory) and window. Write it once every piece is written.
/// @throws FileError when it cannot be written
void write_checkpoint_manifest(const std::string& path, const Checkpoint& c, const std::vector<std::string>& pieces,
                               const std::vector<CheckpointWindow>& windows);

/// The pieces' file names a manifest lists (none for a whole checkpoint).
/// @throws FileError when the list is malformed
std::vector<std::string> checkpoint_pieces(const Checkpoint& manifest, const std::string& path);

/// The checkpoint at `path` for a run whose state covers `window`
/// (Simulation::state_window()). A whole checkpoint (write_checkpoint) comes
/// back as it is written. From a manifest, the state arrays of `window` are
/// assembled from the pieces that overlap it, each checked to belong to the
/// manifest (time and step bits) and to cover its columns exactly once.
/// @throws FileError when a file cannot be read, a piece is missing or
/// belongs to another checkpoint, or the pieces do not tile the window
Checkpoint read_checkpoint_for(const std::string& path, const CheckpointWindow& window);

}  // namespace voltaic::io
