// CPU backend of ParticleDiffusion: plain loops over the shared point
// functions. For a given particle the shells are P values apart, so
// particles that share a factorisation are swept together, shell by shell.
#include <vector>

#include "../solver/particle_kernels.hpp"
#include "fma_clones.hpp"

namespace voltaic::cpu {

namespace {

template <class T, class Valid>
long long first_invalid(const T* x, std::size_t n, Valid valid) {
  if (!x) return -1;
  for (std::size_t i = 0; i < n; ++i) {
    if (!valid(x[i])) return static_cast<long long>(i);
  }
  return -1;
}

}  // namespace

template <class T>
particle::FirstInvalid particle_check(const particle::CheckArgs<T>& a) {
  const auto finite = [](T x) { return particle::finite(x); };
  const auto positive = [](T x) { return particle::positive_finite(x); };
  return {first_invalid(a.flux, a.flux_size, finite), first_invalid(a.diffusivity, a.diffusivity_size, positive),
          first_invalid(a.source, a.source_size, finite)};
}

namespace {

/// Particles [first, last) share their radius and diffusivity (the same
/// bits), so their Thomas pivots and multipliers are the same: computed once
/// (particle::factor_alike, as step_particle() rounds them), then each sweep runs over the
/// particles at once (shell by shell, contiguous in p). Every value is
/// rounded as step_particle() rounds it: the results are its bits.
template <class T>
VOLTAIC_FMA_CLONES void step_alike(const particle::ShellMesh<T>& mesh, const particle::StepArgs<T>& a,
                                   std::size_t first, std::size_t last) {
  const std::size_t stride = a.particles;
  const int n = mesh.n;
  thread_local std::vector<T> pivots, multipliers, couplings;
  pivots.resize(static_cast<std::size_t>(n));
  multipliers.resize(static_cast<std::size_t>(n));
  couplings.resize(static_cast<std::size_t>(n));
  const T radius = a.radius[first];
  particle::factor_alike(mesh, radius, a.diffusivity[first], a.dt,
                         particle::SharedFactors<T>{pivots.data(), multipliers.data(), couplings.data()});
  for (int i = 0; i < n; ++i) {
    T* c = a.c + static_cast<std::size_t>(i) * stride;
    const T* source = a.source ? a.source + static_cast<std::size_t>(i) * stride : nullptr;
    const T v = mesh.volume[i], inverse_pivot = pivots[i], g_prev = i > 0 ? couplings[i - 1] : T(0);
    for (std::size_t p = first; p < last; ++p) {
      T rhs = fp::mul(v, source ? fp::fma(a.dt, source[p], c[p]) : c[p]);
      if (i + 1 == n) rhs = fp::sub(rhs, particle::div(fp::mul(a.dt, a.flux[p]), radius));
      const T y_prev = i > 0 ? c[p - stride] : T(0);
      c[p] = fp::mul(fp::fma(g_prev, y_prev, rhs), inverse_pivot);
    }
  }
  for (int i = n - 2; i >= 0; --i) {
    T* c = a.c + static_cast<std::size_t>(i) * stride;
    const T q = multipliers[i];
    for (std::size_t p = first; p < last; ++p) c[p] = fp::fma(q, c[p + stride], c[p]);
  }
}

}  // namespace

/// Runs of particles with the same radius and diffusivity (an electrode of a
/// 1D cell, or any cell at a uniform temperature) share one factorisation
/// (step_alike); the others step one by one.
template <class T>
VOLTAIC_FMA_CLONES void particle_step(const particle::ShellMesh<T>& mesh, const particle::StepArgs<T>& a) {
  for (std::size_t p = 0; p < a.particles;) {
    std::size_t end = p + 1;
    if (!a.per_face) {
      while (end < a.particles && particle::same_bits(a.radius[end], a.radius[p]) &&
             particle::same_bits(a.diffusivity[end], a.diffusivity[p]))
        ++end;
    }
    if (end - p > 1) {
      step_alike(mesh, a, p, end);
    } else {
      particle::step_particle(mesh, a, p);
    }
    p = end;
  }
}

template <class T>
VOLTAIC_FMA_CLONES void particle_surface(const particle::ShellMesh<T>& mesh, const particle::SurfaceArgs<T>& a) {
  const std::size_t last = static_cast<std::size_t>(mesh.n - 1) * a.particles;
  for (std::size_t p = 0; p < a.particles; ++p) {
    a.out[p] = particle::surface_value(a.method, mesh, a.c[last + p], a.c[last - a.particles + p], a.flux[p],
                                       a.diffusivity[p], a.radius[p]);
  }
}

template <class T>
VOLTAIC_FMA_CLONES void particle_lithium(const particle::ShellMesh<T>& mesh, const particle::SurfaceArgs<T>& a) {
  for (std::size_t p = 0; p < a.particles; ++p) a.out[p] = particle::lithium(mesh, a.c, a.radius[p], p, a.particles);
}

#define VOLTAIC_INSTANTIATE(T)                                                                       \
  template particle::FirstInvalid particle_check<T>(const particle::CheckArgs<T>&);                  \
  template void particle_step<T>(const particle::ShellMesh<T>&, const particle::StepArgs<T>&);       \
  template void particle_surface<T>(const particle::ShellMesh<T>&, const particle::SurfaceArgs<T>&); \
  template void particle_lithium<T>(const particle::ShellMesh<T>&, const particle::SurfaceArgs<T>&);
VOLTAIC_INSTANTIATE(float)
VOLTAIC_INSTANTIATE(double)
#undef VOLTAIC_INSTANTIATE

}  // namespace voltaic::cpu
