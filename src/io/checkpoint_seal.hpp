#pragma once
// The checksum header of checkpoint files. A checkpoint is an HDF5 file
// with a 512-byte user block (bytes HDF5 itself skips) that holds, as text:
//
//   voltaic-checkpoint-2\n
//   crc32c XXXXXXXX\n            (8 lower-case hex digits)
//   bytes NNNNNNNNNNNNNNNNNNNN\n (20 decimal digits: the file's size)
//
// and NUL bytes to 512. The CRC-32C covers the whole file, this header
// included with its 8 digits read as "00000000", so that every byte is
// checked: a checkpoint is verified before HDF5 parses a byte of it.

#include <cstddef>
#include <string>

namespace voltaic::io::detail {

/// The user block's size (HDF5 wants a power of two >= 512).
constexpr std::size_t kCheckpointHeaderBytes = 512;
/// The first line of the header, also the root's "format" attribute.
constexpr const char* kCheckpointFormat = "voltaic-checkpoint-2";

/// Writes the header into the user block of the closed HDF5 file `path`,
/// and flushes the file to disk.
/// @throws FileError (via `fail`) when it cannot be read or written
void seal_checkpoint(const std::string& path);

/// Refuses, before HDF5 opens it, a `path` that is not a regular file, has
/// no valid header, a size other than its header's or a CRC-32C other than
/// its header's.
/// @throws FileError naming `path` and what is wrong
void verify_checkpoint(const std::string& path);

}  // namespace voltaic::io::detail
