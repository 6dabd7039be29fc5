#pragma once
/// @file distributed_batch.hpp
/// @brief A batch of independent 1D cells (a sweep) spread over MPI ranks.

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

#include "voltaic/mpi/communicator.hpp"
#include "voltaic/solver/batch_simulation.hpp"

namespace voltaic::mpi {

/// The cells [first, second) that `rank` of `ranks` runs: contiguous, the
/// first cells mod ranks ranks one cell more.
std::pair<std::size_t, std::size_t> cell_range(std::size_t cells, int rank, int ranks);

/// Runs the batch's cells spread over the communicator's ranks: each rank a
/// BatchSimulation of its cell_range() on its own executor, then every
/// rank's results (curves included) sent to rank 0, their length first and
/// then messages of at most chunk_bytes, rank by rank (no limit on a rank's
/// or the batch's bytes beyond memory; rank 0 unpacks each rank's as it
/// arrives). A batched cell is bitwise the cell run alone, so rank 0's
/// results are the same bits for every rank count.
///
/// Rank 0 returns every cell's result in cell order and calls
/// observer->on_cell for each, in cell order, once they are gathered; the
/// other ranks return an empty vector. On every rank the local batch polls
/// observer->stop_reason(); the first rank that is told to stop tells the
/// others, whose batches stop at their next poll too (their cells
/// "interrupted by ... on rank R"; where MPI provides MPI_THREAD_SERIALIZED,
/// as the CLI's session asks). A rank whose batch cannot be built or fails
/// while it runs makes every rank throw (the failing one its own error, the
/// others InvalidArgument or MpiError naming that rank), never a hang.
std::vector<BatchCellResult> run_batch(const Communicator& comm, const ParameterSet& base, const CellParameters& cells,
                                       const SimulationOptions& options, std::shared_ptr<const Executor> exec,
                                       const BatchOptions& batch, const Experiment& experiment,
                                       BatchObserver* observer = nullptr,
                                       std::size_t chunk_bytes = std::size_t{1} << 30);

}  // namespace voltaic::mpi
