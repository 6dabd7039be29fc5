#pragma once
/// @file particle_step.hpp
/// @brief ParticleDiffusion: the implicit particle-diffusion sub-step, a
/// batched tridiagonal solve with one GPU thread per particle.

#include <cstddef>
#include <memory>
#include <vector>

#include "voltaic/core/array.hpp"
#include "voltaic/core/executor.hpp"
#include "voltaic/core/view.hpp"
#include "voltaic/solver/particle_point.hpp"

namespace voltaic {

/// Options of ParticleDiffusion.
struct ParticleOptions {
  /// What surface_concentration() returns (see SurfaceMethod).
  SurfaceMethod surface = SurfaceMethod::flux_aware;
  /// Shell faces as r / R: n_shells + 1 values, 0 first, 1 last, strictly
  /// increasing. Empty: uniform in r (PyBaMM's mesh).
  std::vector<double> faces;
  /// step() checks every flux, D (and source) value and names the first bad
  /// one before it changes anything. On a CUDA executor that costs one kernel
  /// over the inputs and a 24-byte read-back, i.e. the host waits for the
  /// step's stream; an integrator that validates D where it computes it can
  /// turn this off.
  bool check_values = true;
};

/// Diffusion in P spherical particles of N_r finite-volume shells each:
///
///   dc/dt = (1/r^2) d/dr (r^2 D dc/dr) + s,   dc/dr = 0 at r = 0,   -D dc/dr = N at r = R,
///
/// N the molar flux out of the particle [mol/m^2/s], N = j / F with j the
/// reaction current density per particle surface area [A/m^2]; N > 0 when
/// lithium leaves the particle (the negative electrode on discharge).
///
/// Finite volumes on shells (uniform in r unless ParticleOptions::faces says
/// otherwise): values at shell centres r_i, exact shell volumes
/// 4/3 pi (r_{i+1/2}^3 - r_{i-1/2}^3), face areas 4 pi r_{i+1/2}^2, face
/// gradients (c_{i+1} - c_i) / (r_{i+1} - r_i), the flux N on the surface face.
/// Backward Euler in time: one tridiagonal system per particle, solved by the
/// Thomas algorithm (particle_point.hpp), one CUDA thread per particle.
/// Lithium is conserved exactly up to rounding: each step changes particle
/// p's lithium by -4 pi R_p^2 N_p dt (+ the source's volume integral).
///
/// Concentrations are stored c_s[i * P + p] (shell outer, particle inner), so
/// neighbouring threads touch neighbouring addresses.
///
/// Memory per step (values; n = N_r): reads c_s, flux, D and the radius
/// (n P + 3P); the forward sweep writes y_i / p_i over c_s and the
/// multipliers to the workspace ((2n - 1) P); the backward sweep reads both
/// ((2n - 2) P; the outer shell stays in a register) and writes c_s
/// ((n - 1) P): (6n - 1) P values in all, n P more with a source and (n - 2) P
/// more with per-face D. The backward sweep re-reads what its own thread
/// wrote moments before, so much of it comes from L2. check_values reads the
/// flux, D (and source) once more. Workspace: (n - 1) P values, allocated by
/// the constructor; step() allocates nothing.
template <class T>
class ParticleDiffusion {
 public:
  /// @param exec the executor every array lives on
  /// @param n_shells shells per particle, at least 2
  /// @param radii P particle radii [m], each finite and > 0, in exec's memory (copied)
  /// @throws InvalidArgument naming a bad count, radius (with its index) or face,
  ///         ExecutorMismatch when radii live elsewhere
  ParticleDiffusion(std::shared_ptr<const Executor> exec, int n_shells, View<const T> radii,
                    ParticleOptions options = {});

  /// One backward-Euler step of every particle, c_s updated in place.
  /// @param c_s n_shells * P concentrations [mol/m^3]
  /// @param flux P fluxes out of the particles [mol/m^2/s], finite
  /// @param diffusivity P values [m^2/s] (one per particle, lagged by the caller
  ///        when D depends on c), or (n_shells - 1) * P values on the inner
  ///        faces (face i between shells i and i+1 at i * P + p); finite and > 0
  /// @param dt step [s], finite and > 0
  /// @param stream the CUDA executor's stream to run on (ignored on the CPU)
  /// @throws SizeMismatch, ExecutorMismatch, InvalidArgument naming the bad value and its index
  void step(View<T> c_s, View<const T> flux, View<const T> diffusivity, T dt, int stream = 0);
  /// As above with a volumetric source s (n_shells * P values [mol/m^3/s],
  /// taken at shell centres): manufactured solutions.
  void step(View<T> c_s, View<const T> flux, View<const T> diffusivity, View<const T> source, T dt, int stream = 0);

  /// Surface concentration of each particle by options().surface.
  /// @param flux, diffusivity P values each (D at the surface); both methods
  ///        check their sizes, only the flux-aware one reads (and checks) their values
  /// @param c_surf P outputs
  void surface_concentration(View<const T> c_s, View<const T> flux, View<const T> diffusivity, View<T> c_surf,
                             int stream = 0) const;
  /// As above, by `method`.
  void surface_concentration(SurfaceMethod method, View<const T> c_s, View<const T> flux, View<const T> diffusivity,
                             View<T> c_surf, int stream = 0) const;

  /// Lithium in each particle [mol]: 4 pi R^3 sum_i v_i c_i.
  void lithium(View<const T> c_s, View<T> amount, int stream = 0) const;
  /// Lithium in all particles [mol], summed deterministically (runs on stream 0, waits).
  T total_lithium(View<const T> c_s);

  std::size_t num_particles() const { return radii_.size(); }
  int num_shells() const { return n_shells_; }
  std::size_t size() const { return num_particles() * static_cast<std::size_t>(n_shells_); }
  const std::shared_ptr<const Executor>& executor() const { return exec_; }
  const ParticleOptions& options() const { return options_; }
  /// Shell faces and centres as r / R (n_shells + 1 and n_shells values).
  const std::vector<double>& faces() const { return faces_; }
  const std::vector<double>& centres() const { return centres_; }

  /// The shell mesh in the executor's memory, for kernels (particle_point.hpp).
  particle::ShellMesh<T> mesh() const;

 private:
  void run_step(View<T> c_s, View<const T> flux, View<const T> diffusivity, View<const T> source, bool has_source, T dt,
                int stream);
  void check_stream(int stream, const char* where) const;
  void check_values(View<const T> flux, View<const T> diffusivity, View<const T> source, int stream,
                    const char* where) const;

  std::shared_ptr<const Executor> exec_;
  int n_shells_ = 0;
  ParticleOptions options_;
  std::vector<double> faces_, centres_;
  T surface_gap_{}, extrapolation_{};
  Array<T> radii_;
  Array<T> volume_;                               ///< n_shells values v_i
  Array<T> coupling_;                             ///< n_shells - 1 values w_i
  Array<T> work_;                                 ///< (n_shells - 1) P Thomas multipliers
  Array<T> amount_;                               ///< P, for total_lithium
  Array<T> ones_;                                 ///< P ones, for total_lithium
  mutable Array<unsigned long long> flags_;       ///< device words of the value check
  mutable Array<unsigned long long> host_flags_;  ///< their pinned host copy
};

}  // namespace voltaic
