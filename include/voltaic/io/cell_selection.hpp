#pragma once
/// @file cell_selection.hpp
/// @brief Part of a sweep's cells, chosen by number (`voltaic sweep --cells`):
/// one sweep split over jobs or machines without MPI, each cell numbered and
/// computed as in the whole sweep (a cell's run does not depend on the other
/// cells of its batch: BatchSimulation.EveryCellIsTheCellRunAlone).

#include <cstddef>
#include <string>
#include <vector>

#include "voltaic/io/sweep_config.hpp"

namespace voltaic::io {

/// The cells `spec` names, in ascending order: comma-separated numbers and
/// FIRST:END ranges (END excluded), e.g. "0:500,742".
/// @throws InvalidArgument (its key `key`) for an empty or malformed item, a
///         number not below `num_cells`, a range with END not above FIRST, or
///         a cell named twice; the message gives the allowed range
std::vector<std::size_t> parse_cell_selection(const std::string& spec, std::size_t num_cells,
                                              const std::string& key = "--cells");

/// Keeps the cells `numbers` of `sweep` (parse_cell_selection's, against
/// sweep.cells.num_cells()): sweep.cells then holds only those cells, and
/// sweep.numbers their numbers in the whole sweep.
/// @throws InvalidArgument for an empty selection or a number outside the cells
void select_cells(SweepConfig& sweep, const std::vector<std::size_t>& numbers);

}  // namespace voltaic::io
