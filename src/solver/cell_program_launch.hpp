#pragma once
// The CUDA side of the batch cell program (kernels/cell_program.cu): one
// thread per cell, each running cell_program.hpp's CellRun on its own slab.

#include <cstddef>

#include "solver/cell_program_data.hpp"

namespace voltaic {
class CudaExecutor;
}

namespace voltaic::cuda {

/// The arrays of `count` cells in device memory: cell i's constants, clock and slab.
struct ProgramCells {
  const program::CellConstants* constants;
  program::ProgramClock* clocks;
  double* slabs;  ///< settings.o.total doubles per cell
  std::size_t count;
};

/// Copies `per_cell` doubles per cell from `host` (cell-major) to the start
/// of each cell's slab (`slab` doubles apart).
void cell_program_upload(const CudaExecutor& exec, const double* host, std::size_t per_cell, std::size_t slab,
                         const ProgramCells& cells);
/// Copies each cell's row buffer (`rows` values from `offset` in its slab) to
/// `host`, cell-major; waits for the copy.
void cell_program_rows(const CudaExecutor& exec, const ProgramCells& cells, std::size_t offset, std::size_t slab,
                       int rows, double* host);
/// Sets every cell's initial state (CellRun::initialise) on stream 0.
void cell_program_initialise(const CudaExecutor& exec, const program::ProgramSettings& settings,
                             const ProgramCells& cells);
/// Advances every running cell until it ends or its row buffer is full
/// (CellRun::advance), after emptying the buffer; asynchronous on stream 0.
void cell_program_advance(const CudaExecutor& exec, const program::ProgramSettings& settings,
                          const ProgramCells& cells);

}  // namespace voltaic::cuda
