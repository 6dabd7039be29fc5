#pragma once
/// @file csv_text.hpp
/// @brief Text cells of voltaic's CSV files (RFC 4180): header names and free
/// text such as a termination message.

#include <string>
#include <vector>

namespace voltaic::io {

/// `text` as a CSV cell: quoted (quotes doubled) when it holds a separator,
/// a quote or a line break, else as it is.
std::string csv_cell(const std::string& text);

/// `text` on one line (control characters escaped as voltaic::one_line does),
/// always quoted, quotes doubled: a cell that any CSV reader takes whole and
/// that keeps a row on one line.
std::string csv_quoted_line(const std::string& text);

/// The cells of `columns` joined by commas, with the line's '\n'.
std::string csv_header_line(const std::vector<std::string>& columns);

}  // namespace voltaic::io
