#pragma once
// A cell-program batch as a Checkpoint (voltaic/solver/checkpoint.hpp, which
// io::write_checkpoint writes as HDF5): each cell finished (its result),
// running (CellInFlight) or not started, under a fingerprint of everything
// that shapes the cells' trajectories, so that BatchSimulation::run goes on
// from it bit for bit or refuses it with the first difference.

#include <memory>
#include <string>
#include <vector>

#include "solver/batch_cell_record.hpp"
#include "voltaic/solver/checkpoint.hpp"
#include "voltaic/solver/experiment.hpp"

namespace voltaic::program {

/// Everything a batch checkpoint must match: the base set and options
/// (setup_fingerprint), the cells' names and values, the custom functions'
/// data and the experiment, one item a line. Not the backend nor the rows a
/// call: the cells' bits depend on neither.
std::string batch_setup(const ParameterSet& base, const CellParameters& cells, const SimulationOptions& options,
                        const Experiment& experiment);

/// The checkpoint of a batch of `records.size()` cells: cell i is running
/// where `flight[i]` is set (its record is the one there), finished where
/// records[i] is reported, else not started.
Checkpoint batch_checkpoint(const std::string& setup, const ProgramSettings& s, const std::vector<CellRecord>& records,
                            const std::vector<std::unique_ptr<CellInFlight>>& flight);

/// A checkpoint read back: records[i] (reported where the cell finished)
/// for every cell, and flight[i]'s clock and state where it was running
/// (its record is records[i]).
struct ResumedBatch {
  std::vector<CellRecord> records;
  std::vector<std::unique_ptr<CellInFlight>> flight;
};

/// Reads `c` for a batch of `setup` (batch_setup) and `cells` cells.
/// @throws InvalidArgument naming what differs (another format, batch or
///         layout: the first line of the fingerprints that differs) or what
///         is malformed (a count, a length, a status out of range)
ResumedBatch resume_batch(const Checkpoint& c, const std::string& setup, const ProgramSettings& s, std::size_t cells);

}  // namespace voltaic::program
