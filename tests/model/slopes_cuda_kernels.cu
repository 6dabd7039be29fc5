// The device side of slopes_cuda_vs_cpu_test.cpp: each thread one row
// (slopes_cuda_vs_cpu.hpp). Built with --fmad=false (tests/model/model.cmake),
// as the cell program's kernels are, so that its rounding is theirs.
#include "core/cuda_check.hpp"
#include "model/slopes_cuda_vs_cpu.hpp"

namespace voltaic::test::slopes {

namespace {

__global__ void evaluate_rows(RowConstants s, const double* in, double* out, int rows) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) evaluate_row(s, in + static_cast<long>(r) * kInputs, out + static_cast<long>(r) * kOutputs);
}

}  // namespace

void evaluate_on_device(const RowConstants& s, const double* in, double* out, int rows) {
  if (rows <= 0) return;
  constexpr int kBlock = 128;
  evaluate_rows<<<(rows + kBlock - 1) / kBlock, kBlock>>>(s, in, out, rows);
  VOLTAIC_LAUNCH_CHECK(nullptr, evaluate_rows);
  VOLTAIC_CUDA_CHECK(cudaDeviceSynchronize());
}

}  // namespace voltaic::test::slopes
