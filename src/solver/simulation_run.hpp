#pragma once
// Simulation::Workspace (the sub-steps and the state arrays), its two
// RecordedStates and the RunContext (the state of one Simulation::run
// besides the cell's), shared by the files that implement Simulation and by
// its RunRecorder.

#include <memory>
#include <string>
#include <vector>

#include "solver/anderson_mixing.hpp"
#include "solver/cycle_summary.hpp"
#include "solver/field_output.hpp"
#include "solver/recorded_state.hpp"
#include "solver/stack_heat.hpp"
#include "solver/state_history.hpp"
#include "voltaic/solver/diffusion_step.hpp"
#include "voltaic/solver/field_catalog.hpp"
#include "voltaic/solver/lumped_thermal.hpp"
#include "voltaic/solver/particle_step.hpp"
#include "voltaic/solver/simulation.hpp"

namespace voltaic {

struct Simulation::Workspace {
  std::unique_ptr<ParticleDiffusion<double>> particles;
  std::unique_ptr<DiffusionStep<double>> electrolyte;
  std::unique_ptr<StackHeat> heat;  // the conduction model's
  std::unique_ptr<PotentialStep> potential;
  std::unique_ptr<LumpedThermal> lumped;
  std::unique_ptr<StateHistory> history;  // every state array, its past values, its checkpoint name
  // State. aj is the reaction of the last potential solve, which the next
  // concentration pass uses; c_surf the particles' surface at that reaction.
  Array<double> c_s, c_e, T, phi, aj, c_surf;
  Array<double> T_foils;  // the conduction model's foil layers: 2 nx ny values
  // A pass's inputs: the per-particle flux and D_s, the electrolyte source and
  // D_e, and each particle's surface response to a unit flux (unit_c_s, slope).
  Array<double> source, flux, ds, de, q, lithium, work;
  Array<double> q_foils;  // the foils' Joule heat [W/m^3] (conduction)
  Array<double> unit_c_s, unit_flux, slope;
  Array<double> iterate, sigma, capacity;  // the electrolyte sink's linearisation (dfn::ElectrolyteSink)
  Array<double> flags;                     // NotAbove's output
  Array<double> c_e_pass, T_pass;          // the potential step's inputs of the pass before
  // The column fields, nx ny values each (FieldState::column_fields()): the
  // negative and positive foil potentials and the current density (the 3
  // nx ny values of PotentialStep::collector_fields), then the negative
  // electrode's stoichiometry and the column-averaged temperature.
  Array<double> columns;
  CellDrive drive;                         // of the potential step's last solve (phi's): the collector fields read it
  std::unique_ptr<AndersonMixing> mixing;  // accelerates the passes through c_e
  int side_stream = 0;                     // the particles' surface response: 1 where the executor has two streams
  std::unique_ptr<Event> inputs_ready, particles_done;
};

namespace detail {

struct RunContext {
  Solution solution;
  RunObserver* observer = nullptr;
  std::vector<const FieldInfo*> streamed;  // the observer's fields, in its order
  std::unique_ptr<FieldOutput> fields;     // set when fields are streamed
  bool blocks = false;                     // a cut plane's frames and checkpoints go out as this rank's block
  std::string experiment;                  // Experiment::fingerprint() of the run's experiment
  bool resuming = false;                   // the present step continues from a checkpoint
  bool stopped = false;                    // the observer asked to stop (RunObserver::stop_reason)
  long long engine_rejected = 0;           // on the cell engine: its count of rejected steps at the last call
  // On the cell engine: the running cycle's tally of its rows, and its rows
  // where it keeps none (save_at_cycles) until it ends; both in checkpoints.
  program::CycleTally cycle_tally;
  Solution held;
  bool cycling_resumed = false;  // the checkpoint resumed held them and the summaries before
};

}  // namespace detail

/// The field solvers' state: StateHistory's arrays and the workspace's.
class Simulation::FieldState final : public RecordedState {
 public:
  FieldState(const CellLayout& layout, Workspace& w) : l_(layout), w_(w) {}
  std::map<std::string, std::vector<double>> arrays() const override;
  void load_arrays(const std::map<std::string, std::vector<double>>& arrays, const char* where) override;
  double newton_constant() const override;
  void set_newton_constant(double c) override;
  void temperatures(double lumped, double& mean, double& lo, double& hi) const override;
  double lithium() const override;
  std::map<std::string, std::vector<double>> fields() const override;
  void fill(const std::vector<const FieldInfo*>& streamed, const std::vector<View<double>>& frame,
            bool blocks) override;

 private:
  /// The array behind a field_catalog() key (per cell, per particle, or per
  /// column: those are computed by column_fields(), which must run first).
  View<const double> source(const std::string& key) const;
  /// Computes the column fields of the present state into w.columns (on stream 0).
  void column_fields() const;

  const CellLayout& l_;
  Workspace& w_;
};

/// A 1D cell's state: the cell engine's slab, read between its calls.
class Simulation::EngineState final : public RecordedState {
 public:
  /// `step_index`: the Simulation's (CellClock::index); `exec` copies into streamed frames.
  EngineState(program::CellEngine& engine, const std::size_t& step_index, const Executor& exec)
      : e_(engine), step_index_(step_index), exec_(exec) {}
  std::map<std::string, std::vector<double>> arrays() const override;
  void load_arrays(const std::map<std::string, std::vector<double>>& arrays, const char* where) override;
  double newton_constant() const override;
  void set_newton_constant(double c) override;
  double lithium() const override;
  std::map<std::string, std::vector<double>> fields() const override;
  void fill(const std::vector<const FieldInfo*>& streamed, const std::vector<View<double>>& frame,
            bool blocks) override;

 private:
  /// A field of the present state on the host: per cell where `on_cells`
  /// (a particle field put on the cells), else as the snapshot holds it.
  std::vector<double> field(const FieldInfo& info, bool on_cells) const;

  program::CellEngine& e_;
  const std::size_t& step_index_;
  const Executor& exec_;
};

}  // namespace voltaic
