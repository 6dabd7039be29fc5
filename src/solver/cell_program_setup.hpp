#pragma once
// The host side of the cell program (cell_program.hpp) that a batch
// (cell_program_batch.cpp) and a single cell (cell_engine.cpp) share.

#include <cstddef>
#include <string>
#include <vector>

#include "solver/cell_program_data.hpp"
#include "voltaic/model/parameter_set.hpp"
#include "voltaic/solver/cell_layout.hpp"
#include "voltaic/solver/experiment.hpp"
#include "voltaic/solver/simulation_options.hpp"

namespace voltaic::program {

/// The experiment as the program runs it: one cycle's steps, and their drive
/// cycles' rows into `tables` (each table once: times, then values).
std::vector<ProgramStep> compile_experiment(const Experiment& experiment, std::vector<double>& tables);

/// Lays the arrays of one cell out in its slab: the constant arrays first
/// (the host writes them), then the state, the work arrays and a buffer of
/// rows_per_call rows. The SEI's, the plating's, the loss of active
/// material's and the stress-induced diffusion's arrays only where `d` runs them.
SlabOffsets slab_offsets(std::size_t n, std::size_t P, std::size_t R, int rows_per_call,
                         const DegradationOptions& d = {});

/// Doubles of a slab the host writes: the constant arrays.
std::size_t constant_doubles(const SlabOffsets& o);

/// The constants of one cell, laid out on the CPU (`layout`, which validated
/// its parameters), and its slab's constant arrays (`statics`,
/// constant_doubles() values). `function_copy`: where the program reads the
/// custom material functions' data (`functions`, which every cell must
/// share). Throws voltaic::Error for a non-physical set (naming `where` for
/// functions that differ).
CellConstants cell_constants(const CellLayout& layout, const SimulationOptions& options, const SlabOffsets& o,
                             const std::vector<double>& functions, const double* function_copy, double* statics,
                             const char* where);

/// The SEI constants of a cell of `p` under `d` (none: the model is off).
/// @throws InvalidArgument as check_degradation()
sei::Constants sei_constants(const DegradationOptions& d, const ParameterSet& p, double negative_surface_area);
/// The plating constants of `p` under `d` (the model "none" when off).
/// @throws InvalidArgument as check_degradation
plating::Constants plating_constants(const DegradationOptions& d, const ParameterSet& p, double negative_surface_area);
/// The loss of active material's constants of `p` for `d` (none when off).
lam::Constants lam_constants(const DegradationOptions& d, const ParameterSet& p);
/// The porosity change's constants of `p` for `d` and the cell's films (off without one).
porosity::Constants porosity_constants(const DegradationOptions& d, const ParameterSet& p, const sei::Constants& sei,
                                       const plating::Constants& plating);
/// The stress-induced diffusion's constants of `p` for `d` (off where it does not run).
stress_diffusion::Constants stress_diffusion_constants(const DegradationOptions& d, const ParameterSet& p);

/// The settings `options` make for a cell of options.grid, its slab laid
/// out (slab_offsets); the steps, tables, shell mesh and step counts are the
/// caller's to set.
ProgramSettings settings_for(const SimulationOptions& options, int rows_per_call);

/// Why an attempt failed, in Simulation's words.
std::string failure_text(const ProgramClock& k, const ProgramSettings& s);

}  // namespace voltaic::program
