#include "io/csv_text.hpp"

#include <algorithm>
#include <charconv>
#include <system_error>

#include "voltaic/core/error.hpp"
#include "voltaic/io/atomic_file.hpp"

namespace voltaic::io::detail {

std::string_view trim_blanks(std::string_view s) {
  const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; };
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && blank(s.back())) s.remove_suffix(1);
  return s;
}

namespace {

/// `s` without a leading '+' (from_chars takes none), unless "+-" follows.
std::string_view without_plus(std::string_view s) {
  if (s.size() > 1 && s[0] == '+' && s[1] != '-') s.remove_prefix(1);
  return s;
}

}  // namespace

bool parse_number(std::string_view s, double& value) {
  s = without_plus(s);
  if (s.empty()) return false;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  return ec == std::errc() && end == s.data() + s.size();
}

std::string why_not_a_number(std::string_view s) {
  s = without_plus(s);
  double value = 0.0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (!s.empty() && ec == std::errc::result_out_of_range && end == s.data() + s.size())
    return "is beyond a double's range (magnitudes from about 4.9e-324 to 1.8e308)";
  return "is not a number";
}

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/// The quoted field that starts at line[i] (the quote); moves i past its closing quote.
std::string quoted_field(std::string_view line, std::size_t& i, std::string& why) {
  const std::size_t open = i++;
  std::string field;
  for (;;) {
    if (i >= line.size()) {
      why = "the quote at column " + std::to_string(open + 1) + " is not closed";
      return field;
    }
    if (line[i] == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      field += '"';
      i += 2;
    } else if (line[i] == '"') {
      ++i;
      return field;
    } else {
      field += line[i++];
    }
  }
}

}  // namespace

std::string split_fields(std::string_view line, std::vector<std::string>& fields) {
  fields.clear();
  std::string why;
  for (std::size_t i = 0;; ++i) {  // i at the start of a field, then at its comma
    while (i < line.size() && is_blank(line[i])) ++i;
    if (i < line.size() && line[i] == '"') {
      fields.push_back(quoted_field(line, i, why));
      if (!why.empty()) return why;
      while (i < line.size() && is_blank(line[i])) ++i;
      if (i < line.size() && line[i] != ',') return "text after the closing quote at column " + std::to_string(i + 1);
    } else {
      const std::size_t comma = std::min(line.find(',', i), line.size());
      fields.emplace_back(trim_blanks(line.substr(i, comma - i)));
      i = comma;
    }
    if (i >= line.size()) return "";
  }
}

std::string excerpt(std::string_view s) {
  std::string text = one_line(std::string(s.substr(0, 60)));
  return "'" + text + (s.size() > 60 ? "...'" : "'");
}

}  // namespace voltaic::io::detail

namespace voltaic::io {

namespace {

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace

std::string csv_cell(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  return quoted(text);
}

std::string csv_quoted_line(const std::string& text) { return quoted(one_line(text)); }

std::string csv_header_line(const std::vector<std::string>& columns) {
  std::string line;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (i > 0) line += ',';
    line += csv_cell(columns[i]);
  }
  return line + '\n';
}

}  // namespace voltaic::io
