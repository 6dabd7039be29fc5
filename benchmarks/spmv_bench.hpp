#pragma once
/// @file spmv_bench.hpp
/// @brief The spmv subcommand: the stencil of an n^3 grid assembled as CSR and
/// ELL, voltaic's SpMV against cuSPARSE CSR and sliced ELL on the same matrix.

#include <memory>

#include "bench_result.hpp"
#include "benchmarks.hpp"

namespace voltaic_bench {

void run_spmv(BenchReport& r, const BenchOptions& o, const std::shared_ptr<const voltaic::Executor>& exec);

}  // namespace voltaic_bench
