#pragma once
// CSV text (RFC 4180) as voltaic reads and writes it: lines, fields, numbers
// and excerpts for messages of the tables it reads (drive cycles, the cells
// of [sweep]); quoted cells of the files it writes (timeseries, summaries).

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace voltaic::io::detail {

/// `s` without spaces, tabs, '\r', '\v' and '\f' at either end.
std::string_view trim_blanks(std::string_view s);

/// The whole of `s` as a number (a leading '+' allowed), in the C locale's
/// spelling whatever the process's locale is; "nan" and "inf" parse (the
/// caller refuses them with its own message).
bool parse_number(std::string_view s, double& value);

/// "is not a number", or for a decimal beyond a double's range (1e400,
/// 1e-400) "is beyond a double's range ...": the end of a message about a
/// cell `s` that parse_number() refused.
std::string why_not_a_number(std::string_view s);

/// `s` quoted for a message: on one line and cut after 60 characters.
std::string excerpt(std::string_view s);

/// The comma-separated fields of `line`, each without blanks at its ends. A
/// field may be double-quoted, its text then kept as it is, commas included,
/// "" standing for a quote. Returns "" or why the line does not split (a
/// quote not closed, text after a closing quote), naming the column.
std::string split_fields(std::string_view line, std::vector<std::string>& fields);

/// Calls `on_line(text, number)` for each line of `text` (number from 1),
/// without its line end (LF, CRLF, or a CR alone as a classic Mac file has
/// them, as spreadsheets and pandas read them), and without a UTF-8
/// byte-order mark at the start.
template <class OnLine>
void for_each_line(std::string_view text, OnLine&& on_line) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  int number = 1;
  for (std::size_t start = 0; start < text.size(); ++number) {
    const std::size_t end = text.find_first_of("\r\n", start);
    const std::size_t stop = end == std::string_view::npos ? text.size() : end;
    on_line(text.substr(start, stop - start), number);
    const bool crlf = stop + 1 < text.size() && text[stop] == '\r' && text[stop + 1] == '\n';
    start = stop + (crlf ? 2 : 1);
  }
}

}  // namespace voltaic::io::detail

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
