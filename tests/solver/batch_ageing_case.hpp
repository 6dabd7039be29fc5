#pragma once
// The small ageing case the batch tests share (batch_checkpoint_test.cpp,
// batch_cycles_test.cpp): OKane2022 on a coarse lumped grid with
// reaction-limited SEI and irreversible plating, through four cycles with an
// 80 % end, so that records hold curves, summaries and a tally in flight.

#include "voltaic/solver/cycling.hpp"
#include "voltaic/solver/experiment.hpp"
#include "voltaic/solver/simulation_options.hpp"

namespace voltaic::test {

inline SimulationOptions batch_ageing_options() {
  SimulationOptions o;
  o.grid = {6, 4, 6, 6, 1, 1};
  o.thermal = ThermalModel::lumped;
  o.degradation.sei = SeiModel::reaction_limited;
  o.degradation.lithium_plating = PlatingModel::irreversible;
  return o;
}

inline const Experiment& batch_ageing_cycles() {
  static const Experiment e = [] {
    Experiment x({"Discharge at 1C until 3.0 V", "Rest for 5 minutes", "Charge at 1C until 4.1 V"}, 4);
    x.set_termination(parse_cycle_termination({"80% capacity"}));
    return x;
  }();
  return e;
}

}  // namespace voltaic::test
