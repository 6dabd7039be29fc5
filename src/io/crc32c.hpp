#pragma once
// CRC-32C (Castagnoli), as iSCSI, ext4 and Btrfs use it: checkpoints carry
// one over all their bytes, so that a flipped bit is found before HDF5
// parses the file.

#include <cstddef>
#include <cstdint>

namespace voltaic::io::detail {

/// The CRC-32C of `n` bytes continued from `crc` (0 to start): crc32c(crc32c(0,
/// a), b) is the CRC of a followed by b. crc32c(0, "123456789") = 0xE3069283.
std::uint32_t crc32c(std::uint32_t crc, const void* data, std::size_t n);

}  // namespace voltaic::io::detail
