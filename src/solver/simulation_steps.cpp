// The experiment-step driver of Simulation: adaptive time steps, cut-and-retry
// on solver failure, and cut-off events located inside the step.
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <utility>
#include <vector>

#include "solver/bdf2.hpp"
#include "solver/cell_engine.hpp"
#include "solver/failure_cause.hpp"
#include "solver/run_recorder.hpp"
#include "solver/simulation_run.hpp"
#include "solver/step_control.hpp"
#include "solver/step_limits.hpp"
#include "voltaic/solver/simulation.hpp"

namespace voltaic {

stepping::Ends Simulation::ends_of(const ExperimentStep& step, const StepDrive& drive) const {
  const ElectricalParameters& limits = layout_->parameters().electrical;
  stepping::Ends e;
  e.voltage_control = drive.mode == StepDrive::Mode::voltage;
  e.lower_cutoff = limits.lower_voltage_cutoff;
  e.upper_cutoff = limits.upper_voltage_cutoff;
  e.has_until_voltage = step.until_voltage_of_cell().has_value();
  e.until_voltage = step.until_voltage_of_cell().value_or(0.0);
  e.has_until_current = step.until_current.has_value();
  if (step.until_current) e.until_current = std::fabs(step.until_current->amperes(limits.nominal_capacity));
  return e;
}

stepping::Margins Simulation::margins(const ExperimentStep& step, const StepDrive& drive) const {
  const CellClock& k = clock();
  const stepping::Side side = stepping::side(bool(drive.table), drive.value, k.current, k.until_below);
  return stepping::margins(ends_of(step, drive), side, k.voltage, k.current);
}

double Simulation::event_margin(const ExperimentStep& step, const StepDrive& drive) const {
  const stepping::Margins m = margins(step, drive);
  return std::fmin(m.cell, m.own);
}

std::string Simulation::cell_limit_reached(const ExperimentStep& step, const StepDrive& drive) const {
  const stepping::Margins m = margins(step, drive);
  if (!(m.cell < m.own)) return "";
  const ElectricalParameters& limits = layout_->parameters().electrical;
  const bool discharge = stepping::side(bool(drive.table), drive.value, clock().current, false).value > 0.0;
  std::ostringstream out;
  out << (discharge ? "lower" : "upper") << " voltage cut-off, "
      << (discharge ? limits.lower_voltage_cutoff : limits.upper_voltage_cutoff) << " V,";
  return out.str();
}

// Simulation's cell as the shared step control sees it (step_control.hpp):
// its attempts under one step's drive, the solver's reason for the last
// failure, and the run's count of rejected attempts.
struct Simulation::SteppedCell {
  Simulation& sim;
  const ExperimentStep& step;
  const StepDrive& drive;
  Solution& solution;
  std::string why;

  bool attempt(double h) { return sim.attempt(h, drive, why); }
  void restore() { sim.restore(); }
  void reject() { ++solution.steps_rejected; }
  double local_error(double h) const { return sim.local_error(h, drive.mode == StepDrive::Mode::voltage); }
  int last_order() const { return sim.clock().last_order; }
  double event_margin() const { return sim.event_margin(step, drive); }
  void save() { sim.save(); }
  void accept(double h) { sim.accept(h); }
};

std::string Simulation::physical_limit_reached() const {
  if (engine_) {
    const program::SlabOffsets& o = engine_->settings().o;
    return physical_limit(engine_->read(o.c_e, layout_->num_cells()), engine_->read(o.c_surf, layout_->num_particles()),
                          *layout_);
  }
  const Executor& e = *layout_->executor();
  const auto to_host = [&](const Array<double>& a) {
    std::vector<double> host(a.size());
    e.copy(host.data(), MemorySpace::host(), a.data(), a.space(), a.size() * sizeof(double));
    return host;
  };
  try {
    return physical_limit(to_host(w_->c_e), to_host(w_->c_surf), *layout_);
  } catch (const Error&) {  // a device that fails here has failed the step already: its reason stands
    return "";
  }
}

bool Simulation::run_step(const ExperimentStep& step, RunContext& run) {
  Solution& solution = run.solution;
  CellClock& k = clock();
  const std::size_t index = k.index;
  const StepDrive drive = drive_of(step);
  const StepControl& sc = options_.steps;
  std::string why;
  const auto fail = [&](const std::string& reason) {
    std::ostringstream m;
    const std::string cause = physical_limit_reached();
    m << describe_step(step, index) << " failed at t = " << clock().time
      << " s: " << (cause.empty() ? reason : cause + " (the solver: " + reason + ")");
    solution.completed = false;
    solution.termination = m.str();
    return false;
  };
  if (!std::exchange(run.resuming, false)) {  // a fresh step (a resumed one started before its checkpoint)
    if (!consistent_start(drive, why)) return fail(why);
    k.until_below = step.until_voltage_of_cell() && clock().voltage > *step.until_voltage_of_cell();
    recorder_->record(solution, static_cast<int>(index));
    recorder_->report_row(run, false);
    // As PyBaMM, a step that starts at or past its cut-off is infeasible: the run stops there.
    if (const std::string infeasible = infeasibility(step, drive); !infeasible.empty()) {
      solution.completed = false;
      solution.termination = describe_step(step, index) + " is infeasible: " + infeasible;
      return false;
    }
    k.start_step(sc.initial_dt);
  }
  const stepping::StepLimits limits = step_limits(sc);
  const double duration = step.duration_s.value_or(std::numeric_limits<double>::infinity());
  const stepping::DriveTable rows = drive.table ? drive.table->table() : stepping::DriveTable{};
  for (;;) {
    SteppedCell cell{*this, step, drive, solution, {}};
    const stepping::Advanced a = stepping::advance(cell, k, limits, duration, recorder_->next_field_time() - k.time,
                                                   drive.table ? &rows : nullptr);
    switch (a.outcome) {
      case stepping::Advance::duration: {
        solution.termination = describe_step(step, index) + " ended after its duration";
        if (step.default_duration) {
          std::ostringstream m;
          m << describe_step(step, index) << " ended after its default duration of " << *step.duration_s
            << " s at t = " << k.time << " s, before its 'until' condition (a step without 'for' lasts at most "
            << "2 / |C| hours at a C-rate, else a day, as in PyBaMM)";
          solution.notes.push_back(m.str());
        }
        return true;
      }
      case stepping::Advance::solver_failed: return fail(cell.why);
      case stepping::Advance::error_stuck: return fail(local_error_failure(a.tried.error, a.tried.h));
      case stepping::Advance::accepted:
      case stepping::Advance::event: break;
    }
    const bool event = a.outcome == stepping::Advance::event;
    ++solution.steps_taken;
    recorder_->record(solution, static_cast<int>(index));
    recorder_->report_row(run, !event);
    if (run.stopped) return false;
    if (event) {
      solution.termination = describe_step(step, index) + " ended by a cut-off event";
      if (const std::string limit = cell_limit_reached(step, drive); !limit.empty()) {
        std::ostringstream m;
        m << describe_step(step, index) << " stopped at the cell's " << limit << " at t = " << k.time << " s, after "
          << k.elapsed << " s, before its own end (PyBaMM lets a step run 1 V past the cell's cut-offs, then ends "
          << "the experiment)";
        solution.notes.push_back(m.str());
      }
      return true;
    }
    if (stepping::stalled(k, a.h, a.at_boundary, limits.min_dt, limits.max_dt, limits.max_steps))
      return fail(stall_reason(k.free_steps, a.h, sc.min_dt, sc.max_dt, sc.max_steps));
  }
}

}  // namespace voltaic
