#pragma once
// A cycle's summary on the cell program (Solution::cycles,
// BatchCellResult::cycles): its throughput from its rows, its state from
// the cell's slab (cell_totals.hpp), and whether the experiment's
// termination ends the cycling. One cell alone (simulation_engine.cpp) and
// a batch's cells (cell_program_batch.cpp) summarise alike.

#include <cmath>
#include <string>
#include <vector>

#include "solver/cell_totals.hpp"
#include "voltaic/solver/cycling.hpp"
#include "voltaic/solver/solution.hpp"

namespace voltaic::program {

/// A cycle's throughput from its rows as they come (kept or not): trapezoids
/// between consecutive rows (a step's first row repeats the last one's time).
struct CycleTally {
  double discharge_capacity = 0.0, charge_capacity = 0.0, discharge_energy = 0.0;
  double min_voltage = INFINITY;
  double t = 0.0, I = 0.0, V = 0.0;
  bool started = false;

  void add(double time, double current, double voltage);
};

/// The summary of cycle `cycle` (1-based), whose last row `tally` has taken,
/// from the cell's state as `read` gives it.
CycleSummary summarise_cycle(const CycleTally& tally, const CellTotals& totals, const SlabRead& read, int cycle);

/// Why the cycling ends after the last of `cycles` (the experiment's
/// termination `t`), or "".
std::string cycling_ended(const CycleTermination& t, const std::vector<CycleSummary>& cycles);

}  // namespace voltaic::program
