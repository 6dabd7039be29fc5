#pragma once
// A pack's cells where they run (pack_simulation.cpp drives them): on CPU
// engines one after another, or on a GPU a warp per cell, every operation a
// launch over all cells (kernels/pack_cells.cu). Each cell runs CellRunT's
// circuit_* entry points on its own state; the host keeps a copy of every
// clock (voltage, current, temperature, heat, failure) after each call.

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "solver/cell_program_data.hpp"
#include "voltaic/core/executor.hpp"
#include "voltaic/model/parameter_set.hpp"
#include "voltaic/solver/simulation_options.hpp"

namespace voltaic::pack {

class PackCells {
 public:
  virtual ~PackCells() = default;
  std::size_t count() const { return constants_.size(); }
  const program::ProgramSettings& settings() const { return settings_; }
  /// Cell k's constants as built (before any set_surroundings) and its clock after the last call.
  const program::CellConstants& constants(std::size_t k) const { return constants_[k]; }
  virtual const program::ProgramClock& clock(std::size_t k) const = 0;

  /// Every cell's consistent start under amps[k]; ok[k] 0 where it failed.
  virtual void start(const std::vector<double>& amps, double initial_dt, std::vector<char>& ok) = 0;
  /// Every cell's attempt of h under amps[k] (from the saved state: after
  /// restoring it first where `restore_first`); ok[k] 0 where it failed.
  virtual void attempt(double h, const std::vector<double>& amps, bool restore_first, std::vector<char>& ok) = 0;
  virtual void save() = 0;
  virtual void restore() = 0;
  virtual void accept(double h) = 0;
  /// Every cell's local error of its attempt of h (<= 1 accepts; < 0 without an estimate).
  virtual void errors(double h, std::vector<double>& out) = 0;
  /// Each lumped cell's surroundings: a conductance [W/K] to a temperature [K].
  virtual void set_surroundings(const std::vector<double>& conductance, const std::vector<double>& temperature) = 0;

 protected:
  program::ProgramSettings settings_{};
  std::vector<program::CellConstants> constants_;
};

/// `cells` as a pack's cells on `exec` (CPU: CellEngines; CUDA: one
/// slab array on the device, cells without degradation). `name(k)` names
/// cell k in errors.
/// @throws InvalidArgument naming the cell for a non-physical one; for
///         degradation on a GPU (packs of ageing cells run on the CPU)
std::unique_ptr<PackCells> make_pack_cells(const std::vector<ParameterSet>& cells, const SimulationOptions& options,
                                           const std::shared_ptr<const Executor>& exec,
                                           const std::function<std::string(std::size_t)>& name);

}  // namespace voltaic::pack
