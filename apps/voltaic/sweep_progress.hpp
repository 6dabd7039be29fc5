#pragma once
// Progress of a sweep: finished cells out of all, the failed ones, cells per
// second and ETA; a bar redrawn in place on a terminal, log lines (at most
// every few seconds) otherwise.

#include <chrono>
#include <cstddef>
#include <cstdio>

#include "voltaic/solver/batch_simulation.hpp"

namespace voltaic::cli {

class SweepProgress {
 public:
  SweepProgress(std::size_t cells, std::FILE* out, bool terminal);
  /// After each finished cell.
  void update(const BatchCellResult& result);
  /// Draws the final state and ends the bar's line; in a log, writes the
  /// final counts unless the last line already had them.
  void finish();

  std::size_t finished() const { return finished_; }
  /// Cells that finished without completing the experiment (stopped, failed, interrupted).
  std::size_t incomplete() const { return incomplete_; }

 private:
  void draw(double elapsed_s);
  void log(double elapsed_s);

  std::size_t cells_;
  std::FILE* out_;
  bool terminal_;
  std::size_t finished_ = 0, incomplete_ = 0;
  std::size_t logged_ = 0;  // finished_ as the last log line gave it
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  double last_draw_s_ = -1.0, last_log_s_ = 0.0;
};

}  // namespace voltaic::cli
