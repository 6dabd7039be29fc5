#pragma once
// The CUDA side of the batch cell program (kernels/cell_program.cu): one
// block of two warps a cell, running cell_program.hpp's CellRun on the cell's own slab.

#include <cstddef>

#include "solver/cell_program_data.hpp"

namespace voltaic {
class CudaExecutor;
}

namespace voltaic::cuda {

/// The arrays of `count` cells in device memory: cell i's constants, clock
/// and slab (settings.o.total doubles from slabs + i total).
struct ProgramCells {
  const program::CellConstants* constants;
  program::ProgramClock* clocks;
  double* slabs;
  std::size_t count;
};

/// Copies `per_cell` doubles per cell from `host` (cell-major) to the start
/// of each cell's slab (`slab` doubles apart); waits for the copy.
void cell_program_upload(const CudaExecutor& exec, const double* host, std::size_t per_cell, const ProgramCells& cells,
                         std::size_t slab);
/// Copies `values` doubles from `offset` in each cell's slab to `host`,
/// cell-major; waits for the copy.
void cell_program_gather(const CudaExecutor& exec, const ProgramCells& cells, std::size_t offset, std::size_t values,
                         std::size_t slab, double* host);
/// Sets every cell's initial state (CellRun::initialise) on stream 0.
void cell_program_initialise(const CudaExecutor& exec, const program::ProgramSettings& settings,
                             const ProgramCells& cells);
/// Advances every running cell until it ends or its row buffer is full
/// (CellRun::advance), after emptying the buffer; asynchronous on stream 0.
void cell_program_advance(const CudaExecutor& exec, const program::ProgramSettings& settings,
                          const ProgramCells& cells);

}  // namespace voltaic::cuda
