#pragma once
// The device side of twisted_column_solve_test.cpp: one column a warp,
// lanes 0 and 1 running the twisted solve's halves as the cell program's
// column solves do (twisted_column_ops.hpp). The test owns the device
// arrays (Array<T> on test::cuda_executor()); these launch on them.
#include "linalg/block_zline_ops.hpp"

namespace voltaic::test::twisted {

/// twisted_column_half on lanes 0 and 1 of a warp over nz rows of device
/// arrays; `*solved` (device, 1 on entry) is set to 0 where a lane reports a
/// failure. Returns when the kernel has run.
void scalar_pair(const double* diag, const double* tz, const double* r, double* inverse_pivot, double* z, int nz,
                 int* solved);

/// The same for twisted_block_column_half (r and z field-major, factors
/// kBlockFactors * nz).
void block_pair(const precond::BlockZLineInputs<double>& in, const double* r, double* factors, double* z, int nz,
                int* solved);

}  // namespace voltaic::test::twisted
