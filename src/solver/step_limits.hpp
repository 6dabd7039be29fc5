#pragma once
// StepControl's limits as the shared step loop (stepping::advance,
// step_control.hpp) reads them, for both engines.

#include "solver/step_control.hpp"
#include "voltaic/solver/simulation_options.hpp"

namespace voltaic {

inline stepping::StepLimits step_limits(const StepControl& sc) {
  stepping::StepLimits l;
  l.min_dt = sc.min_dt;
  l.max_dt = sc.max_dt;
  l.max_growth = sc.max_growth;
  l.event_tolerance = sc.event_tolerance;
  l.max_retries = sc.max_retries;
  l.max_steps = sc.max_steps;
  return l;
}

}  // namespace voltaic
