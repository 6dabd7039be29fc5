#pragma once
// The step control of one cell, written once for Simulation (on the host) and
// the batch cell program (a CPU worker or a CUDA warp): the formula's order,
// the error test's cut and growth, the retries of one time step, the split's
// convergence test and Illinois event location. The caller supplies the cell
// as a small adapter (attempt, restore, local error, event margin); nothing
// here allocates or words a message, so both engines take the same decisions
// from the same values, bit for bit.

#include <cmath>

#include "solver/bdf2.hpp"
#include "voltaic/core/macros.hpp"
#include "voltaic/solver/drive_table.hpp"
#include "voltaic/solver/step_clock.hpp"

namespace voltaic::stepping {

/// 2 (BDF2) when three accepted values are at hand and h is at most 2.4
/// times the step before (zero-stability), else 1 (backward Euler).
VOLTAIC_HD inline int order_for(int history, double h, double h1) { return history >= 3 && h <= 2.4 * h1 ? 2 : 1; }

/// The factor a step whose local error is `error` (> 1) times the tolerance
/// is cut by before it is redone: 0.9 error^(-1/(order + 1)) within [0.1, 0.9].
VOLTAIC_HD inline double cut_factor(double error, int order) {
  return bdf::quantised(fmin(fmax(0.9 * pow(error, -1.0 / (order + 1)), 0.1), 0.9));
}

/// The factor the next step grows by after an accepted one: within [0.2,
/// max_growth]; max_growth without an estimate (error < 0).
VOLTAIC_HD inline double growth_factor(double error, int order, double max_growth) {
  if (error < 0.0) return max_growth;
  return bdf::quantised(fmin(fmax(0.9 * pow(fmax(error, 1e-10), -1.0 / (order + 1)), 0.2), max_growth));
}

/// The next step's size after an accepted step of h proposed as `proposed`:
/// a step clipped short (by a duration, a field time, a table row) keeps
/// its proposal.
VOLTAIC_HD inline double next_dt(double h, double proposed, bool clipped, double growth) {
  return clipped ? fmax(proposed, h * growth) : h * growth;
}

/// The split's contraction grows with the step (its coupling acts over h),
/// so a rate measured at a shorter step predicts in proportion; measured at
/// a longer one it still bounds. Trusting a rate measured at a far shorter
/// step stopped the passes early step after step: a bias of up to 20 times
/// the tolerance per step, which added up (2C on a lumped LFP cell: 52 mV).
/// 1 (no trust) before any rate is measured (rate_dt = 0).
VOLTAIC_HD inline double predicted_split_rate(double rate, double rate_dt, double h) {
  if (!(rate_dt > 0.0)) return 1.0;
  return fmin(1.0, rate * fmax(1.0, h / rate_dt));
}

/// The split's passes have settled: the change of the potential step's
/// inputs (in error tolerances), or the change still to come at the
/// contraction rate (IDA's test, trusted only where `rate_test`), is within
/// a fifth of the tolerance.
VOLTAIC_HD inline bool split_settled(double change, double rate, bool rate_test) {
  return change <= 0.2 || (rate_test && rate < 0.5 && change * rate / (1.0 - rate) <= 0.2);
}

/// The contraction rate is trusted (split_settled's rate_test) only where
/// the electrolyte's lowest concentration is above a tenth of its initial
/// value: where it runs low, the passes' rate changes from step to step and
/// an early stop leaves errors the step control then chases.
VOLTAIC_HD inline bool rate_test(double lowest_c_e, double ce0) { return lowest_c_e > 0.1 * ce0; }

/// The electrolyte concentration below which an attempt fails as depleted:
/// depletion drives c_e to zero, where the regularised model stays finite;
/// below zero by more than the absolute tolerance is an error.
VOLTAIC_HD inline double depletion_floor(double atol, double ce0) { return -atol * ce0; }

/// The local error test asks for half the tolerance: a second-order
/// method's local errors add up to more global error than IDA's higher
/// orders do at the same tolerance (measured: the BPX cell's 1C curve 0.59 mV
/// from PyBaMM's at the full tolerance, 0.41 mV at half).
inline constexpr double kErrorFraction = 0.5;

/// The weighted local error of the terminal quantities (IDA's norm, in
/// tolerances): the voltage, the current under a voltage (a hold ends on
/// it), the lumped temperature where it is a state. `e`: the predictor of
/// the attempt's order.
VOLTAIC_HD inline double terminal_error(const Clock& k, const bdf::Estimate& e, bool voltage_driven, bool lumped,
                                        double rtol, double atol) {
  const auto scalar = [&](const double* past, double y) {  // |x| / d = |x / d|: d > 0
    return fabs(bdf::weighted_deviation(e, y, past[0], past[1], past[2], rtol, atol));
  };
  double error = scalar(k.voltage_history, k.voltage);
  if (voltage_driven) error = fmax(error, scalar(k.current_history, k.current));
  if (lumped) error = fmax(error, scalar(k.lumped_history, k.lumped_t));
  return error;
}

/// The error test's value from the largest weighted error (<= 1 accepts);
/// infinity where it is not finite.
VOLTAIC_HD inline double error_test(double error) { return error - error == 0.0 ? error / kErrorFraction : INFINITY; }

/// How an attempt's operator-split passes ended.
enum class Split {
  settled,    ///< the passes settled and the last pass (cell.finish()) ended the step
  failed,     ///< a sub-step failed (the cell knows why)
  nonfinite,  ///< a pass produced a non-finite input of the potential step
  unsettled,  ///< max_passes passes did not settle (change: the last change)
};

struct SplitEnd {
  Split outcome;
  double change;  ///< the last change of the inputs, in error tolerances
};

/// The concentration -> potential -> temperature passes of one attempt of h,
/// repeated until the potential step's inputs settle (split_settled): the
/// first pass starts from the predicted inputs; each later one measures the
/// change of the inputs since the pass before and, from the third on, the
/// contraction rate it keeps in the clock for the next steps; under a
/// voltage the current must settle too (unknown after one solve). Between
/// passes the cell mixes the next inputs (Anderson). `rate_test`: the rate
/// may be trusted (not where the electrolyte runs low).
/// Cell: bool concentration(int pass), double split_change() (of c_e and T
/// since keep_inputs(), in tolerances), bool voltage_driven(), double
/// current(), double current_tolerance(), Clock& clock(), void mix(), void
/// reset_mixing(), void keep_inputs(), bool coupled(int pass) (potential and
/// temperature), bool finish() (the last pass, with the plain sink).
template <class Cell>
VOLTAIC_HD SplitEnd split_passes(Cell& cell, double h, bool rate_test, int max_passes) {
  double previous_change = 0.0, current_before = 0.0;
  for (int pass = 0;; ++pass) {
    if (!cell.concentration(pass)) return {Split::failed, 0.0};
    if (pass > 0) {
      const double inputs = cell.split_change();
      if (!(inputs - inputs == 0.0)) return {Split::nonfinite, inputs};
      const double change = !cell.voltage_driven() ? inputs
                            : pass > 1 ? fmax(inputs, fabs(cell.current() - current_before) / cell.current_tolerance())
                                       : INFINITY;
      Clock& k = cell.clock();
      const bool measured = pass > 1 && previous_change - previous_change == 0.0;
      if (measured) {
        k.split_rate = fmin(change / previous_change, 1.0);
        k.split_rate_dt = h;
      }
      previous_change = change;
      const double rate = measured ? k.split_rate : predicted_split_rate(k.split_rate, k.split_rate_dt, h);
      if (split_settled(change, rate, rate_test)) return {cell.finish() ? Split::settled : Split::failed, change};
      if (pass == max_passes) return {Split::unsettled, change};
      cell.mix();
    } else {
      cell.reset_mixing();
    }
    cell.keep_inputs();
    current_before = cell.current();
    if (!cell.coupled(pass)) return {Split::failed, 0.0};
  }
}

/// How one attempt of a step ended.
enum class Attempted {
  passed,              ///< the passes settled and the state is in the model's domain
  failed,              ///< a sub-step failed (the cell knows why)
  nonfinite_inputs,    ///< a pass produced a non-finite c_e or T (Split::nonfinite)
  unsettled,           ///< the passes did not settle (change: the last change)
  nonfinite_terminal,  ///< the voltage, current or heat came out non-finite
  depleted,            ///< the electrolyte fell below depletion_floor()
};

struct AttemptEnd {
  Attempted outcome;
  double change;  ///< unsettled: the last change of the inputs, in error tolerances
};

/// Whether x is finite (not inf, not NaN), the same on the host and in kernels.
VOLTAIC_HD inline bool finite(double x) { return x - x == 0.0; }

/// One attempt of a step of h, as both engines make it: BDF2 where its
/// extrapolation of c_e stays positive (backward Euler keeps c_e positive
/// where the electrolyte is being depleted), the split's first inputs
/// predicted from the accepted values, the passes (split_passes), then the
/// checks of what they produced. The contraction rate is trusted by
/// rate_test() on the last accepted c_e.
/// Cell: Clock& clock(), void count_attempt(), bool extrapolation_positive(
/// const bdf::Formula&) (a0 c_e^n + a1 c_e^(n-1) > 0 everywhere), double
/// lowest_concentration() (of c_e^n), double initial_concentration(), void
/// predict_inputs(double h), SplitEnd split(const bdf::Formula&, double h,
/// bool rate_test) (split_passes under the drive at the new time), bool
/// above_depletion_floor().
template <class Cell>
VOLTAIC_HD AttemptEnd attempt(Cell& cell, double h) {
  Clock& k = cell.clock();
  cell.count_attempt();
  bdf::Formula f = bdf::formula(order_for(k.history, h, k.h1), h, k.h1);
  if (f.order == 2 && !cell.extrapolation_positive(f)) f = bdf::formula(1, h, k.h1);
  k.last_order = f.order;
  const bool trusted = rate_test(cell.lowest_concentration(), cell.initial_concentration());
  if (k.history >= 2) cell.predict_inputs(h);
  const SplitEnd end = cell.split(f, h, trusted);
  switch (end.outcome) {
    case Split::settled: break;
    case Split::failed: return {Attempted::failed, 0.0};
    case Split::nonfinite: return {Attempted::nonfinite_inputs, end.change};
    case Split::unsettled: return {Attempted::unsettled, end.change};
  }
  if (!finite(k.voltage) || !finite(k.current) || !finite(k.heat_w)) return {Attempted::nonfinite_terminal, 0.0};
  if (!cell.above_depletion_floor()) return {Attempted::depleted, 0.0};
  return {Attempted::passed, 0.0};
}

/// How a time step's error control ended.
enum class Outcome {
  accepted,       ///< the attempt at h passed the error test (error: its estimate, < 0 without one)
  solver_failed,  ///< attempts failed until the retries or min_dt ran out (the cell knows why)
  error_stuck,    ///< the local error stayed above tolerance (error at h) until the retries or min_dt ran out
};

struct Tried {
  Outcome outcome;
  double h;      ///< the step taken (accepted) or the last one tried
  double error;  ///< the local error estimate at h (accepted, error_stuck)
};

/// One time step under error control, from h: an attempt whose solve fails
/// is cut by 4, one whose local error is above tolerance is redone at the
/// size the estimate asks for; nothing of a rejected attempt is kept.
/// Cell: bool attempt(double h), void restore(), void reject() (counts a
/// rejected attempt), double local_error(double h) (<= 1 accepts; < 0
/// without an estimate), int last_order().
template <class Cell>
VOLTAIC_HD Tried take_step(Cell& cell, double h, double min_dt, int max_retries) {
  for (int retries = 0;; ++retries) {
    if (!cell.attempt(h)) {
      cell.restore();
      cell.reject();
      if (retries >= max_retries || h / 4.0 < min_dt) return {Outcome::solver_failed, h, 0.0};
      h /= 4.0;
      continue;
    }
    const double error = cell.local_error(h);
    if (error <= 1.0) return {Outcome::accepted, h, error};
    cell.restore();
    cell.reject();
    const double cut = cut_factor(error, cell.last_order());
    if (retries >= max_retries || h * cut < min_dt) return {Outcome::error_stuck, h, error};
    h *= cut;
  }
}

/// Illinois (modified regula falsi) on the step length: the event margin is
/// > 0 at 0 (margin_before) and <= 0 after the step of h just taken; each
/// evaluation redoes the step from the saved state, and h ends as the step
/// that lands on the event within `tolerance`, the cell's state that step's.
/// A step inside the bracket that the solver cannot take (near a physical
/// limit: the electrolyte depleting as the voltage falls to its cut-off)
/// leaves the event bracketed by [a, b], and the step to b ends there.
/// False when even that fails. Cell: as take_step(), and double
/// event_margin() of the state the last attempt left.
template <class Cell>
VOLTAIC_HD bool locate_event(Cell& cell, double tolerance, double& h, double margin_before) {
  double a = 0.0, ga = margin_before, b = h, gb = cell.event_margin();
  int side = 0;
  for (int it = 0; it < 60 && gb < -tolerance; ++it) {
    double m = b - gb * (b - a) / (gb - ga);
    m = fmin(fmax(m, a + 1e-3 * (b - a)), b - 1e-3 * (b - a));
    cell.restore();
    cell.reject();
    if (!cell.attempt(m)) {
      cell.restore();
      cell.reject();
      if (!cell.attempt(b)) return false;
      h = b;
      return true;
    }
    const double gm = cell.event_margin();
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
    if (b - a <= 1e-12 * fmax(1.0, b)) break;
  }
  if (side == -1) {  // the last attempt was before the event: redo the step to b
    cell.restore();
    if (!cell.attempt(b)) return false;
  }
  h = b;
  return true;
}

/// An experiment step's ends, resolved for one cell (volts and amperes).
struct Ends {
  bool voltage_control = false;                   ///< a hold: no voltage cut-off applies
  double lower_cutoff = 0.0, upper_cutoff = 0.0;  ///< the cell's voltage limits [V]
  bool has_until_voltage = false;
  double until_voltage = 0.0;  ///< [V]
  bool has_until_current = false;
  double until_current = 0.0;  ///< [A], a magnitude
};

/// The drive as the margins read it: `value` (> 0 discharges) and `below`
/// (the "until" voltage is a lower limit). A fixed drive's value is its own
/// and a discharge's "until" voltage is a lower limit; a drive cycle's value
/// is the present current, and its "until" voltage is a limit on the side
/// the step started (`until_below`).
struct Side {
  double value;
  bool below;
};

VOLTAIC_HD inline Side side(bool cycle, double fixed_value, double current, bool until_below) {
  return cycle ? Side{current, until_below} : Side{fixed_value, fixed_value > 0.0};
}

/// How far a state is from the cell's voltage cut-off (`cell`) and from the
/// step's own ends (`own`): > 0 before, <= 0 at or past; infinity where none
/// applies.
struct Margins {
  double cell, own;
};

VOLTAIC_HD inline Margins margins(const Ends& e, Side d, double voltage, double current) {
  Margins m{INFINITY, INFINITY};
  if (!e.voltage_control && d.value != 0.0) {
    const bool discharge = d.value > 0.0;
    m.cell = discharge ? voltage - e.lower_cutoff : e.upper_cutoff - voltage;
    if (e.has_until_voltage) m.own = d.below ? voltage - e.until_voltage : e.until_voltage - voltage;
  }
  if (e.has_until_current) m.own = fmin(m.own, fabs(current) - e.until_current);
  return m;
}

/// The event margin: the nearer of the two (<= 0 ends the step).
VOLTAIC_HD inline double event_margin(const Ends& e, Side d, double voltage, double current) {
  const Margins m = margins(e, d, voltage, current);
  return fmin(m.cell, m.own);
}

/// Whether a step can start from its consistent state (PyBaMM's rule: a step
/// that starts at or past its cut-off is infeasible and ends the run).
enum class Start {
  feasible,
  until_voltage_behind,  ///< it discharges (charges) until a voltage already at or above (below)
  cutoff_reached,        ///< its event margin is not positive
};

/// `value0`: the drive's value at the step's start; `margin`: event_margin() there.
VOLTAIC_HD inline Start start_check(const Ends& e, double value0, double voltage, double margin) {
  if (e.has_until_voltage && !e.voltage_control && value0 != 0.0) {
    const bool discharge = value0 > 0.0;
    if (discharge ? voltage <= e.until_voltage : voltage >= e.until_voltage) return Start::until_voltage_behind;
  }
  return margin > 0.0 ? Start::feasible : Start::cutoff_reached;
}

/// Charge [A h] and energy [W h] through a step of h [s], by the trapezoidal
/// rule on the terminal current and power before (i0, v0) and after (i1, v1).
VOLTAIC_HD inline void account(double& capacity_ah, double& energy_wh, double i0, double v0, double i1, double v1,
                               double h) {
  capacity_ah += 0.5 * (i0 + i1) * h / 3600.0;
  energy_wh += 0.5 * (i0 * v0 + i1 * v1) * h / 3600.0;
}

/// How a power step's current was found (draw_power).
enum class Power {
  drawn,       ///< I V = P to rounding
  failed,      ///< the potential step failed at some current (the cell knows why)
  no_voltage,  ///< the terminal voltage was not positive and finite (PowerEnd::voltage)
  unsettled,   ///< the current did not settle in 30 iterations
};
struct PowerEnd {
  Power outcome;
  double voltage;  ///< the last terminal voltage [V]
};

/// The current that draws `watts` from the cell: a root of f(I) = I V(I) - P
/// by the secant method, from the clock's current where it has the power's
/// sign (the last pass's or step's), else the fixed-point step P / V. Each
/// iterate is kept in the clock (voltage, current). Cell: bool
/// solve_current(double i) (the potential step under the current i),
/// double terminal_voltage(double i) (after it).
template <class Cell>
VOLTAIC_HD PowerEnd draw_power(Cell& cell, Clock& k, double watts) {
  double i =
      finite(k.current) && k.current != 0.0 && k.current * watts > 0.0 ? k.current : watts / fmax(k.voltage, 1.0);
  double i_before = 0.0, f_before = 0.0;
  for (int it = 0;; ++it) {
    if (!cell.solve_current(i)) return {Power::failed, k.voltage};
    const double v = cell.terminal_voltage(i);
    if (!(v > 0.0) || !finite(v)) return {Power::no_voltage, v};
    k.voltage = v;
    k.current = i;
    const double f = i * v - watts;
    const double next = it == 0 || f == f_before ? watts / v : i - f * (i - i_before) / (f - f_before);
    if (fabs(next - i) <= 1e-12 * fabs(i) + 1e-15) return {Power::drawn, v};
    if (it == 30 || !finite(next)) return {Power::unsettled, v};
    i_before = i;
    f_before = f;
    i = next;
  }
}

/// Progress, judged as IDA's max_num_steps between PyBaMM's output times (a
/// minute apart in an experiment): an accepted step of h counts unless it
/// reached max_dt, ended at a boundary of its experiment step
/// (`at_boundary`: its end, a table row, a field time) or crossed a whole
/// minute of the step's time (k.elapsed, h included), any of which starts
/// the count afresh. More than max_steps in a count, or a counted step shorter
/// than min_dt, means the cell has stopped making progress: without this a
/// cell whose steps stay tiny (an electrolyte crawling along its depletion)
/// runs, and writes rows, for ever.
inline constexpr double kProgressPeriod = 60.0;  ///< [s]

VOLTAIC_HD inline bool stalled(Clock& k, double h, bool at_boundary, double min_dt, double max_dt, int max_steps) {
  const bool new_period = floor(k.elapsed / kProgressPeriod) > floor((k.elapsed - h) / kProgressPeriod);
  if (at_boundary || h >= max_dt || new_period) {
    k.free_steps = 0;
    return false;
  }
  ++k.free_steps;
  return k.free_steps > max_steps || h < min_dt;
}

/// The limits an experiment step's time steps keep (StepControl's; step_limits.hpp).
struct StepLimits {
  double min_dt = 0.0, max_dt = 0.0, max_growth = 0.0, event_tolerance = 0.0;
  int max_retries = 0, max_steps = 0;
};

/// How one pass of an experiment step's loop ended (advance()).
enum class Advance {
  duration,       ///< the step had already run its duration: nothing was done
  accepted,       ///< a time step was accepted
  event,          ///< a time step was accepted and ends on the step's located event
  solver_failed,  ///< its attempts failed, or its event could not be located (the cell knows why)
  error_stuck,    ///< the local error stayed above tolerance (tried: its estimate and step)
};

struct Advanced {
  Advance outcome;
  Tried tried;       ///< take_step's result
  double h;          ///< the accepted step [s]
  bool at_boundary;  ///< it ended where it was clipped to (the step's end, `horizon`, a table row): stalled()
};

/// One pass of an experiment step's loop, the same for both engines: unless
/// the step has run its `duration` (INFINITY: none), one time step from the
/// clock's proposal, clipped to the step's end, to `horizon` seconds (a field
/// time; INFINITY: none) and to the next row of `table` (when not null; a row
/// reached up to rounding counts as passed), under error control
/// (take_step), its event located (locate_event), its charge and energy
/// counted, the clock moved on and the proposal for the next step made.
/// Cell: as locate_event(), and save() (before the attempts), accept(h).
template <class Cell>
VOLTAIC_HD Advanced advance(Cell& cell, Clock& k, const StepLimits& limits, double duration, double horizon,
                            const DriveTable* table) {
  if (k.elapsed >= duration * (1.0 - 1e-12)) return {Advance::duration, {Outcome::accepted, 0.0, 0.0}, 0.0, false};
  const double proposed = fmin(k.dt, limits.max_dt);
  double h = fmin(fmin(proposed, duration - k.elapsed), horizon);
  if (table) h = fmin(h, table->next_breakpoint(k.elapsed + 1e-9 * fmax(1.0, k.elapsed)) - k.elapsed);
  const bool clipped = h < proposed;  // by the duration, the horizon or a row: keep the proposal
  const double v_before = k.voltage, i_before = k.current, margin_before = cell.event_margin();
  cell.save();
  const Tried tried = take_step(cell, h, limits.min_dt, limits.max_retries);
  if (tried.outcome == Outcome::solver_failed) return {Advance::solver_failed, tried, tried.h, false};
  if (tried.outcome == Outcome::error_stuck) return {Advance::error_stuck, tried, tried.h, false};
  const bool at_boundary = clipped && tried.h == h;
  h = tried.h;
  const bool event = cell.event_margin() <= 0.0;
  if (event && !locate_event(cell, limits.event_tolerance, h, margin_before))
    return {Advance::solver_failed, tried, h, false};
  account(k.capacity_ah, k.energy_wh, i_before, v_before, k.current, k.voltage, h);
  k.time += h;
  k.elapsed += h;
  k.dt = next_dt(h, proposed, clipped, growth_factor(tried.error, k.last_order, limits.max_growth));
  cell.accept(h);
  return {event ? Advance::event : Advance::accepted, tried, h, at_boundary};
}

}  // namespace voltaic::stepping
