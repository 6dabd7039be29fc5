#include "csv_text.hpp"

#include "voltaic/core/error.hpp"

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
