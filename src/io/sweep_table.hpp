#pragma once
// The cells of a [sweep] of method "table": a CSV file whose first line names
// the parameters (PyBaMM names) and whose rows are the cells.

#include <cstdint>
#include <string>

#include "voltaic/solver/batch_simulation.hpp"

namespace voltaic::io::detail {

/// A table of a few million cells is tens of MiB; a larger file is a mistake.
constexpr std::uintmax_t kMaxSweepTableBytes = std::uintmax_t(64) << 20;

struct SweepTable {
  CellParameters cells;  ///< names in the header's order
  int header_line = 1;
};

/// Blank lines and lines whose first non-blank character is '#' are skipped;
/// fields may be double-quoted; a UTF-8 byte-order mark and '\r' are ignored.
/// @throws InvalidArgument (what_failed(): "FILE:LINE") for a header field that
///         is empty, no parameter (the nearest is named) or repeated, a row
///         whose field count differs from the header's, a field that is not a
///         finite number (named by column), no rows, or more than `max_cells` rows
SweepTable parse_sweep_table(const std::string& csv_text, const std::string& origin, std::uint64_t max_cells);

/// The same from a file (a regular file of at most kMaxSweepTableBytes).
/// @throws FileError for a file that cannot be read
/// @throws InvalidArgument as parse_sweep_table
SweepTable load_sweep_table(const std::string& path, std::uint64_t max_cells);

}  // namespace voltaic::io::detail
