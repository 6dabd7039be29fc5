#pragma once
// The clock of one independent cell, shared by Simulation and the batch cell
// program (trivially copyable, for kernels): where it is inside its
// experiment step, its step-size controller, and the terminal quantities
// that its events, rows and error estimate read, with their accepted past.

#include "voltaic/core/macros.hpp"

namespace voltaic::stepping {

struct Clock {
  // The experiment step and the step-size controller after the last accepted time step.
  double elapsed = 0.0;        ///< [s] into the experiment step
  double dt = 0.0;             ///< [s] the next step's proposal
  double h1 = 0.0;             ///< [s] the last accepted step
  double h2 = 0.0;             ///< [s] and the one before
  int history = 1;             ///< accepted values usable by the formulas (1 at a step's start, up to 3)
  bool until_below = true;     ///< a drive cycle's "until" voltage is a lower limit (the step started above it)
  int last_order = 1;          ///< of the formula the last attempt used
  int free_steps = 0;          ///< accepted steps since a minute, a step end or max_dt (stepping::stalled)
  double split_rate = 1.0;     ///< contraction of the split's passes, last measured
  double split_rate_dt = 0.0;  ///< the step it was measured at [s] (0: none yet)
  // The cell's terminal quantities.
  double time = 0.0;                          ///< [s]
  double capacity_ah = 0.0, energy_wh = 0.0;  ///< discharged since the start
  double voltage = 0.0, current = 0.0, heat_w = 0.0;
  double lumped_t = 0.0;                  ///< [K]
  double lumped_history[3] = {0, 0, 0};   ///< lumped T at t_n, t_{n-1}, t_{n-2}
  double voltage_history[3] = {0, 0, 0};  ///< terminal voltage likewise
  double current_history[3] = {0, 0, 0};  ///< and current
  double saved[2] = {0, 0};               ///< current, heat at the last save()

  /// A fresh experiment step: its first proposal, no usable past.
  VOLTAIC_HD void start_step(double initial_dt) {
    elapsed = 0.0;
    dt = initial_dt;
    h1 = h2 = 0.0;
    history = 1;
    free_steps = 0;
  }
  /// Keeps the present terminal quantities as level 0 (before an attempt).
  VOLTAIC_HD void save() {
    lumped_history[0] = lumped_t;
    voltage_history[0] = voltage;
    current_history[0] = current;
    saved[0] = current;
    saved[1] = heat_w;
  }
  /// Takes them back (after a rejected attempt).
  VOLTAIC_HD void restore() {
    lumped_t = lumped_history[0];
    voltage = voltage_history[0];
    current = saved[0];
    heat_w = saved[1];
  }
  /// An accepted step of h: the past moves back one level.
  VOLTAIC_HD void accept(double h) {
    shift(lumped_history);
    shift(voltage_history);
    shift(current_history);
    h2 = h1;
    h1 = h;
    history = history + 1 < 3 ? history + 1 : 3;
  }

 private:
  VOLTAIC_HD static void shift(double* past) {
    past[2] = past[1];
    past[1] = past[0];
  }
};

}  // namespace voltaic::stepping
