#pragma once
/// @file cycling.hpp
/// @brief Long cycling as PyBaMM runs it: an experiment's termination
/// ("80% capacity", "4 A.h capacity", "2.5 V") checked at the end of every
/// cycle, and which cycles keep their rows (PyBaMM's save_at_cycles): every
/// cycle keeps its summary (Solution::cycles), only the saved ones their
/// rows, so a run's memory and output grow with the saved cycles, not with
/// the cycles run.

#include <optional>
#include <string>
#include <vector>

namespace voltaic {

/// When a cycling experiment ends before its last cycle (PyBaMM's
/// Experiment(termination=...)); each condition checked after a cycle.
struct CycleTermination {
  /// The cycle's "Capacity [A.h]" (electrode_soh.hpp) at or below this
  /// percentage of the first cycle's.
  std::optional<double> capacity_percent;
  std::optional<double> capacity_ah;  ///< the same, at or below this capacity [A.h]
  std::optional<double> voltage;      ///< the cycle's lowest voltage at or below this [V]

  bool any() const { return capacity_percent || capacity_ah || voltage; }
  /// PyBaMM's wording of the conditions ("80% capacity, 2.5 V").
  std::string text() const;
};

/// Reads PyBaMM's termination strings: "<x>% capacity", "<x> A.h capacity"
/// (or "Ah"), "<x> V" (or "V" without the space).
/// @throws InvalidArgument naming the string and what is allowed
CycleTermination parse_cycle_termination(const std::vector<std::string>& conditions);

/// Which cycles keep their rows (PyBaMM's save_at_cycles): all by default;
/// else the first, the last of the experiment, every multiple of `every`
/// (> 0) and those listed.
struct CycleSaving {
  bool all = true;
  int every = 0;
  std::vector<int> cycles;

  static CycleSaving every_nth(int n);
  static CycleSaving listed(std::vector<int> cycles);
  /// Whether cycle `cycle` (from 1) of `last` keeps its rows.
  bool saved(int cycle, int last) const;
};

}  // namespace voltaic
