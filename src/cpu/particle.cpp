// CPU backend of ParticleDiffusion: plain loops over the shared point
// functions, one particle after another. For a given particle the shells are
// P values apart; consecutive particles share cache lines, so a loop over p
// streams through n lines at a time.
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

template <class T>
VOLTAIC_FMA_CLONES void particle_step(const particle::ShellMesh<T>& mesh, const particle::StepArgs<T>& a) {
  for (std::size_t p = 0; p < a.particles; ++p) particle::step_particle(mesh, a, p);
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
