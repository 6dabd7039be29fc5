// The experiment-step driver of Simulation: adaptive time steps, cut-and-retry
// on solver failure, and cut-off events located inside the step.
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <utility>

#include "solver/simulation_run.hpp"
#include "voltaic/solver/simulation.hpp"

namespace voltaic {

double Simulation::event_margin(const ExperimentStep& step, const CellDrive& drive) const {
  const ElectricalParameters& limits = layout_->parameters().electrical;
  double margin = std::numeric_limits<double>::infinity();
  if (drive.mode == CellDrive::Mode::current && drive.value != 0.0) {
    // The step's own cut-off, and always the parameter set's voltage limits.
    const bool discharge = drive.value > 0.0;
    const double limit = discharge ? limits.lower_voltage_cutoff : limits.upper_voltage_cutoff;
    margin = discharge ? voltage_ - limit : limit - voltage_;
    if (step.until_voltage_v) {
      const double v = *step.until_voltage_v;
      margin = std::min(margin, discharge ? voltage_ - v : v - voltage_);
    }
  }
  if (step.until_current) {
    const double limit = std::fabs(step.until_current->amperes(limits.nominal_capacity));
    margin = std::min(margin, std::fabs(current_) - limit);
  }
  return margin;
}

// Illinois (modified regula falsi) on the step length: the margin is > 0 at
// h = 0 and <= 0 at h; each evaluation redoes the step from the saved state.
bool Simulation::locate_event(const ExperimentStep& step, const CellDrive& drive, double& h, double margin_before,
                              Solution& solution, std::string& why) {
  const double tolerance = options_.steps.event_tolerance;
  double a = 0.0, ga = margin_before, b = h, gb = event_margin(step, drive);
  int side = 0;
  for (int it = 0; it < 60 && gb < -tolerance; ++it) {
    double m = b - gb * (b - a) / (gb - ga);
    m = std::clamp(m, a + 1e-3 * (b - a), b - 1e-3 * (b - a));
    restore();
    ++solution.steps_rejected;
    if (!attempt(m, drive, why)) return false;
    const double gm = event_margin(step, drive);
    if (gm > tolerance) {  // still before the event
      a = m;
      ga = gm;
      if (side == -1) gb *= 0.5;
      side = -1;
    } else {
      b = m;
      gb = gm;
      if (side == 1) ga *= 0.5;
      side = 1;
      if (gm >= -tolerance) break;
    }
    if (b - a <= 1e-12 * std::max(1.0, b)) break;
  }
  if (side == -1) {  // the last attempt was before the event: redo the step to b
    restore();
    if (!attempt(b, drive, why)) return false;
  }
  h = b;
  return true;
}

bool Simulation::run_step(const ExperimentStep& step, RunContext& run) {
  Solution& solution = run.solution;
  const std::size_t index = cursor_.index;
  const CellDrive drive = drive_of(step);
  const StepControl& sc = options_.steps;
  std::string why;
  const auto fail = [&](const std::string& reason) {
    std::ostringstream m;
    m << describe_step(step, index) << " failed at t = " << time_ << " s: " << reason;
    solution.completed = false;
    solution.termination = m.str();
    return false;
  };
  StepCursor& c = cursor_;
  if (!std::exchange(run.resuming, false)) {  // a fresh step (a resumed one started before its checkpoint)
    if (!consistent_start(drive, why)) return fail(why);
    check_step(step, drive, index);
    record(solution, static_cast<int>(index), drive);
    report_row(run, false);
    if (event_margin(step, drive) <= 0.0) {
      solution.termination = describe_step(step, index) + " ended at its start: a cut-off is already reached";
      return true;
    }
    c.elapsed = 0.0;
    c.dt = sc.initial_dt;
    c.previous_h = 0.0;
    c.previous_dv = 0.0;
  }
  for (;;) {
    if (step.duration_s && c.elapsed >= *step.duration_s * (1.0 - 1e-12)) {
      solution.termination = describe_step(step, index) + " ended after its duration";
      return true;
    }
    const double proposed = std::min(c.dt, sc.max_dt);
    double h = proposed;
    if (step.duration_s) h = std::min(h, *step.duration_s - c.elapsed);
    h = std::min(h, next_field_time() - time_);
    const double v_before = voltage_, i_before = current_, margin_before = event_margin(step, drive);
    save();
    for (int retries = 0; !attempt(h, drive, why);) {
      restore();
      ++solution.steps_rejected;
      if (++retries > sc.max_retries || h / 4.0 < sc.min_dt) return fail(why);
      h /= 4.0;
    }
    // Error control: backward Euler's local error in the voltage (~ dt^2 V'' / 2,
    // from the last two voltage changes) and the split's lag (the relative
    // change of the reaction distribution over the step, first order in dt).
    // The lag also bounds the split's stability: a step whose lag or voltage
    // error is well above tolerance is redone shorter.
    double factor = sc.max_growth;
    const double dv = voltage_ - v_before;
    if (c.previous_h > 0.0) {
      const double estimate = 0.5 * std::fabs(dv - c.previous_dv * h / c.previous_h);
      if (estimate > 0.0) factor = std::min(factor, 0.9 * std::sqrt(sc.voltage_tolerance / estimate));
    }
    const double lag = reaction_lag();
    if (lag > 0.0) factor = std::min(factor, 0.9 * sc.reaction_tolerance / lag);
    if (factor < 0.5 && h > sc.min_dt * 4.0) {
      restore();
      ++solution.steps_rejected;
      c.dt = h * std::max(factor, 0.1);
      continue;
    }
    const bool event = event_margin(step, drive) <= 0.0;
    if (event && !locate_event(step, drive, h, margin_before, solution, why)) return fail(why);
    capacity_ah_ += 0.5 * (i_before + current_) * h / 3600.0;
    energy_wh_ += 0.5 * (i_before * v_before + current_ * voltage_) * h / 3600.0;
    time_ += h;
    c.elapsed += h;
    ++solution.steps_taken;
    const double growth = std::clamp(factor, 0.2, sc.max_growth);
    const bool clipped = h < proposed;  // by the duration or a field time: keep the proposal
    c.dt = clipped ? proposed : h * growth;
    c.previous_h = h;
    c.previous_dv = dv;
    record(solution, static_cast<int>(index), drive);
    report_row(run, !event);
    if (event) {
      solution.termination = describe_step(step, index) + " ended by a cut-off event";
      return true;
    }
  }
}

}  // namespace voltaic
