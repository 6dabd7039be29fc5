#pragma once
// An ageing run's cycling in its checkpoint: the summaries of the cycles it
// ended, the running cycle's tally and the rows that cycle holds back
// (save_at_cycles), so that a restart mid-cycle summarises that cycle whole
// and its termination compares with cycle 1, as the uninterrupted run does.
// Checkpoints without them (written before) restart with none.

#include <vector>

#include "solver/cycle_summary.hpp"
#include "voltaic/solver/checkpoint.hpp"
#include "voltaic/solver/solution.hpp"

namespace voltaic {

/// What of a run's cycling a checkpoint keeps.
struct CheckpointCycles {
  bool kept = false;  ///< whether the checkpoint holds them (one written before does not)
  std::vector<CycleSummary> cycles;
  program::CycleTally tally;
  Solution held;  ///< the running cycle's rows where it keeps none
};

void save_cycles(const std::vector<CycleSummary>& cycles, const program::CycleTally& tally, const Solution& held,
                 Checkpoint& c);
/// The cycling `c` holds (none from a checkpoint written before it was kept).
/// @throws InvalidArgument naming a missing, mis-sized or non-finite value
CheckpointCycles resume_cycles(const Checkpoint& c, const char* where);

}  // namespace voltaic
