// The CSV table of a [sweep]: one header of names, then rows of numbers, every
// problem at FILE:LINE and, within a line, at its column.
#include "io/sweep_table.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <utility>
#include <vector>

#include "io/config_schema.hpp"
#include "io/config_section.hpp"
#include "io/csv_text.hpp"
#include "io/input_file.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/model/parameter_table.hpp"

namespace voltaic::io::detail {

namespace {

constexpr const char* kWhere = "voltaic::io::load_sweep_config";
constexpr const char* kAllowedHeader =
    "allowed: a first line of parameter names exactly as PyBaMM writes them, separated by commas";

class TableReader {
 public:
  TableReader(const std::string& origin, std::uint64_t max_cells) : origin_(origin), max_cells_(max_cells) {}

  void line(std::string_view text, int number) {
    line_ = number;
    text = trim_blanks(text);
    if (text.empty() || text[0] == '#') return;
    if (rows_ >= max_cells_ && !table_.cells.names.empty()) {  // only counted, to say how many there are
      ++rows_;
      return;
    }
    if (const std::string why = split_fields(text, fields_); !why.empty()) fail(why + "; allowed: CSV fields");
    if (table_.cells.names.empty()) {
      header();
    } else {
      row(text);
    }
  }

  SweepTable finish() {
    if (table_.cells.names.empty()) {
      line_ = 1;
      fail(std::string("holds no header; ") + kAllowedHeader + ", then one row of numbers per cell");
    }
    line_ = table_.header_line;
    if (rows_ == 0) fail("holds a header but no rows; allowed: one row of numbers per cell below the header");
    if (rows_ > max_cells_) {
      fail("holds " + std::to_string(rows_) + " rows, more cells than a sweep may have; allowed: at most " +
           std::to_string(max_cells_) + " rows");
    }
    return std::move(table_);
  }

 private:
  std::string column(std::size_t k) const {
    return "column " + std::to_string(k + 1) + " ('" + one_line(table_.cells.names[k]) + "')";
  }

  void header() {
    table_.header_line = line_;
    std::vector<std::string>& names = table_.cells.names;
    for (std::size_t k = 0; k < fields_.size(); ++k) {
      const std::string& name = fields_[k];
      const std::string at = "column " + std::to_string(k + 1);
      if (name.empty()) fail(at + " is empty; " + kAllowedHeader);
      if (const std::string why = not_a_parameter(name); !why.empty()) fail(at + ": " + why);
      const auto earlier = std::find(names.begin(), names.end(), name);
      if (earlier != names.end()) {
        fail(at + " repeats column " + std::to_string(earlier - names.begin() + 1) + " ('" + name +
             "'); allowed: each parameter once");
      }
      names.push_back(name);
      units_.push_back(find_parameter(name)->unit);
    }
  }

  void row(std::string_view text) {
    const std::size_t n = table_.cells.names.size();
    if (fields_.size() != n) {
      fail(excerpt(text) + " has " + std::to_string(fields_.size()) + (fields_.size() == 1 ? " field" : " fields") +
           ", the header " + std::to_string(n) + "; allowed: one number per column of the header");
    }
    const Interval finite{-HUGE_VAL, HUGE_VAL, false, false};
    for (std::size_t k = 0; k < n; ++k) {
      double v = 0.0;
      const std::string allowed = "; allowed: " + allowed_number(finite, units_[k]);
      if (!parse_number(fields_[k], v))
        fail(column(k) + ": " + excerpt(fields_[k]) + " " + why_not_a_number(fields_[k]) + allowed);
      // A value outside the parameter's range is the batch's to report, as that cell's failure.
      if (!std::isfinite(v)) fail(column(k) + ": is " + format_parameter_value(v) + allowed);
      table_.cells.values.push_back(v);
    }
    ++rows_;
  }

  [[noreturn]] void fail(const std::string& why) const {
    throw InvalidArgument(one_line(origin_) + ":" + std::to_string(line_), kWhere, why);
  }

  const std::string& origin_;
  std::uint64_t max_cells_, rows_ = 0;
  int line_ = 1;
  std::vector<std::string> fields_, units_;
  SweepTable table_;
};

}  // namespace

SweepTable parse_sweep_table(const std::string& csv_text, const std::string& origin, std::uint64_t max_cells) {
  TableReader reader(origin, max_cells);
  for_each_line(csv_text, [&](std::string_view text, int number) { reader.line(text, number); });
  return reader.finish();
}

SweepTable load_sweep_table(const std::string& path, std::uint64_t max_cells) {
  const std::string text = read_input_file(path, kMaxSweepTableBytes, kWhere,
                                           "a regular file of at most 64 MiB holding a CSV table of cells");
  return parse_sweep_table(text, path, max_cells);
}

}  // namespace voltaic::io::detail
