#pragma once
// Simulation::Workspace (the sub-steps and the state arrays) and
// Simulation::RunContext (the state of one Simulation::run besides the
// cell's), shared by the files that implement Simulation.

#include <memory>
#include <string>
#include <vector>

#include "solver/anderson_mixing.hpp"
#include "solver/cycle_summary.hpp"
#include "solver/field_output.hpp"
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
  // The column fields, nx ny values each (Simulation::column_fields()): the
  // negative and positive foil potentials and the current density (the 3
  // nx ny values of PotentialStep::collector_fields), then the negative
  // electrode's stoichiometry and the column-averaged temperature.
  Array<double> columns;
  CellDrive drive;                         // of the potential step's last solve (phi's): the collector fields read it
  std::unique_ptr<AndersonMixing> mixing;  // accelerates the passes through c_e
  int side_stream = 0;                     // the particles' surface response: 1 where the executor has two streams
  std::unique_ptr<Event> inputs_ready, particles_done;
};

struct Simulation::RunContext {
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

}  // namespace voltaic
