// The host's sums over a 1D cell's state (cell_totals.hpp).
#include "solver/cell_totals.hpp"

#include "solver/porosity_point.hpp"
#include "voltaic/solver/electrode_soh.hpp"

namespace voltaic::program {

CellTotals::CellTotals(std::unique_ptr<CellLayout> layout, const SimulationOptions& options, const ProgramSettings& s,
                       const CellConstants& c)
    : s_(s), c_(c), host_(std::move(layout)) {
  ParticleOptions po;
  po.surface = options.surface;
  particles_ = std::make_unique<ParticleDiffusion<double>>(host_->executor(), s_.R, host_->particle_radii().view(), po);
  volume_ = host_->volumes().to_host();
  initial_lithium_ = initial_particle_lithium(host_->parameters());
}

CellTotals::~CellTotals() = default;

std::vector<std::pair<std::size_t, std::size_t>> totals_ranges(const ProgramSettings& s) {
  const SlabOffsets& o = s.o;
  const auto n = static_cast<std::size_t>(s.n);
  std::vector<std::pair<std::size_t, std::size_t>> out = {{o.c_s, static_cast<std::size_t>(s.R * s.P)}};
  if (s.sei) out.emplace_back(o.c_sei, n);
  if (s.plating) {
    out.emplace_back(o.c_pl, n);
    out.emplace_back(o.c_dead, n);
  }
  if (s.lam) {
    out.emplace_back(o.active, n);
    out.emplace_back(o.lam_li, n);
  }
  return out;
}

CellTotals::SeiFilm CellTotals::sei_film(const SlabRead& read) const {
  SeiFilm f;
  if (!s_.sei) return f;
  const std::vector<double> c = read(s_.o.c_sei, static_cast<std::size_t>(s_.n));
  const std::vector<double> active_left = active(read);
  const CellMap& m = host_->host_constants().map;
  double moles = 0.0, film = 0.0, negative = 0.0;
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (m.region_of(i) != CellRegion::negative) continue;
    moles += (c[i] - c_.sei.c0) * volume_[i];
    film += c[i] * c_.sei.c_to_l / active_left[i] * volume_[i];  // L_sei = c_sei V_bar / a, a = a0 f
    negative += volume_[i];
  }
  f.lithium_lost = c_.sei.z * moles;
  f.thickness = film / negative;
  return f;
}

double CellTotals::negative_porosity(const SlabRead& read) const {
  const auto n = static_cast<std::size_t>(s_.n);
  const std::vector<double> none(n, 0.0);
  const std::vector<double> c_sei = s_.sei ? read(s_.o.c_sei, n) : none;
  const std::vector<double> c_pl = s_.plating ? read(s_.o.c_pl, n) : none;
  const std::vector<double> c_dead = s_.plating ? read(s_.o.c_dead, n) : none;
  const std::vector<double> f = active(read);
  const CellMap& m = host_->host_constants().map;
  const double eps0 = host_->parameters().negative_electrode.porosity;
  double sum = 0.0, negative = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    if (m.region_of(i) != CellRegion::negative) continue;
    const double eps = s_.porosity_change ? porosity::value(c_.porosity, c_sei[i], c_pl[i], c_dead[i], f[i]) : eps0;
    sum += eps * volume_[i];
    negative += volume_[i];
  }
  return sum / negative;
}

CellTotals::PlatedLithium CellTotals::plated_lithium(const SlabRead& read) const {
  PlatedLithium f;
  if (!s_.plating) return f;
  const auto n = static_cast<std::size_t>(s_.n);
  const std::vector<double> plated = read(s_.o.c_pl, n), dead = read(s_.o.c_dead, n);
  const CellMap& m = host_->host_constants().map;
  double moles = 0.0, negative = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    if (m.region_of(i) != CellRegion::negative) continue;
    moles += (plated[i] + dead[i]) * volume_[i];
    f.plated += plated[i] * volume_[i];
    f.dead += dead[i] * volume_[i];
    negative += volume_[i];
  }
  f.lithium_lost = moles;
  f.plated /= negative;
  f.dead /= negative;
  return f;
}

std::vector<double> CellTotals::particle_lithium(const SlabRead& read) const {
  const auto P = static_cast<std::size_t>(s_.P);
  const std::vector<double> c_s = read(s_.o.c_s, P * static_cast<std::size_t>(s_.R));
  std::vector<double> out(P);
  particles_->lithium(View<const double>(c_s.data(), c_s.size(), MemorySpace::host()),
                      View<double>(out.data(), out.size(), MemorySpace::host()));
  if (s_.lam) {  // a node's particles hold its active material: eps_s = eps_s0 f of them
    const std::vector<double> f = active(read);
    const CellMap& m = host_->host_constants().map;
    for (std::size_t q = 0; q < P; ++q) out[q] *= f[m.cell_of_particle(q)];
  }
  return out;
}

double CellTotals::total_particle_lithium(const SlabRead& read) const {
  const std::vector<double> lithium = particle_lithium(read);
  return host_->dot(View<const double>(lithium.data(), lithium.size(), MemorySpace::host()),
                    host_->particle_counts().view());
}

std::vector<double> CellTotals::active(const SlabRead& read) const {
  const auto n = static_cast<std::size_t>(s_.n);
  return s_.lam ? read(s_.o.active, n) : std::vector<double>(n, 1.0);
}

CellTotals::ActiveMaterial CellTotals::active_material(const SlabRead& read) const {
  ActiveMaterial a;
  if (!s_.lam) return a;
  const auto n = static_cast<std::size_t>(s_.n);
  const std::vector<double> f = active(read), li = read(s_.o.lam_li, n);
  const CellMap& m = host_->host_constants().map;
  double electrode_volume[2] = {0.0, 0.0}, lost[2] = {0.0, 0.0};
  for (std::size_t i = 0; i < n; ++i) {
    if (m.in_separator(i)) continue;
    const int e = m.region(i) / 2;
    lost[e] += (1.0 - f[i]) * volume_[i];  // exactly 0 where nothing is lost
    a.lithium_lost[e] += li[i] * volume_[i];
    electrode_volume[e] += volume_[i];
  }
  for (int e = 0; e < 2; ++e) a.fraction[e] = 1.0 - lost[e] / electrode_volume[e];
  return a;
}

}  // namespace voltaic::program
