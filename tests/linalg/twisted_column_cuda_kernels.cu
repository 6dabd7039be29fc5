// The device side of twisted_column_solve_test.cpp (twisted_column_cuda.hpp).
// Built with --fmad=false, as the cell program's kernels are, so that its
// rounding is theirs.
#include "core/cuda_check.hpp"
#include "linalg/twisted_column_cuda.hpp"
#include "linalg/twisted_column_ops.hpp"

namespace voltaic::test::twisted {

namespace {

__global__ void scalar_pair_kernel(const double* diag, const double* tz, const double* r, double* inverse_pivot,
                                   double* z, int nz, int* solved) {
  bool ok = true;
  if (threadIdx.x < 2) ok = precond::twisted_column_half(diag, tz, r, inverse_pivot, z, nz, int(threadIdx.x));
  if (threadIdx.x < 2) atomicAnd(solved, ok ? 1 : 0);
}

__global__ void block_pair_kernel(precond::BlockZLineInputs<double> in, const double* r, double* factors, double* z,
                                  int nz, int* solved) {
  bool ok = true;
  if (threadIdx.x < 2) ok = precond::twisted_block_column_half(in, r, factors, z, nz, int(threadIdx.x));
  if (threadIdx.x < 2) atomicAnd(solved, ok ? 1 : 0);
}

}  // namespace

void scalar_pair(const double* diag, const double* tz, const double* r, double* inverse_pivot, double* z, int nz,
                 int* solved) {
  scalar_pair_kernel<<<1, 32>>>(diag, tz, r, inverse_pivot, z, nz, solved);
  VOLTAIC_LAUNCH_CHECK(nullptr, scalar_pair_kernel);
  VOLTAIC_CUDA_CHECK(cudaDeviceSynchronize());
}

void block_pair(const precond::BlockZLineInputs<double>& in, const double* r, double* factors, double* z, int nz,
                int* solved) {
  block_pair_kernel<<<1, 32>>>(in, r, factors, z, nz, solved);
  VOLTAIC_LAUNCH_CHECK(nullptr, block_pair_kernel);
  VOLTAIC_CUDA_CHECK(cudaDeviceSynchronize());
}

}  // namespace voltaic::test::twisted
