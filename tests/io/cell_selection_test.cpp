// parse_cell_selection and select_cells: `voltaic sweep --cells`, a sweep cut
// to some of its cells, each keeping its number in the whole sweep.
#include "voltaic/io/cell_selection.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "voltaic/core/error.hpp"

namespace voltaic::io {
namespace {

using Numbers = std::vector<std::size_t>;

/// The message parse_cell_selection refuses `spec` with ("" when it does not).
std::string refusal(const std::string& spec, std::size_t cells) {
  try {
    parse_cell_selection(spec, cells);
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.what_failed(), "--cells");
    return e.why();
  }
  return "";
}

TEST(CellSelection, NumbersAndRangesComeInAscendingOrder) {
  EXPECT_EQ(parse_cell_selection("3", 10), (Numbers{3}));
  EXPECT_EQ(parse_cell_selection("0:3", 10), (Numbers{0, 1, 2}));
  EXPECT_EQ(parse_cell_selection("8:10, 5 ,0:2", 10), (Numbers{0, 1, 5, 8, 9}));
  EXPECT_EQ(parse_cell_selection(" 9 ", 10), (Numbers{9}));
  EXPECT_EQ(parse_cell_selection("0:10", 10).size(), 10u);
}

TEST(CellSelection, RefusesWhatNamesNoCellOfTheSweep) {
  EXPECT_NE(refusal("10", 10).find("'10' is outside the sweep's cells: cell numbers run from 0 to 9"),
            std::string::npos);
  EXPECT_NE(refusal("5:11", 10).find("outside the sweep's cells"), std::string::npos);
  EXPECT_NE(refusal("10:10", 10).find("outside the sweep's cells"), std::string::npos);
  EXPECT_NE(refusal("4:4", 10).find("'4:4' is an empty range"), std::string::npos);
  EXPECT_NE(refusal("6:2", 10).find("empty range"), std::string::npos);
  EXPECT_NE(refusal("", 10).find("has an empty item"), std::string::npos);
  EXPECT_NE(refusal("1,,2", 10).find("has an empty item"), std::string::npos);
  EXPECT_NE(refusal("1,", 10).find("has an empty item"), std::string::npos);
  EXPECT_NE(refusal("-1", 10).find("'-1' is not a cell number or a FIRST:END range"), std::string::npos);
  EXPECT_NE(refusal("1e3", 10).find("is not a cell number"), std::string::npos);
  EXPECT_NE(refusal("0:", 10).find("is not a cell number"), std::string::npos);
  EXPECT_NE(refusal("1:2:3", 10).find("is not a cell number"), std::string::npos);
  EXPECT_NE(refusal("99999999999999999999", 10).find("is not a cell number"), std::string::npos);
  EXPECT_NE(refusal("0:5,4", 10).find("names cell 4 twice"), std::string::npos);
  EXPECT_NE(refusal("0", 0).find("no cells"), std::string::npos);
}

TEST(CellSelection, KeepsTheChosenCellsWithTheirNumbers) {
  SweepConfig sweep;
  sweep.cells.names = {"a", "b"};
  for (int i = 0; i < 6; ++i) sweep.cells.values.insert(sweep.cells.values.end(), {1.0 * i, 10.0 * i});
  select_cells(sweep, parse_cell_selection("1,4:6", 6));
  EXPECT_EQ(sweep.cells.names, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(sweep.cells.values, (std::vector<double>{1, 10, 4, 40, 5, 50}));
  EXPECT_EQ(sweep.numbers, (Numbers{1, 4, 5}));
  EXPECT_EQ(sweep.total_cells, 6u);
  EXPECT_EQ(sweep.number(1), 4u);
  // Cut again: numbers stay the whole sweep's.
  select_cells(sweep, Numbers{2});
  EXPECT_EQ(sweep.cells.values, (std::vector<double>{5, 50}));
  EXPECT_EQ(sweep.numbers, (Numbers{5}));
  EXPECT_EQ(sweep.total_cells, 6u);
  EXPECT_THROW(select_cells(sweep, Numbers{1}), InvalidArgument);
  EXPECT_THROW(select_cells(sweep, Numbers{}), InvalidArgument);
}

}  // namespace
}  // namespace voltaic::io
