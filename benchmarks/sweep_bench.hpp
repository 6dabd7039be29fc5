#pragma once
/// @file sweep_bench.hpp
/// @brief The sweep subcommand: throughput of BatchSimulation on a Latin
/// hypercube over five Chen2020 parameters (1C discharges to 2.5 V, lumped
/// thermal, PyBaMM's mesh), for each asked thread count: cells per second,
/// speed-up over one thread, and whether every thread count gave the same
/// bits.

#include <memory>

#include "bench_result.hpp"
#include "benchmarks.hpp"
#include "voltaic/io/sweep_config.hpp"

namespace voltaic_bench {

/// Fills `r` from options.sweep on `exec`.
void run_sweep(BenchReport& r, const BenchOptions& o, const std::shared_ptr<const voltaic::Executor>& exec);

/// The sweep's set-up in `r`: parameter set, experiment, grid, sampling.
void describe(BenchReport& r, const SweepBenchOptions& so, const voltaic::io::SweepRunConfig& config);

/// The sweep's config: Chen2020, the mesh and thermal model, and its [sweep] section.
std::string sweep_bench_config(const SweepBenchOptions& so);

}  // namespace voltaic_bench
