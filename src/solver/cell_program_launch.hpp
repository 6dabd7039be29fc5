#pragma once
// The CUDA side of the batch cell program (kernels/cell_program.cu): one
// thread per cell, each running cell_program.hpp's CellRun on its own slab.

#include <cstddef>

#include "solver/cell_program_data.hpp"

namespace voltaic {
class CudaExecutor;
}

namespace voltaic::cuda {

/// The arrays of `count` cells in device memory: cell i's constants and
/// clock, and the cells' arrays side by side (element e of cell i's array at
/// offset o at slabs[(o + e) count + i]).
struct ProgramCells {
  const program::CellConstants* constants;
  program::ProgramClock* clocks;
  double* slabs;  ///< settings.o.total x count doubles
  std::size_t count;
};

/// Copies `count` values `stride` doubles apart from device memory at
/// `first` to `host`; waits for the copy.
void cell_program_column(const CudaExecutor& exec, const double* first, std::size_t stride, std::size_t count,
                         double* host);
/// Sets every cell's initial state (CellRun::initialise) on stream 0.
void cell_program_initialise(const CudaExecutor& exec, const program::ProgramSettings& settings,
                             const ProgramCells& cells);
/// Advances every running cell until it ends or its row buffer is full
/// (CellRun::advance), after emptying the buffer; asynchronous on stream 0.
void cell_program_advance(const CudaExecutor& exec, const program::ProgramSettings& settings,
                          const ProgramCells& cells);

}  // namespace voltaic::cuda
