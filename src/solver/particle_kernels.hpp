#pragma once
// Backend kernels of ParticleDiffusion. The front end (particle_step.cpp) has
// checked sizes, memory spaces and, when asked, values; these trust their
// pointers. Each runs the point functions of particle_point.hpp, one particle
// per call.

#include <cstddef>

#include "voltaic/solver/particle_point.hpp"

namespace voltaic {
class CudaExecutor;
}

namespace voltaic::particle {

/// The inputs of one step that check_values looks at (source may be null).
template <class T>
struct CheckArgs {
  const T* flux;
  std::size_t flux_size;
  const T* diffusivity;
  std::size_t diffusivity_size;
  const T* source;
  std::size_t source_size;
};

/// The first bad index of each input, -1 when it has none: flux and source
/// must be finite, diffusivity finite and > 0.
struct FirstInvalid {
  long long flux = -1;
  long long diffusivity = -1;
  long long source = -1;
};

/// Surface concentration or lithium amounts: reads c (n P), writes out (P).
template <class T>
struct SurfaceArgs {
  const T* c;
  const T* flux;
  const T* diffusivity;
  const T* radius;
  T* out;
  std::size_t particles;
  SurfaceMethod method;
};

}  // namespace voltaic::particle

namespace voltaic::cpu {

template <class T>
particle::FirstInvalid particle_check(const particle::CheckArgs<T>& a);
template <class T>
void particle_step(const particle::ShellMesh<T>& mesh, const particle::StepArgs<T>& a);
template <class T>
void particle_surface(const particle::ShellMesh<T>& mesh, const particle::SurfaceArgs<T>& a);
template <class T>
void particle_lithium(const particle::ShellMesh<T>& mesh, const particle::SurfaceArgs<T>& a);

}  // namespace voltaic::cpu

namespace voltaic::cuda {

/// flags: 3 device words, host_flags: 3 pinned host words, both owned by the
/// caller (not the executor's shared scratch: another stream may be using it).
/// Waits for `stream`.
template <class T>
particle::FirstInvalid particle_check(const CudaExecutor& exec, int stream, const particle::CheckArgs<T>& a,
                                      unsigned long long* flags, unsigned long long* host_flags);
template <class T>
void particle_step(const CudaExecutor& exec, int stream, const particle::ShellMesh<T>& mesh,
                   const particle::StepArgs<T>& a);
template <class T>
void particle_surface(const CudaExecutor& exec, int stream, const particle::ShellMesh<T>& mesh,
                      const particle::SurfaceArgs<T>& a);
template <class T>
void particle_lithium(const CudaExecutor& exec, int stream, const particle::ShellMesh<T>& mesh,
                      const particle::SurfaceArgs<T>& a);

}  // namespace voltaic::cuda
