#pragma once
/// @file particle_point.hpp
/// @brief The per-particle arithmetic of ParticleDiffusion, written once for
/// the CPU loop and the CUDA kernel (one particle per call) with explicit
/// rounding (rounding.hpp), so that both backends agree bit for bit.
///
/// Every particle shares one mesh of the unit sphere, xi = r / R: faces
/// xi_{i+1/2} (xi_{-1/2} = 0, xi_{n-1/2} = 1), centres xi_i halfway between.
/// Divided by 4 pi R^3, backward Euler on shell i reads
///
///   v_i (c_i' - c_i) = g_{i-1} (c_{i-1}' - c_i') + g_i (c_{i+1}' - c_i') + dt v_i s_i - [i = n-1] dt N / R
///
/// with v_i = (xi_{i+1/2}^3 - xi_{i-1/2}^3) / 3, g_i = (dt D_{i+1/2} / R^2) w_i and
/// w_i = xi_{i+1/2}^2 / (xi_{i+1} - xi_i) (0 for the centre and surface faces).
/// The matrix is a diagonally dominant M-matrix: each row's diagonal exceeds
/// its off-diagonals by v_i. The Thomas sweep keeps that excess e_i instead of
/// forming pivots by subtraction (p_i = e_i + g_i, e_{i+1} = v_{i+1} + g_i e_i / p_i),
/// so every pivot is computed to full relative accuracy however large dt is.
/// Arrays are shell-outer, particle-inner: value (i, p) is at i * P + p.

#include <cstddef>
#include <cstring>

#include "voltaic/core/macros.hpp"
#include "voltaic/linalg/rounding.hpp"

namespace voltaic {

/// How the surface concentration is taken from the shell values.
enum class SurfaceMethod {
  /// c_{n-1} + (R - r_{n-1}) (-N / D): the outermost centre value continued
  /// with the surface gradient the boundary condition prescribes.
  flux_aware,
  /// PyBaMM's linear extrapolation through the two outermost centres
  /// (1.5 c_{n-1} - 0.5 c_{n-2} on a uniform mesh); ignores the flux.
  linear_extrapolation,
};

}  // namespace voltaic

