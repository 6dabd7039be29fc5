#pragma once
/// @file drive_cycle_file.hpp
/// @brief Drive-cycle tables from CSV files, as PyBaMM ships them
/// (`US06.csv`: comment lines starting with '#', then "time, value" rows).
///
/// The format: two comma-separated numbers a row, time [s] then current [A]
/// or power [W] (> 0 discharges); spaces and tabs around them are ignored,
/// as are blank lines, lines whose first non-blank character is '#', the part
/// of a line after a '#', a UTF-8 byte-order mark and a '\r' before the
/// newline. The first line that is not blank or a comment may be a header: it
/// is skipped when its first field is not a number ("Time [s],Current [A]").
/// Times start at 0 and increase strictly; at least 2 rows.

#include <cstdint>
#include <filesystem>
#include <string>

#include "voltaic/solver/drive_cycle.hpp"

namespace voltaic::io {

/// A drive-cycle file larger than this is refused before it is read: a
/// table of 64 MiB holds millions of rows, more than any drive cycle.
constexpr std::uintmax_t kMaxDriveCycleBytes = std::uintmax_t(64) << 20;

/// Reads a CSV table of (time, value) rows into a DriveCycle named `name`.
/// @throws FileError (what_failed(): "'FILE'") for a file that does not exist,
///         is a directory, a FIFO, a device or a socket (checked before it is
///         opened, so that a FIFO cannot block), cannot be opened or read, or
///         is larger than kMaxDriveCycleBytes
/// @throws InvalidArgument (what_failed(): "FILE:LINE") for a row that is not
///         exactly two numbers, a number that is not finite, a first time
///         other than 0, a time not after the one before, fewer than 2 rows,
///         and a `name` DriveCycle refuses
DriveCycle load_drive_cycle(const std::filesystem::path& file, const std::string& name);

/// The same from the text of a file; `origin` names it in errors.
/// @throws InvalidArgument as load_drive_cycle
DriveCycle parse_drive_cycle(const std::string& csv_text, const std::string& origin, const std::string& name);

}  // namespace voltaic::io
