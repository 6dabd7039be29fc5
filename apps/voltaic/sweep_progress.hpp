#pragma once
// Progress of a sweep: finished cells out of all, the failed ones, cells per
// second and ETA; for an experiment of several cycles also the cycles the
// cells ended out of all and the lowest capacity among them. A bar redrawn in
// place on a terminal, log lines (at most every few seconds) otherwise.

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

#include "voltaic/solver/batch_simulation.hpp"

namespace voltaic::cli {

class SweepProgress {
 public:
  /// `cycles`: the experiment's cycles a cell runs (1: no cycle counts shown).
  SweepProgress(std::size_t cells, int cycles, std::FILE* out, bool terminal);
  /// After each finished cell (a resumed sweep's finished cells too).
  void update(std::size_t index, const BatchCellResult& result);
  /// After each cycle a cell ended (BatchObserver::on_cycle).
  void cycle(std::size_t index, const CycleSummary& summary);
  /// Draws the final state and ends the bar's line; in a log, writes the
  /// final counts unless the last line already had them.
  void finish();

  std::size_t finished() const { return finished_; }
  /// Cells that finished without completing the experiment (stopped, failed, interrupted).
  std::size_t incomplete() const { return incomplete_; }

 private:
  bool cycling() const { return cycles_ > 1; }
  double elapsed_s() const;
  /// Redraws or logs when it is time to.
  void show();
  /// The counts as the bar and the log lines give them (after the cells').
  std::string counts(double elapsed_s) const;
  void draw(double elapsed_s);
  void log(double elapsed_s);
  /// Cell `index` is now `cycle` cycles on (the experiment's cycles once it finished).
  void advance(std::size_t index, long long cycle);

  std::size_t cells_;
  long long cycles_;
  std::FILE* out_;
  bool terminal_;
  std::size_t finished_ = 0, incomplete_ = 0;
  std::size_t logged_ = 0;  // finished_ + done_ as the last log line gave them
  // Cycles: each cell's count so far, their sum, the part of it a resumed
  // sweep had before it started (not this run's pace), each cell's last capacity.
  std::vector<long long> at_;
  long long done_ = 0, before_ = 0;
  std::vector<double> capacity_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  double last_draw_s_ = -1.0, last_log_s_ = 0.0;
};

}  // namespace voltaic::cli
