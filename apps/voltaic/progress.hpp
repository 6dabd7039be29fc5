#pragma once
// Progress of a run: a bar with elapsed time and ETA redrawn in place on a
// terminal, plain log lines (at most every few seconds, and at each
// experiment step) otherwise. A run of many cycles also counts its cycles
// and shows the last one's capacity (cycles that keep no rows, PyBaMM's
// save_at_cycles, move the bar by their summaries).

#include <chrono>
#include <cstdio>
#include <string>

#include "voltaic/solver/experiment.hpp"
#include "voltaic/solver/solution.hpp"

namespace voltaic::cli {

class Progress {
 public:
  Progress(const Experiment& experiment, double nominal_capacity_ah, std::FILE* out, bool terminal);
  /// After each row of the running Solution.
  void update(const Solution& solution);
  /// Ends the bar's line.
  void finish();

 private:
  /// Estimated fraction of the experiment done: whole steps, plus the present
  /// step's duration elapsed, charge moved against the nominal capacity
  /// (until a cut-off voltage) or current decay towards its limit (a hold).
  double fraction(const Solution& s) const;
  void draw(const Solution& s, double done, double elapsed_s);
  void log(const Solution& s, double done, double elapsed_s);
  /// "  cycle 12/1000, capacity 4.9876 A.h (98.1%)" once a cycle of many has ended, else "".
  std::string cycle_text(const Solution& s) const;
  /// The last row is older than the last ended cycle (cycles that keep no
  /// rows): its step, time and voltage would be stale, so only the cycles show.
  bool rows_behind(const Solution& s) const;

  const Experiment& experiment_;
  double capacity_ah_;
  std::FILE* out_;
  bool terminal_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  double last_draw_s_ = -1.0, last_log_s_ = -1.0;
  int last_step_ = -1;
  std::size_t last_cycles_ = 0;
  // Where the present step began: time, capacity, |current|.
  double step_time_ = 0.0, step_capacity_ = 0.0, step_current_ = 0.0;
};

/// "1:02:03" or "02:03".
std::string clock_text(double seconds);

}  // namespace voltaic::cli
