#pragma once
/// @file vcycle_bench.hpp
/// @brief The vcycle subcommand: one V-cycle of the plane multigrid (the
/// collectors' and the heat step's 2D solve) on an n x n pouch plane, per
/// way of running it on the device.

#include <memory>

#include "bench_result.hpp"
#include "benchmarks.hpp"

namespace voltaic_bench {

/// Fills `r` for an n x n plane (options.n) in options.precision.
void run_vcycle(BenchReport& r, const BenchOptions& o, const std::shared_ptr<const voltaic::Executor>& exec);

}  // namespace voltaic_bench
