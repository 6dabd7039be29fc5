#pragma once
/// @file checkpoint_file.hpp
/// @brief Checkpoints in HDF5: written under a temporary name and renamed, so
/// that the last complete checkpoint survives a crash during the next.

#include <string>

#include "voltaic/io/atomic_file.hpp"  // FileError
#include "voltaic/solver/checkpoint.hpp"

namespace voltaic::io {

/// Writes `c` to `path` (HDF5: /arrays/NAME datasets, /scalars/NAME,
/// /integers/NAME, /texts/NAME; a "format" attribute on the root) atomically.
/// @throws FileError when it cannot be written
void write_checkpoint(const std::string& path, const Checkpoint& c);

/// Reads a checkpoint written by write_checkpoint, every value bit for bit.
/// @throws FileError when the file cannot be opened or is not a voltaic checkpoint
Checkpoint read_checkpoint(const std::string& path);

}  // namespace voltaic::io
