// Front end of ParticleDiffusion: builds the shared shell mesh once, checks
// every call's arguments, dispatches to the cpu:: loops or the cuda:: kernels,
// and turns a rejected value into a message that names it and its index.
#include "voltaic/solver/particle_step.hpp"

#include <cmath>
#include <string>
#include <utility>

#include "linalg/solver_support.hpp"
#include "particle_kernels.hpp"
#include "voltaic/linalg/blas1.hpp"

namespace voltaic {

namespace {

constexpr const char* kClass = "ParticleDiffusion";

/// Faces as r / R: the given ones after checking them, or uniform in r.
std::vector<double> mesh_faces(int n, const std::vector<double>& given) {
  std::vector<double> f(n + 1);
  if (given.empty()) {
    for (int i = 0; i <= n; ++i) f[i] = static_cast<double>(i) / n;
    return f;
  }
  if (given.size() != f.size()) {
    throw SizeMismatch("options.faces", kClass,
                       "faces has " + std::to_string(given.size()) + " values; " + std::to_string(n) + " shells need " +
                           std::to_string(n + 1) + " (0 first, 1 last)");
  }
  if (given.front() != 0.0 || given.back() != 1.0) {
    throw InvalidArgument("options.faces", kClass,
                          "faces run from " + detail::show(given.front()) + " to " + detail::show(given.back()) +
                              "; they are r / R and must run from exactly 0 to exactly 1");
  }
  for (int i = 0; i < n; ++i) {
    if (!(given[i + 1] > given[i]) || !std::isfinite(given[i + 1])) {
      throw InvalidArgument("options.faces", kClass,
                            "faces[" + std::to_string(i + 1) + "] = " + detail::show(given[i + 1]) +
                                " must be finite and greater than faces[" + std::to_string(i) +
                                "] = " + detail::show(given[i]));
    }
  }
  return given;
}

template <class T>
Array<T> table(const std::shared_ptr<const Executor>& exec, const std::vector<double>& values) {
  return Array<T>::from_host(exec, std::vector<T>(values.begin(), values.end()));
}

}  // namespace

template <class T>
ParticleDiffusion<T>::ParticleDiffusion(std::shared_ptr<const Executor> exec, int n_shells, View<const T> radii,
                                        ParticleOptions options)
    : exec_(std::move(exec)), n_shells_(n_shells), options_(std::move(options)) {
  if (!exec_) throw InvalidArgument("executor", kClass, "the executor is null");
  if (n_shells_ < 2) {
    throw InvalidArgument("n_shells", kClass,
                          "n_shells = " + std::to_string(n_shells_) +
                              " must be at least 2 (the surface extrapolation uses the two outer shells)");
  }
  detail::require_space(*exec_, radii, kClass, "radii");
  const std::size_t count = radii.size();
  std::vector<T> r(count);
  if (count > 0) exec_->copy(r.data(), MemorySpace::host(), radii.data(), radii.space(), count * sizeof(T));
  for (std::size_t p = 0; p < count; ++p) {
    if (!particle::positive_finite(r[p])) {
      throw InvalidArgument("radii", kClass,
                            "radii[" + std::to_string(p) + "] = " + detail::show(r[p]) + " must be finite and > 0 [m]");
    }
  }

  const int n = n_shells_;
  faces_ = mesh_faces(n, options_.faces);
  centres_.resize(n);
  std::vector<double> volume(n), coupling(n - 1);
  for (int i = 0; i < n; ++i) {
    const double a = faces_[i], b = faces_[i + 1];
    centres_[i] = options_.faces.empty() ? (i + 0.5) / n : 0.5 * (a + b);
    volume[i] = (b - a) * (a * a + a * b + b * b) / 3.0;  // (b^3 - a^3) / 3 without cancellation
  }
  for (int i = 0; i + 1 < n; ++i) coupling[i] = faces_[i + 1] * faces_[i + 1] / (centres_[i + 1] - centres_[i]);
  const double gap = options_.faces.empty() ? 0.5 / n : 1.0 - centres_[n - 1];
  surface_gap_ = static_cast<T>(gap);
  extrapolation_ = static_cast<T>(options_.faces.empty() ? 0.5 : gap / (centres_[n - 1] - centres_[n - 2]));

  radii_ = Array<T>::from_host(exec_, r);
  volume_ = table<T>(exec_, volume);
  coupling_ = table<T>(exec_, coupling);
  work_ = Array<T>(exec_, (static_cast<std::size_t>(n) - 1) * count);
  amount_ = Array<T>(exec_, count);
  ones_ = Array<T>::from_host(exec_, std::vector<T>(count, T(1)));
  flags_ = Array<unsigned long long>(exec_, 3);
  host_flags_ = Array<unsigned long long>::pinned(exec_, 3);
}

template <class T>
particle::ShellMesh<T> ParticleDiffusion<T>::mesh() const {
  return {volume_.data(), coupling_.data(), n_shells_, surface_gap_, extrapolation_};
}

template <class T>
void ParticleDiffusion<T>::check_stream(int stream, const char* where) const {
  const int available = detail::on_cpu(*exec_, where) ? -1 : detail::as_cuda(*exec_).num_streams();
  if (stream < 0 || (available >= 0 && stream >= available)) {
    throw InvalidArgument("stream", where,
                          "stream " + std::to_string(stream) + " is outside [0, " +
                              (available >= 0 ? std::to_string(available) : std::string("inf")) + ")");
  }
}

template <class T>
void ParticleDiffusion<T>::check_values(View<const T> flux, View<const T> diffusivity, View<const T> source,
                                        [[maybe_unused]] int stream, const char* where) const {
  if (!options_.check_values) return;
  const particle::CheckArgs<T> args{flux.data(),        flux.size(),   diffusivity.data(),
                                    diffusivity.size(), source.data(), source.size()};
  particle::FirstInvalid bad;
  if (detail::on_cpu(*exec_, where)) {
    bad = cpu::particle_check(args);
  } else {
    VOLTAIC_ON_CUDA(bad =
                        cuda::particle_check(detail::as_cuda(*exec_), stream, args, flags_.data(), host_flags_.data()));
  }
  const std::size_t count = num_particles();
  if (bad.flux >= 0) {
    const auto p = static_cast<std::size_t>(bad.flux);
    throw InvalidArgument("flux", where,
                          "flux[" + std::to_string(p) + "] = " + detail::show(detail::read_element(*exec_, flux, p)) +
                              " must be finite [mol/m^2/s]");
  }
  if (bad.diffusivity >= 0) {
    const auto k = static_cast<std::size_t>(bad.diffusivity);
    const std::string at = diffusivity.size() == count
                               ? "(particle " + std::to_string(k) + ")"
                               : "(face " + std::to_string(k / count) + ", particle " + std::to_string(k % count) + ")";
    throw InvalidArgument("diffusivity", where,
                          "D[" + std::to_string(k) + "] " + at + " = " +
                              detail::show(detail::read_element(*exec_, diffusivity, k)) +
                              " must be finite and > 0 [m^2/s]");
  }
  if (bad.source >= 0) {
    const auto k = static_cast<std::size_t>(bad.source);
    throw InvalidArgument("source", where,
                          "source[" + std::to_string(k) + "] (shell " + std::to_string(k / count) + ", particle " +
                              std::to_string(k % count) + ") = " +
                              detail::show(detail::read_element(*exec_, source, k)) + " must be finite [mol/m^3/s]");
  }
}

template <class T>
void ParticleDiffusion<T>::run_step(View<T> c_s, View<const T> flux, View<const T> diffusivity, View<const T> source,
                                    bool has_source, T dt, int stream) {
  const char* where = "ParticleDiffusion::step";
  const std::size_t count = num_particles(), n = static_cast<std::size_t>(n_shells_);
  if (!particle::positive_finite(dt)) {
    throw InvalidArgument("dt", where, "dt = " + detail::show(dt) + " must be finite and > 0 [s]");
  }
  detail::require_vector(*exec_, c_s, n * count, where, "c_s");
  detail::require_vector(*exec_, flux, count, where, "flux");
  detail::require_space(*exec_, diffusivity, where, "diffusivity");
  const bool per_face = diffusivity.size() != count;
  if (per_face && diffusivity.size() != (n - 1) * count) {
    throw SizeMismatch("diffusivity", where,
                       "'diffusivity' has " + std::to_string(diffusivity.size()) + " elements; expected " +
                           std::to_string(count) + " (one per particle) or " + std::to_string((n - 1) * count) +
                           " (one per inner face)");
  }
  if (has_source) detail::require_vector(*exec_, source, n * count, where, "source");
  check_stream(stream, where);
  check_values(flux, diffusivity, source, stream, where);
  if (count == 0) return;
  const particle::StepArgs<T> args{
      c_s.data(), work_.data(), flux.data(), diffusivity.data(), has_source ? source.data() : nullptr, radii_.data(),
      dt,         count,        per_face};
  if (detail::on_cpu(*exec_, where)) return cpu::particle_step(mesh(), args);
  VOLTAIC_ON_CUDA(cuda::particle_step(detail::as_cuda(*exec_), stream, mesh(), args));
}

template <class T>
void ParticleDiffusion<T>::step(View<T> c_s, View<const T> flux, View<const T> diffusivity, T dt, int stream) {
  run_step(c_s, flux, diffusivity, View<const T>(), false, dt, stream);
}

template <class T>
void ParticleDiffusion<T>::step(View<T> c_s, View<const T> flux, View<const T> diffusivity, View<const T> source, T dt,
                                int stream) {
  run_step(c_s, flux, diffusivity, source, true, dt, stream);
}

template <class T>
void ParticleDiffusion<T>::surface_concentration(View<const T> c_s, View<const T> flux, View<const T> diffusivity,
                                                 View<T> c_surf, int stream) const {
  surface_concentration(options_.surface, c_s, flux, diffusivity, c_surf, stream);
}

template <class T>
void ParticleDiffusion<T>::surface_concentration(SurfaceMethod method, View<const T> c_s, View<const T> flux,
                                                 View<const T> diffusivity, View<T> c_surf, int stream) const {
  const char* where = "ParticleDiffusion::surface_concentration";
  const std::size_t count = num_particles();
  detail::require_vector(*exec_, c_s, size(), where, "c_s");
  detail::require_vector(*exec_, flux, count, where, "flux");
  detail::require_vector(*exec_, diffusivity, count, where, "diffusivity");
  detail::require_vector(*exec_, c_surf, count, where, "c_surf");
  check_stream(stream, where);
  if (method == SurfaceMethod::flux_aware) check_values(flux, diffusivity, View<const T>(), stream, where);
  const particle::SurfaceArgs<T> args{c_s.data(), flux.data(), diffusivity.data(), radii_.data(), c_surf.data(),
                                      count,      method};
  if (detail::on_cpu(*exec_, where)) return cpu::particle_surface(mesh(), args);
  VOLTAIC_ON_CUDA(cuda::particle_surface(detail::as_cuda(*exec_), stream, mesh(), args));
}

template <class T>
void ParticleDiffusion<T>::lithium(View<const T> c_s, View<T> amount, int stream) const {
  const char* where = "ParticleDiffusion::lithium";
  detail::require_vector(*exec_, c_s, size(), where, "c_s");
  detail::require_vector(*exec_, amount, num_particles(), where, "amount");
  check_stream(stream, where);
  const particle::SurfaceArgs<T> args{c_s.data(),    nullptr,         nullptr,         radii_.data(),
                                      amount.data(), num_particles(), options_.surface};
  if (detail::on_cpu(*exec_, where)) return cpu::particle_lithium(mesh(), args);
  VOLTAIC_ON_CUDA(cuda::particle_lithium(detail::as_cuda(*exec_), stream, mesh(), args));
}

template <class T>
T ParticleDiffusion<T>::total_lithium(View<const T> c_s) {
  lithium(c_s, amount_.view(), 0);
  return dot(*exec_, amount_.const_view(), ones_.const_view());
}

template class ParticleDiffusion<float>;
template class ParticleDiffusion<double>;

}  // namespace voltaic
