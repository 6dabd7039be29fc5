#pragma once
// One cell of a cell-program batch as its host sees it (cell_program_batch.cpp),
// and the part of it a batch checkpoint keeps (batch_checkpoint.cpp).

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "solver/cell_program_data.hpp"
#include "solver/cell_totals.hpp"
#include "solver/cycle_summary.hpp"
#include "voltaic/solver/batch_simulation.hpp"

namespace voltaic::program {

/// Rows as the row buffer holds them, one vector per value (time, voltage, current, temperature).
struct Curves {
  std::vector<double> values[kRowValues];
};

/// One cell's run on the host side: its setup, the rows drained so far and
/// the summaries of the cycles it ended.
struct CellRecord {
  CellConstants constants{};
  std::string error;  ///< why the cell could not be built ("" when it was)
  std::size_t rows = 0;
  BatchCellResult result;
  bool reported = false;
  long long step = 0;                  ///< the clock's experiment step when its last call began
  CycleTally tally;                    ///< of the cycle running
  Curves held;                         ///< that cycle's rows where it keeps none, until it ends
  std::unique_ptr<CellTotals> totals;  ///< built at the first cycle's end, freed when reported (rebuilt alike)
  std::string cycling_end;             ///< the experiment's termination, where it ended the cycling
};

/// A running cell between two calls: what its host holds (its record, less
/// the constants and totals its parameters rebuild) and what the program
/// holds (its clock, and its state arrays with their past levels). Enough
/// to go on bit for bit: between two steps the work arrays after them (from
/// SlabOffsets::T on) hold nothing a step reads before it writes them
/// (BatchCheckpoint.EveryModeGoesOnFromAnyPoint stops and resumes every
/// degradation and control mode at many points), so a checkpoint keeps about
/// half of a slab.
struct CellInFlight {
  CellRecord record;
  ProgramClock clock{};
  std::vector<double> state;  ///< the slab's doubles [SlabOffsets::c_s, SlabOffsets::T)
};

/// The doubles of a slab that CellInFlight::state holds.
inline std::size_t flight_state_doubles(const SlabOffsets& o) { return o.T - o.c_s; }

/// `r` less its constants and totals (a record holds a unique totals).
inline CellRecord resumable_copy(const CellRecord& r) {
  CellRecord c;
  c.error = r.error;
  c.rows = r.rows;
  c.result = r.result;
  c.reported = r.reported;
  c.step = r.step;
  c.tally = r.tally;
  c.held = r.held;
  c.cycling_end = r.cycling_end;
  return c;
}

}  // namespace voltaic::program
