#pragma once
// Helpers of the ParticleDiffusion tests: arrays on the fixture's executor,
// shell-outer indexing, and the constant-flux asymptote of a sphere.

#include <cstddef>
#include <vector>

#include "test_support.hpp"
#include "voltaic/solver/particle_step.hpp"

namespace voltaic::test {

constexpr double kPi = 3.14159265358979323846;

/// Value (shell i, particle p) of an n x P shell-outer array.
inline std::size_t at(int i, std::size_t p, std::size_t particles) {
  return static_cast<std::size_t>(i) * particles + p;
}

/// n x P values, every particle's profile constant at c[p].
template <class T>
std::vector<T> uniform_profiles(int n, const std::vector<T>& c) {
  std::vector<T> out(static_cast<std::size_t>(n) * c.size());
  for (int i = 0; i < n; ++i)
    for (std::size_t p = 0; p < c.size(); ++p) out[at(i, p, c.size())] = c[p];
  return out;
}

/// The long-time solution of dc/dt = D lap c in a sphere of radius R with
/// constant outward flux N from a uniform c0: a uniform fall at 3 N / R plus a
/// steady parabola of zero mean (the transients decay as exp(-20.19 D t / R^2)).
inline double constant_flux_asymptote(double c0, double flux, double d, double radius, double r, double t) {
  const double x = r / radius;
  return c0 - 3.0 * flux * t / radius + flux * radius / d * (0.3 - 0.5 * x * x);
}

}  // namespace voltaic::test
