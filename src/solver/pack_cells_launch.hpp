#pragma once
// The CUDA side of a pack's cells (kernels/pack_cells.cu): one warp per
// cell, running CellRunT's circuit_* entry points on the cell's slab.

#include <cstddef>

#include "solver/cell_program_launch.hpp"

namespace voltaic::cuda {

enum class CircuitOp : int { start, attempt, save, restore, accept, error };

/// One operation on every cell: h and initial_dt where it takes them,
/// amps[i] the current of cell i (start, attempt), `restore_first` (attempt),
/// ok[i] (start, attempt) and error[i] (error) written for each cell.
struct CircuitCall {
  CircuitOp op = CircuitOp::save;
  double h = 0.0, initial_dt = 0.0;
  bool restore_first = false;
  const double* amps = nullptr;
  char* ok = nullptr;
  double* error = nullptr;
};

/// Runs `call` on every cell on stream 0 and waits for it.
void pack_cells_call(const CudaExecutor& exec, const program::ProgramSettings& settings, const ProgramCells& cells,
                     const CircuitCall& call);
/// Sets each cell's lumped_cooling and ambient from conductance[i] and temperature[i], on stream 0.
void pack_cells_surroundings(const CudaExecutor& exec, program::CellConstants* constants, const double* conductance,
                             const double* temperature, std::size_t count);

}  // namespace voltaic::cuda