namespace voltaic::particle {

using fp::div;  // a / b correctly rounded on both backends

/// x finite (false for NaN and infinities): x - x is 0 exactly then.
template <class T>
VOLTAIC_HD inline bool finite(T x) {
  return fp::sub(x, x) == T(0);
}
template <class T>
VOLTAIC_HD inline bool positive_finite(T x) {
  return x > T(0) && finite(x);
}

/// The unit-sphere mesh every particle shares, in the executor's memory.
template <class T>
struct ShellMesh {
  const T* volume;    ///< n values v_i
  const T* coupling;  ///< n - 1 values w_i, inner face i + 1/2
  int n;              ///< shells per particle
  T surface_gap;      ///< 1 - xi_{n-1}: centre of the outer shell to the surface, over R
  T extrapolation;    ///< (1 - xi_{n-1}) / (xi_{n-1} - xi_{n-2}): 0.5 on a uniform mesh
};

/// One backward-Euler step of P particles.
template <class T>
struct StepArgs {
  T* c;                   ///< n * P: c at the old time in, at the new time out
  T* work;                ///< (n - 1) * P: the Thomas multipliers q_i = g_i / p_i
  const T* flux;          ///< P: N, out of the particle [mol/m^2/s]
  const T* diffusivity;   ///< P, or (n - 1) * P on inner faces when per_face
  const T* source;        ///< n * P [mol/m^3/s], or null
  const T* radius;        ///< P
  T dt;                   ///< [s]
  std::size_t particles;  ///< P
  bool per_face;
};

/// Advances particle p by one step (StepArgs). The forward sweep leaves
/// y_i / p_i in c and q_i in work; the backward sweep is one fma per shell.
template <class T>
VOLTAIC_HD inline void step_particle(const ShellMesh<T>& mesh, const StepArgs<T>& a, std::size_t p) {
  const std::size_t stride = a.particles;
  const int n = mesh.n;
  const T radius = a.radius[p];
  const T dt_over_r2 = div(a.dt, fp::mul(radius, radius));
  const T lambda = a.per_face ? T(0) : fp::mul(dt_over_r2, a.diffusivity[p]);
  T excess = mesh.volume[0], g_prev = T(0), y_prev = T(0);
  for (int i = 0; i < n; ++i) {
    const std::size_t at = p + static_cast<std::size_t>(i) * stride;
    const T v = mesh.volume[i];
    T g = T(0);
    if (i + 1 < n) g = fp::mul(a.per_face ? fp::mul(dt_over_r2, a.diffusivity[at]) : lambda, mesh.coupling[i]);
    T rhs = fp::mul(v, a.source ? fp::fma(a.dt, a.source[at], a.c[at]) : a.c[at]);
    if (i + 1 == n) rhs = fp::sub(rhs, div(fp::mul(a.dt, a.flux[p]), radius));
    const T inverse_pivot = div(T(1), fp::add(excess, g));
    const T y = fp::mul(fp::fma(g_prev, y_prev, rhs), inverse_pivot);
    a.c[at] = y;
    if (i + 1 < n) {
      a.work[at] = fp::mul(g, inverse_pivot);
      excess = fp::fma(g, fp::mul(excess, inverse_pivot), mesh.volume[i + 1]);
    }
    g_prev = g;
    y_prev = y;
  }
  T next = y_prev;
  for (int i = n - 2; i >= 0; --i) {
    const std::size_t at = p + static_cast<std::size_t>(i) * stride;
    next = fp::fma(a.work[at], next, a.c[at]);
    a.c[at] = next;
  }
}

/// Particles of one radius and diffusivity (the same bits: an electrode of a
/// cell at a uniform temperature) have the same Thomas factors. Computed once,
/// rounded as step_particle() rounds them: inverse pivots (n), multipliers
/// q_i = g_i / p_i (n - 1) and couplings g_i (n - 1).
template <class T>
struct SharedFactors {
  T* inverse_pivot;
  T* multiplier;
  T* coupling;
};

template <class T>
VOLTAIC_HD inline void factor_alike(const ShellMesh<T>& mesh, T radius, T diffusivity, T dt,
                                    const SharedFactors<T>& f) {
  const int n = mesh.n;
  const T lambda = fp::mul(div(dt, fp::mul(radius, radius)), diffusivity);
  T excess = mesh.volume[0];
  for (int i = 0; i < n; ++i) {
    const T g = i + 1 < n ? fp::mul(lambda, mesh.coupling[i]) : T(0);
    const T inverse_pivot = div(T(1), fp::add(excess, g));
    f.inverse_pivot[i] = inverse_pivot;
    if (i + 1 < n) {
      f.coupling[i] = g;
      f.multiplier[i] = fp::mul(g, inverse_pivot);
      excess = fp::fma(g, fp::mul(excess, inverse_pivot), mesh.volume[i + 1]);
    }
  }
}

/// step_particle() for particle p from factor_alike()'s factors of its
/// radius and diffusivity: the same operations on every value, so the same
/// bits, with one division (the flux's) instead of one a shell. `old(at)`
/// gives the old time's value of entry `at` (a.c[at], or a formula's start
/// taken on the fly so that it is never stored).
template <class T, class Old>
VOLTAIC_HD inline void sweep_alike(const ShellMesh<T>& mesh, const StepArgs<T>& a, const SharedFactors<T>& f,
                                   std::size_t p, const Old& old) {
  const std::size_t stride = a.particles;
  const int n = mesh.n;
  T y = T(0);
  for (int i = 0; i < n; ++i) {
    const std::size_t at = p + static_cast<std::size_t>(i) * stride;
    const T c = old(at);
    T rhs = fp::mul(mesh.volume[i], a.source ? fp::fma(a.dt, a.source[at], c) : c);
    if (i + 1 == n) rhs = fp::sub(rhs, div(fp::mul(a.dt, a.flux[p]), a.radius[p]));
    y = fp::mul(fp::fma(i > 0 ? f.coupling[i - 1] : T(0), y, rhs), f.inverse_pivot[i]);
    a.c[at] = y;
  }
  for (int i = n - 2; i >= 0; --i) {
    const std::size_t at = p + static_cast<std::size_t>(i) * stride;
    y = fp::fma(f.multiplier[i], y, a.c[at]);
    a.c[at] = y;
  }
}

/// a and b the same bits (a NaN's payload too).
template <class T>
VOLTAIC_HD inline bool same_bits(T a, T b) {
#if defined(__CUDA_ARCH__)
  if constexpr (sizeof(T) == 8) {
    return __double_as_longlong(a) == __double_as_longlong(b);
  } else {
    return __float_as_int(a) == __float_as_int(b);
  }
#else
  return std::memcmp(&a, &b, sizeof(T)) == 0;
#endif
}

/// Surface concentration of particle p from its two outermost shells.
template <class T>
VOLTAIC_HD inline T surface_value(SurfaceMethod method, const ShellMesh<T>& mesh, T c_last, T c_prev, T flux,
                                  T diffusivity, T radius) {
  if (method == SurfaceMethod::linear_extrapolation) {
    return fp::fma(mesh.extrapolation, fp::sub(c_last, c_prev), c_last);
  }
  return fp::fma(-fp::mul(mesh.surface_gap, radius), div(flux, diffusivity), c_last);
}

/// Lithium in particle p [mol]: 4 pi R^3 sum_i v_i c_i, summed from the centre out.
template <class T>
VOLTAIC_HD inline T lithium(const ShellMesh<T>& mesh, const T* c, T radius, std::size_t p, std::size_t particles) {
  T sum = T(0);
  for (int i = 0; i < mesh.n; ++i) sum = fp::fma(mesh.volume[i], c[p + static_cast<std::size_t>(i) * particles], sum);
  constexpr T kFourPi = static_cast<T>(12.566370614359172954);
  return fp::mul(fp::mul(kFourPi, fp::mul(fp::mul(radius, radius), radius)), sum);
}

}  // namespace voltaic::particle
