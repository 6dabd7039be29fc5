#pragma once
// The shared state of one BatchSimulation::run, whichever engine runs the
// cells (batch_simulation.cpp, cell_program_batch.cpp): the next cell to
// start, the observer's lock, and why the batch stops.

#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "voltaic/solver/batch_simulation.hpp"
#include "voltaic/solver/simulation_options.hpp"

namespace voltaic {

/// Refuses a batch whose results and per-thread Simulations cannot fit
/// `exec`'s memory: one result per cell (with its termination text and
/// `cycles` summaries; the curves are the observer's to keep or not) and
/// one Simulation per thread (none for the cell program).
/// @throws InsufficientMemory naming the estimate and what `exec` has
void require_batch_memory(std::size_t cells, std::size_t threads, const SimulationOptions& options,
                          const Executor& exec, int cycles);

/// Drops a result's curves and frees their memory (assigning {} would keep
/// the vectors' capacity: a batch that keeps no curves would hold them all).
inline void drop_curves(BatchCellResult& r) {
  for (std::vector<double>* v : {&r.time, &r.voltage, &r.current, &r.temperature}) std::vector<double>().swap(*v);
}

struct BatchRun {
  BatchObserver* observer = nullptr;
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stopping{false};
  std::mutex lock;  // the observer's calls and the fields below
  std::string stop_why;
  std::exception_ptr observer_error;

  /// The batch's stop reason (asking the observer, under the lock), or "".
  std::string stop_reason() {
    std::lock_guard<std::mutex> guard(lock);
    if (!stopping && observer) {
      std::string why = observer->stop_reason();
      if (!why.empty()) {
        stop_why = std::move(why);
        stopping = true;
      }
    }
    return stopping ? stop_why : std::string();
  }

  /// Hands a finished cell to the observer, under the lock; an exception
  /// from it stops the batch and is kept for the caller.
  void on_cell(std::size_t index, const BatchCellResult& result) {
    tell([&] { observer->on_cell(index, result); });
  }

  /// Hands the summary of a cycle a cell ended to the observer, as on_cell a cell.
  void on_cycle(std::size_t index, const CycleSummary& summary) {
    tell([&] { observer->on_cycle(index, summary); });
  }

  /// Hands a checkpoint to the observer, as on_cell a cell.
  void on_checkpoint(const Checkpoint& c) {
    tell([&] { observer->on_checkpoint(c); });
  }

 private:
  template <class Call>
  void tell(const Call& call) {
    std::lock_guard<std::mutex> guard(lock);
    if (!observer || observer_error) return;
    try {
      call();
    } catch (...) {
      observer_error = std::current_exception();
      stop_why = "the observer failed";
      stopping = true;
    }
  }
};

}  // namespace voltaic
