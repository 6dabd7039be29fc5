// CUDA kernels of ParticleDiffusion: one thread per particle, running the same
// point functions as the CPU loop (particle_point.hpp), so both agree bit for
// bit. Shell i of particle p is at i * P + p: a warp's 32 threads read and
// write 32 consecutive values at every step of both Thomas sweeps, and the
// shared mesh tables (v_i, w_i) are one broadcast load per warp.
//
// Memory per step: (6n - 1) P values (see particle_step.hpp); the kernel
// does a handful of flops per value, so it is bandwidth-bound.
#include <algorithm>
#include <climits>

#include "core/cuda_check.hpp"
#include "solver/particle_kernels.hpp"
#include "voltaic/core/executor.hpp"

namespace voltaic::cuda {

namespace {

constexpr int kBlock = 128;

__device__ __forceinline__ std::size_t thread_index() { return std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; }

unsigned blocks_for(std::size_t items) { return static_cast<unsigned>((items + kBlock - 1) / kBlock); }

template <class T>
__device__ void flag_first_invalid(const T* x, std::size_t n, bool positive, unsigned long long* flag) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = thread_index(); i < n; i += stride) {
    const bool ok = positive ? particle::positive_finite(x[i]) : particle::finite(x[i]);
    if (!ok) atomicMin(flag, static_cast<unsigned long long>(i));
  }
}

template <class T>
__global__ void check_kernel(particle::CheckArgs<T> a, unsigned long long* flags) {
  flag_first_invalid(a.flux, a.flux_size, false, flags);
  flag_first_invalid(a.diffusivity, a.diffusivity_size, true, flags + 1);
  if (a.source) flag_first_invalid(a.source, a.source_size, false, flags + 2);
}

template <class T>
__global__ void __launch_bounds__(kBlock) step_kernel(particle::ShellMesh<T> mesh, particle::StepArgs<T> a) {
  const std::size_t p = thread_index();
  if (p < a.particles) particle::step_particle(mesh, a, p);
}

template <class T>
__global__ void __launch_bounds__(kBlock) surface_kernel(particle::ShellMesh<T> mesh, particle::SurfaceArgs<T> a) {
  const std::size_t p = thread_index();
  if (p >= a.particles) return;
  const std::size_t last = static_cast<std::size_t>(mesh.n - 1) * a.particles;
  a.out[p] = particle::surface_value(a.method, mesh, a.c[last + p], a.c[last - a.particles + p], a.flux[p],
                                     a.diffusivity[p], a.radius[p]);
}

template <class T>
__global__ void __launch_bounds__(kBlock) lithium_kernel(particle::ShellMesh<T> mesh, particle::SurfaceArgs<T> a) {
  const std::size_t p = thread_index();
  if (p < a.particles) a.out[p] = particle::lithium(mesh, a.c, a.radius[p], p, a.particles);
}

long long index_or_none(unsigned long long flag) { return flag == ULLONG_MAX ? -1 : static_cast<long long>(flag); }

}  // namespace

template <class T>
particle::FirstInvalid particle_check(const CudaExecutor& exec, int stream, const particle::CheckArgs<T>& a,
                                      unsigned long long* flags, unsigned long long* host_flags) {
  exec.activate();
  cudaStream_t s = exec.stream(stream);
  VOLTAIC_CUDA_CHECK(cudaMemsetAsync(flags, 0xff, 3 * sizeof(unsigned long long), s));
  const std::size_t longest = std::max({a.flux_size, a.diffusivity_size, a.source ? a.source_size : 0});
  if (longest > 0) {
    const unsigned blocks = std::min<unsigned>(blocks_for(longest), 4096);
    check_kernel<<<blocks, kBlock, 0, s>>>(a, flags);
    VOLTAIC_LAUNCH_CHECK(s, check_kernel);
  }
  // On this stream, not through exec.copy (stream 0): the inputs may have been
  // written by, and the check run after, work on another stream.
  VOLTAIC_CUDA_CHECK(cudaMemcpyAsync(host_flags, flags, 3 * sizeof(unsigned long long), cudaMemcpyDeviceToHost, s));
  VOLTAIC_STREAM_WAIT(s);
  return {index_or_none(host_flags[0]), index_or_none(host_flags[1]), index_or_none(host_flags[2])};
}

template <class T>
void particle_step(const CudaExecutor& exec, int stream, const particle::ShellMesh<T>& mesh,
                   const particle::StepArgs<T>& a) {
  if (a.particles == 0) return;
  exec.activate();
  cudaStream_t s = exec.stream(stream);
  step_kernel<<<blocks_for(a.particles), kBlock, 0, s>>>(mesh, a);
  VOLTAIC_LAUNCH_CHECK(s, step_kernel);
}

template <class T>
void particle_surface(const CudaExecutor& exec, int stream, const particle::ShellMesh<T>& mesh,
                      const particle::SurfaceArgs<T>& a) {
  if (a.particles == 0) return;
  exec.activate();
  cudaStream_t s = exec.stream(stream);
  surface_kernel<<<blocks_for(a.particles), kBlock, 0, s>>>(mesh, a);
  VOLTAIC_LAUNCH_CHECK(s, surface_kernel);
}

template <class T>
void particle_lithium(const CudaExecutor& exec, int stream, const particle::ShellMesh<T>& mesh,
                      const particle::SurfaceArgs<T>& a) {
  if (a.particles == 0) return;
  exec.activate();
  cudaStream_t s = exec.stream(stream);
  lithium_kernel<<<blocks_for(a.particles), kBlock, 0, s>>>(mesh, a);
  VOLTAIC_LAUNCH_CHECK(s, lithium_kernel);
}

#define VOLTAIC_INSTANTIATE(T)                                                                               \
  template particle::FirstInvalid particle_check<T>(const CudaExecutor&, int, const particle::CheckArgs<T>&, \
                                                    unsigned long long*, unsigned long long*);               \
  template void particle_step<T>(const CudaExecutor&, int, const particle::ShellMesh<T>&,                    \
                                 const particle::StepArgs<T>&);                                              \
  template void particle_surface<T>(const CudaExecutor&, int, const particle::ShellMesh<T>&,                 \
                                    const particle::SurfaceArgs<T>&);                                        \
  template void particle_lithium<T>(const CudaExecutor&, int, const particle::ShellMesh<T>&,                 \
                                    const particle::SurfaceArgs<T>&);
VOLTAIC_INSTANTIATE(float)
VOLTAIC_INSTANTIATE(double)
#undef VOLTAIC_INSTANTIATE

}  // namespace voltaic::cuda
