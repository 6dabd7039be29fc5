#pragma once
/// @file pack_bench.hpp
/// @brief The pack subcommand: a pack of Chen2020 cells (Np x Ns, each cell's
/// negative thickness and positive particle radius spread on a seeded
/// Latin hypercube) from 90 % charge through a synthetic drive cycle at 1 s resolution:
/// wall time, steps, circuit iterations, cell-steps per second and the
/// ratio to real time, beside a smaller pack on the CPU backend (the
/// baseline, per cell-step) and liionpack's published figure.

#include <memory>
#include <string>
#include <vector>

#include "bench_result.hpp"
#include "voltaic/core/executor.hpp"

namespace voltaic_bench {

struct PackBenchOptions {
  int parallel = 40, series = 100;                 ///< Np, Ns
  double duration = 3600.0;                        ///< [s] of drive cycle, 1 s rows
  double spread = 0.05;                            ///< the cells' parameters uniform on +-spread
  int baseline_parallel = 4, baseline_series = 5;  ///< the CPU baseline's pack (0: none)
  double baseline_duration = 300.0;                ///< [s] of the drive cycle it runs
  std::string json_file;
  bool json_stdout = false;
};

/// The drive cycle: a pack current [A] per second for `seconds`, at mean 0.5C
/// of `capacity_ah` with accelerations and regenerative braking (deterministic).
std::vector<double> pack_drive_cycle(double seconds, double capacity_ah);

/// Fills `r` from `o` on `exec`.
void run_pack(BenchReport& r, const PackBenchOptions& o, const std::shared_ptr<const voltaic::Executor>& exec);

}  // namespace voltaic_bench
