// parse_cell_selection / select_cells: a sweep cut to some of its cells by
// number, the numbers kept for the output files.
#include "voltaic/io/cell_selection.hpp"

#include <algorithm>
#include <cctype>
#include <string>
#include <utility>
#include <vector>

#include "voltaic/core/error.hpp"

namespace voltaic::io {

namespace {

constexpr const char* kWhere = "cell selection";

std::string trimmed(const std::string& text) {
  std::size_t first = 0, end = text.size();
  while (first < end && std::isspace(static_cast<unsigned char>(text[first]))) ++first;
  while (end > first && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
  return text.substr(first, end - first);
}

/// The cell number `text` (digits only), checked against the sweep's size.
std::size_t cell_number(const std::string& text, const std::string& item, std::size_t limit, std::size_t num_cells,
                        const std::string& key) {
  const std::string t = trimmed(text);
  const bool digits = !t.empty() && t.size() <= 18 &&
                      std::all_of(t.begin(), t.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
  const std::string allowed = "cell numbers run from 0 to " + std::to_string(num_cells - 1) +
                              " (ranges FIRST:END, END up to " + std::to_string(num_cells) + ")";
  if (!digits)
    throw InvalidArgument(key, kWhere, "'" + item + "' is not a cell number or a FIRST:END range; " + allowed);
  const std::size_t n = std::stoull(t);
  if (n > limit) throw InvalidArgument(key, kWhere, "'" + item + "' is outside the sweep's cells: " + allowed);
  return n;
}

}  // namespace

std::vector<std::size_t> parse_cell_selection(const std::string& spec, std::size_t num_cells, const std::string& key) {
  if (num_cells == 0) throw InvalidArgument(key, kWhere, "the sweep has no cells to choose from");
  std::vector<std::size_t> numbers;
  std::size_t from = 0;
  while (from <= spec.size()) {
    const std::size_t comma = std::min(spec.find(',', from), spec.size());
    const std::string item = trimmed(spec.substr(from, comma - from));
    from = comma + 1;
    if (item.empty()) throw InvalidArgument(key, kWhere, "'" + spec + "' has an empty item (write e.g. 0:500,742)");
    const std::size_t colon = item.find(':');
    if (colon == std::string::npos) {
      numbers.push_back(cell_number(item, item, num_cells - 1, num_cells, key));
      continue;
    }
    const std::size_t first = cell_number(item.substr(0, colon), item, num_cells - 1, num_cells, key);
    const std::size_t end = cell_number(item.substr(colon + 1), item, num_cells, num_cells, key);
    if (end <= first)
      throw InvalidArgument(key, kWhere, "'" + item + "' is an empty range: FIRST:END runs from FIRST to END - 1");
    for (std::size_t n = first; n < end; ++n) numbers.push_back(n);
  }
  std::sort(numbers.begin(), numbers.end());
  const auto twice = std::adjacent_find(numbers.begin(), numbers.end());
  if (twice != numbers.end())
    throw InvalidArgument(key, kWhere, "'" + spec + "' names cell " + std::to_string(*twice) + " twice");
  return numbers;
}

void select_cells(SweepConfig& sweep, const std::vector<std::size_t>& numbers) {
  const CellParameters& whole = sweep.cells;
  const std::size_t n = whole.num_cells(), p = whole.names.size();
  if (numbers.empty()) throw InvalidArgument("cells", "select_cells", "no cell selected");
  CellParameters kept{whole.names, {}};
  kept.values.reserve(numbers.size() * p);
  std::vector<std::size_t> kept_numbers;
  kept_numbers.reserve(numbers.size());
  for (const std::size_t i : numbers) {
    if (i >= n)
      throw InvalidArgument("cells", "select_cells",
                            "cell " + std::to_string(i) + " of a sweep of " + std::to_string(n) + " cells");
    const std::size_t number = sweep.numbers.empty() ? i : sweep.numbers[i];
    kept.values.insert(kept.values.end(), whole.values.begin() + i * p, whole.values.begin() + (i + 1) * p);
    kept_numbers.push_back(number);
  }
  if (sweep.total_cells == 0) sweep.total_cells = n;
  sweep.cells = std::move(kept);
  sweep.numbers = std::move(kept_numbers);
}

}  // namespace voltaic::io
