// A 1D Simulation on the cell engine (cell_engine.hpp): the engine runs the
// step control and the sub-steps; this file keeps what Simulation::run_step
// keeps for a 3D cell (the rows, the observer, fields, checkpoints, notes
// and endings, in the same words), reading the state between engine calls.
#include <sstream>

#include "solver/cell_engine.hpp"
#include "solver/cell_program_setup.hpp"
#include "solver/cycle_summary.hpp"
#include "solver/dfn_point.hpp"
#include "solver/failure_cause.hpp"
#include "solver/run_recorder.hpp"
#include "solver/simulation_run.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/solver/simulation.hpp"

namespace voltaic {

bool Simulation::on_cell_engine(const SimulationOptions& o, const PlaneDecomposition* decomposition) {
  return !decomposition && o.grid.nx == 1 && o.grid.ny == 1 && o.thermal != ThermalModel::conduction &&
         o.grid.collectors == CurrentCollectorModel::uniform;
}

void Simulation::take_engine_clock(long long step_index, RunContext& run) {
  const program::ProgramClock& k = engine_->clock();
  static_cast<stepping::Clock&>(clock()) = k;
  clock().index = static_cast<std::size_t>(step_index);
  run.solution.steps_rejected += static_cast<int>(k.steps_rejected - run.engine_rejected);
  run.engine_rejected = k.steps_rejected;
  // The engine was built with this Simulation: its counters are the Simulation's work.
  work_.attempts = k.attempts;
  work_.concentration_passes = k.passes;
  work_.electrolyte_iterations = k.electrolyte_solves;
  work_.potential_solves = k.potential_solves;
  work_.newton_iterations = k.newton_iterations;
}

void Simulation::run_on_engine(const Experiment& experiment, RunContext& run, std::size_t first) {
  program::CellEngine& e = *engine_;
  program::ProgramClock& k = e.clock();
  static_cast<stepping::Clock&>(k) = clock();  // a checkpoint's, or where the last run ended
  e.start(experiment, first, std::exchange(run.resuming, false));
  run.engine_rejected = k.steps_rejected;  // the Solution counts this run's (and a checkpoint's)
  Solution& solution = run.solution;
  const std::size_t cycle = experiment.cycle().size();
  const auto cycles_done = [&] { return static_cast<int>(k.step / static_cast<long long>(cycle)); };
  int summarised = cycles_done();
  if (run.cycling_resumed && static_cast<int>(solution.cycles.size()) != summarised)
    throw InvalidArgument("checkpoint", "Simulation::run",
                          "holds " + std::to_string(solution.cycles.size()) + " cycle summaries, but its step index " +
                              std::to_string(k.step) + " ends " + std::to_string(summarised) + " cycles");
  program::CycleTally& tally = run.cycle_tally;
  // A row of step `index`: in the cycle's tally always; in the Solution (and
  // so to the observer) where its cycle keeps its rows (PyBaMM's
  // save_at_cycles), else held until the cycle ends, and kept if the run
  // ends in it (as PyBaMM keeps the cycle it stops in).
  Solution& held = run.held;
  struct KeepHeld {
    Solution &held, &to;
    ~KeepHeld() { to.take_rows(held); }
  } keep{held, solution};
  const auto row = [&](long long index, bool may_checkpoint) {
    tally.add(k.time, k.current, k.voltage);
    const int n = static_cast<int>(index / static_cast<long long>(cycle)) + 1;
    recorder_->record(experiment.saving().saved(n, experiment.cycles()) ? solution : held, static_cast<int>(index));
    recorder_->report_row(run, may_checkpoint);
  };
  for (;;) {
    if (cycles_done() > summarised) {  // the last call ended a cycle, and its last row is in
      summarised = cycles_done();
      solution.cycles.push_back(program::summarise_cycle(tally, e.totals(), e.reader(), summarised));
      tally = program::CycleTally{};
      if (experiment.termination().any() && summarised < experiment.cycles()) {
        const std::string why = program::cycling_ended(experiment.termination(), solution.cycles);
        if (!why.empty()) {
          solution.termination = why;
          return;
        }
      }
      held = Solution{};  // a cycle that keeps no rows
    }
    const long long index = k.step;
    const bool started = k.step_started;
    k.next_output = recorder_->next_field_time();
    e.advance();
    take_engine_clock(index, run);
    if (k.ending == program::Ending::completed) return;
    const ExperimentStep& step = experiment.step(static_cast<std::size_t>(index) % cycle);
    if (k.ending == program::Ending::failed_step) {
      std::ostringstream m;
      const std::string reason = program::failure_text(k, e.settings()), cause = physical_limit_reached();
      m << describe_step(step, static_cast<std::size_t>(index)) << " failed at t = " << k.time
        << " s: " << (cause.empty() ? reason : cause + " (the solver: " + reason + ")");
      solution.completed = false;
      solution.termination = m.str();
      return;
    }
    const bool ended = k.step != index;
    if (!started) {  // a fresh step's consistent start, and whether it can run
      row(index, false);
      if (k.ending != program::Ending::running) {
        solution.completed = false;
        solution.termination = describe_step(step, static_cast<std::size_t>(index)) +
                               " is infeasible: " + infeasibility(step, drive_of(step));
        return;
      }
      continue;
    }
    if (k.rows == 0) {  // the step lasted its duration
      solution.termination = describe_step(step, static_cast<std::size_t>(index)) + " ended after its duration";
      if (step.default_duration) {
        std::ostringstream m;
        m << describe_step(step, static_cast<std::size_t>(index)) << " ended after its default duration of "
          << *step.duration_s << " s at t = " << k.time
          << " s, before its 'until' condition (a step without 'for' lasts at most "
          << "2 / |C| hours at a C-rate, else a day, as in PyBaMM)";
        solution.notes.push_back(m.str());
      }
      continue;
    }
    ++solution.steps_taken;
    row(index, !ended);
    if (run.stopped) return;
    if (!ended) continue;
    solution.termination = describe_step(step, static_cast<std::size_t>(index)) + " ended by a cut-off event";
    if (const std::string limit = cell_limit_reached(step, drive_of(step)); !limit.empty()) {
      std::ostringstream m;
      m << describe_step(step, static_cast<std::size_t>(index)) << " stopped at the cell's " << limit
        << " at t = " << k.time << " s, after " << k.elapsed
        << " s, before its own end (PyBaMM lets a step run 1 V past the "
        << "cell's cut-offs, then ends the experiment)";
      solution.notes.push_back(m.str());
    }
  }
}

}  // namespace voltaic
