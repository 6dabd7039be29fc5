#pragma once
/// @file step_bench.hpp
/// @brief The step subcommand: wall time of a whole constant-current
/// discharge of the Chen2020 cell (voltaic::Simulation), set-up included and
/// run() alone, with the steps it took and the capacity it reached.

#include <memory>

#include "bench_result.hpp"
#include "benchmarks.hpp"

namespace voltaic_bench {

/// Fills `r` from options.step on `exec`.
void run_step(BenchReport& r, const BenchOptions& o, const std::shared_ptr<const voltaic::Executor>& exec);

}  // namespace voltaic_bench
