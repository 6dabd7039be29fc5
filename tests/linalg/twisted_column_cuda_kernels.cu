// The device side of twisted_column_solve_test.cpp (twisted_column_cuda.hpp).
// Built with --fmad=false, as the cell program's kernels are, so that its
// rounding is theirs.
#include "core/cuda_check.hpp"
#include "linalg/twisted_column_cuda.hpp"
#include "linalg/twisted_column_ops.hpp"

namespace voltaic::test::twisted {

namespace {

__global__ void scalar_pair(const double* diag, const double* tz, const double* r, double* inverse_pivot, double* z,
                            int nz, int* solved) {
  bool ok = true;
  if (threadIdx.x < 2) ok = precond::twisted_column_half(diag, tz, r, inverse_pivot, z, nz, int(threadIdx.x));
  if (threadIdx.x < 2) atomicAnd(solved, ok ? 1 : 0);
}

__global__ void block_pair(precond::BlockZLineInputs<double> in, const double* r, double* factors, double* z, int nz,
                           int* solved) {
  bool ok = true;
  if (threadIdx.x < 2) ok = precond::twisted_block_column_half(in, r, factors, z, nz, int(threadIdx.x));
  if (threadIdx.x < 2) atomicAnd(solved, ok ? 1 : 0);
}

/// A device copy of a host vector, freed with it.
struct DeviceVector {
  double* p = nullptr;
  explicit DeviceVector(const std::vector<double>& v) {
    VOLTAIC_CUDA_CHECK(cudaMalloc(&p, v.size() * sizeof(double) + 8));
    VOLTAIC_CUDA_CHECK(cudaMemcpy(p, v.data(), v.size() * sizeof(double), cudaMemcpyHostToDevice));
  }
  ~DeviceVector() { cudaFree(p); }
  DeviceVector(const DeviceVector&) = delete;
  DeviceVector& operator=(const DeviceVector&) = delete;
  void to(std::vector<double>& v) const {
    VOLTAIC_CUDA_CHECK(cudaMemcpy(v.data(), p, v.size() * sizeof(double), cudaMemcpyDeviceToHost));
  }
};

/// The pair's verdict, 1 until a lane reports a failure.
struct Verdict {
  int* p = nullptr;
  Verdict() {
    VOLTAIC_CUDA_CHECK(cudaMalloc(&p, sizeof(int)));
    const int one = 1;
    VOLTAIC_CUDA_CHECK(cudaMemcpy(p, &one, sizeof one, cudaMemcpyHostToDevice));
  }
  ~Verdict() { cudaFree(p); }
  Verdict(const Verdict&) = delete;
  Verdict& operator=(const Verdict&) = delete;
  bool get() const {
    int v = 0;
    VOLTAIC_CUDA_CHECK(cudaMemcpy(&v, p, sizeof v, cudaMemcpyDeviceToHost));
    return v != 0;
  }
};

}  // namespace

bool scalar_on_device(const std::vector<double>& diag, const std::vector<double>& tz, const std::vector<double>& r,
                      std::vector<double>& inverse_pivot, std::vector<double>& z) {
  const DeviceVector d(diag), t(tz), rr(r), ip(inverse_pivot), zz(z);
  const Verdict solved;
  scalar_pair<<<1, 32>>>(d.p, t.p, rr.p, ip.p, zz.p, static_cast<int>(diag.size()), solved.p);
  VOLTAIC_LAUNCH_CHECK(nullptr, scalar_pair);
  VOLTAIC_CUDA_CHECK(cudaDeviceSynchronize());
  ip.to(inverse_pivot);
  zz.to(z);
  return solved.get();
}

bool block_on_device(const std::vector<std::vector<double>>& inputs, const std::vector<double>& r,
                     std::vector<double>& factors, std::vector<double>& z) {
  const DeviceVector d0(inputs[0]), d1(inputs[1]), t0(inputs[2]), t1(inputs[3]), c01(inputs[4]), c10(inputs[5]);
  const DeviceVector rr(r), f(factors), zz(z);
  const Verdict solved;
  const precond::BlockZLineInputs<double> in{d0.p, d1.p, t0.p, t1.p, c01.p, c10.p};
  block_pair<<<1, 32>>>(in, rr.p, f.p, zz.p, static_cast<int>(inputs[0].size()), solved.p);
  VOLTAIC_LAUNCH_CHECK(nullptr, block_pair);
  VOLTAIC_CUDA_CHECK(cudaDeviceSynchronize());
  f.to(factors);
  zz.to(z);
  return solved.get();
}

}  // namespace voltaic::test::twisted
