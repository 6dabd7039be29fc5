#pragma once
/// @file solve_bench.hpp
/// @brief The solve subcommand: time to a 1e-10 relative residual, GMRES-IR
/// (FP32 inner GMRES, FP64 refinement) against FP64 GMRES, same z-line
/// preconditioner, on a 3D anisotropic variable-coefficient problem.

#include <memory>

#include "bench_result.hpp"
#include "benchmarks.hpp"

namespace voltaic_bench {

void run_solve(BenchReport& r, const BenchOptions& o, const std::shared_ptr<const voltaic::Executor>& exec);

}  // namespace voltaic_bench
