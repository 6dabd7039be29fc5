#pragma once
// One 1D cell on the cell program (cell_program.hpp): what a 1D Simulation
// runs on, on either backend (a CPU thread, or one CUDA warp). The host
// calls advance() once per row (or end of an experiment step) and reads the
// clock, the fields and the checkpoint's state between calls; the program
// never sees the host's rows, fields or observer.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "solver/cell_program_data.hpp"
#include "solver/cell_totals.hpp"
#include "voltaic/core/array.hpp"
#include "voltaic/model/parameter_set.hpp"
#include "voltaic/solver/cell_layout.hpp"
#include "voltaic/solver/experiment.hpp"
#include "voltaic/solver/particle_step.hpp"
#include "voltaic/solver/simulation_options.hpp"

namespace voltaic::program {

template <bool Ageing, int Lanes>
class CellRunT;
using CellRun = CellRunT<true, kWarpLanes>;

class CellEngine {
 public:
  /// The cell's constants from `parameters` (which they validate), its slab
  /// on `exec`, its initial state (Simulation's).
  CellEngine(const ParameterSet& parameters, const SimulationOptions& options, std::shared_ptr<const Executor> exec);
  ~CellEngine();
  CellEngine(const CellEngine&) = delete;
  CellEngine& operator=(const CellEngine&) = delete;

  /// The next calls run `experiment` from its step `first` (already started
  /// when `resuming`: a checkpoint's); time, state and history go on.
  void start(const Experiment& experiment, std::size_t first, bool resuming);
  /// One call of the program: until its next row, the end of an experiment
  /// step, or the cell's end (the clock says which).
  void advance();

  /// The program over this cell on the calling thread (a CPU engine: a
  /// pack's cells, whose circuit drives them through CellRun's circuit_*).
  CellRun run_here();

  /// What the lumped cell exchanges heat with: a conductance [W/K] to a
  /// temperature [K] (its own hA and ambient; a pack adds its network's).
  /// CPU engines (the program reads its constants on the host).
  void set_surroundings(double conductance, double temperature);
  const CellConstants& constants() const { return c_; }

  ProgramClock& clock() { return k_; }
  const ProgramClock& clock() const { return k_; }
  const ProgramSettings& settings() const { return s_; }
  /// The steps of the experiment start() took, on the host.
  const std::vector<ProgramStep>& host_steps() const { return host_steps_; }
  /// `size` values of the slab from `offset` (SlabOffsets), on the host.
  std::vector<double> read(std::size_t offset, std::size_t size) const;
  /// The state arrays and their past levels as Simulation's checkpoints name
  /// them ("c_e", "c_e@0", ...: StateHistory::to_host()).
  std::map<std::string, std::vector<double>> state() const;
  /// The inverse of state(); names a missing or mis-sized array (`where`).
  void load_state(const std::map<std::string, std::vector<double>>& arrays, const char* where);
  /// The host's sums over the cell's state (lithium, films, active material,
  /// porosity), reading the slab through reader().
  const CellTotals& totals() const { return *totals_; }
  SlabRead reader() const;
  /// Each particle's lithium (CellTotals::particle_lithium).
  std::vector<double> particle_lithium() const { return totals_->particle_lithium(reader()); }
  /// The cell on the CPU (its constants, weights and counts), for what the
  /// host computes from the state: fields, lithium, physical limits.
  const CellLayout& host_layout() const { return totals_->layout(); }

 private:
  struct Level {  ///< a state array and its past levels in the slab
    const char* name;
    std::size_t live, levels, size;
    int count;  ///< of past levels: 2 or 3
  };
  std::vector<Level> levels() const;
  std::size_t level_offset(const Level& l, int i) const;
  void write(std::size_t offset, const std::vector<double>& values);
  /// Moves the host's clock to the device and back around a launch (CUDA), or runs on this thread.
  void call(bool initialise);

  std::shared_ptr<const Executor> exec_;
  ProgramSettings s_{};
  CellConstants c_{};
  ProgramClock k_{};
  Array<double> slab_;
  Array<double> functions_;  ///< the custom material functions' data, where the program reads it
  Array<double> unit_radius_;
  std::unique_ptr<ParticleDiffusion<double>> shells_;  ///< the unit-sphere mesh the program reads
  std::unique_ptr<CellTotals> totals_;
  std::vector<ProgramStep> host_steps_;
  Array<ProgramStep> steps_;
  Array<double> tables_;
  Array<CellConstants> device_constants_;  ///< CUDA: the constants and the clock in device memory
  Array<ProgramClock> device_clock_;
};

}  // namespace voltaic::program
