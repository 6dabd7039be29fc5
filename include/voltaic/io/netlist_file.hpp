#pragma once
/// @file netlist_file.hpp
/// @brief Pack netlists from files, as liionpack reads and writes them
/// (docs/config.md, [pack] netlist): LTspice's `.cir` netlists (UTF-16 or
/// UTF-8 text, one element a line: `desc node1 node2 value`), or a CSV of
/// the columns desc, node1, node2, value (pandas' `netlist.to_csv()`, other
/// columns ignored).
///
/// Lines starting with '*' (comments) or '.' (commands) and blank lines are
/// skipped, as is the part of a line after a '#'. Nodes are integers >= 0,
/// optionally after an N (LTspice's N001); 0 is ground. Values are numbers,
/// with SPICE's scale suffixes (f p n u m k meg g t, any case: 1m is 1e-3).
/// An element's kind is its name's first letter (NetlistElement, pack.hpp).

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "voltaic/solver/pack.hpp"

namespace voltaic::io {

/// A netlist larger than this is refused before it is read (millions of elements).
constexpr std::uintmax_t kMaxNetlistBytes = std::uintmax_t(64) << 20;

/// Reads a netlist file; its elements keep their lines (the wiring is checked by check_netlist()).
/// @throws FileError (what_failed(): "'FILE'") for what cannot be opened or
///         read as a regular file of at most kMaxNetlistBytes
/// @throws InvalidArgument (what_failed(): "FILE:LINE") for a line that is
///         not an element: too few fields, a node or a value that is not one
std::vector<NetlistElement> load_netlist(const std::filesystem::path& file);

/// The same from a file's text; `origin` names it in errors.
/// @throws InvalidArgument as load_netlist
std::vector<NetlistElement> parse_netlist(const std::string& text, const std::string& origin);

}  // namespace voltaic::io
