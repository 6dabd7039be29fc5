#pragma once
/// @file stencil_bench.hpp
/// @brief The stencil subcommand: StencilOperator::apply, tiled and plain,
/// against the minimal-byte model and the copy bandwidth of the same device.

#include <memory>

#include "bench_result.hpp"
#include "benchmarks.hpp"

namespace voltaic_bench {

/// Fills `r` for an n^3 grid (options.n) in options.precision.
void run_stencil(BenchReport& r, const BenchOptions& o, const std::shared_ptr<const voltaic::Executor>& exec);

}  // namespace voltaic_bench
