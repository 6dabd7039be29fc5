#include "voltaic/solver/potential_step.hpp"

#include <cmath>
#include <vector>

#include "linalg/solver_support.hpp"
#include "solver/collector_system.hpp"
#include "solver/dfn_launch.hpp"
#include "solver/dfn_point.hpp"
#include "solver/failure_cause.hpp"
#include "solver/newton_rate.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/linalg/blas1.hpp"
#include "voltaic/linalg/krylov.hpp"
#include "voltaic/linalg/preconditioner.hpp"
#include "voltaic/linalg/stencil_operator.hpp"
#include "voltaic/model/constants.hpp"
#include "voltaic/model/material_functions.hpp"

namespace voltaic {

/// The operators of one drive mode (the positive face's boundary kind differs).
struct PotentialStep::System {
  std::unique_ptr<StencilOperator<double>> sigma, kappa, kappa_d;  // residual and heat
  std::shared_ptr<TwoFieldStencilOperator<double>> j64;
  std::shared_ptr<TwoFieldStencilOperator<float>> j32;
  std::shared_ptr<BlockZLinePreconditioner<double>> m64;
  std::shared_ptr<BlockZLinePreconditioner<float>> m32;
  std::unique_ptr<GmresIrSolver> solver;
  std::unique_ptr<CollectorSystem> collectors;  ///< with the potential-pair collectors
};

namespace {

/// Per cell: `inside` in the region, `outside` elsewhere.
Array<double> region_values(const CellLayout& layout, CellRegion region, double inside, double outside) {
  const CellMap& m = layout.constants().map;
  std::vector<double> v(m.cells);
  for (std::size_t c = 0; c < m.cells; ++c) v[c] = m.region_of(c) == region ? inside : outside;
  return Array<double>::from_host(layout.executor(), v);
}

/// The kernels' drive; with foils (phi holding them after the cells' 2 n
/// values) the faces are held at the foils' potentials.
dfn::Drive kernel_drive(const CellDrive& d, double area, const CellLayout& layout, const double* phi = nullptr) {
  dfn::Drive k;
  k.voltage_control = d.mode == CellDrive::Mode::voltage;
  k.current_density = k.voltage_control ? 0.0 : d.value / area;
  k.voltage = k.voltage_control ? d.value : 0.0;
  if (phi && layout.spec().collectors == CurrentCollectorModel::potential_pair) {
    const std::size_t n = layout.num_cells(), layer = layout.constants().map.layer;
    k.foil_negative = phi + 2 * n;
    k.foil_positive = phi + 2 * n + layer;
  }
  return k;
}

dfn::Couplings couplings(const StencilOperator<double>& op) {
  const auto& c = op.coefficients();
  return {c.tx.data(), c.ty.data(), c.tz.data()};
}

}  // namespace

PotentialStep::PotentialStep(std::shared_ptr<const CellLayout> layout, PotentialOptions options)
    : layout_(std::move(layout)), options_(options) {
  if (!layout_) throw InvalidArgument("layout", "PotentialStep", "must not be null");
  if (!(options_.tolerance > 0.0) || options_.max_iterations < 1 || !(options_.max_update > 0.0)) {
    throw InvalidArgument("PotentialOptions", "PotentialStep",
                          "tolerance and max_update must be > 0 and max_iterations >= 1");
  }
  const auto& exec = layout_->executor();
  const std::size_t n = layout_->num_cells();
  for (Array<double>* a :
       {&kappa_, &kappa_d_, &c_e_, &aj_, &adj_, &s_phi_, &e_phi_, &d_logc_, &d_s_, &d_e_, &c01_, &c10_})
    *a = Array<double>(exec, n);
  surface_ = Array<double>(exec, layout_->num_particles());
  residual_ = Array<double>(exec, unknowns());
  update_ = Array<double>(exec, unknowns());
  fill(*exec, aj_.view(), 0.0);
}

PotentialStep::~PotentialStep() = default;

bool PotentialStep::has_collectors() const {
  return layout_->spec().collectors == CurrentCollectorModel::potential_pair;
}

std::size_t PotentialStep::unknowns() const {
  return 2 * layout_->num_cells() + (has_collectors() ? 2 * layout_->constants().map.layer : 0);
}

PotentialStep::System& PotentialStep::system(CellDrive::Mode mode) {
  auto& slot = systems_[mode == CellDrive::Mode::voltage ? 1 : 0];
  if (slot) return *slot;
  const CellLayout& l = *layout_;
  const auto& exec = l.executor();
  const auto& grid = l.grid();
  BoundaryConditions solid;  // insulated but for the collector faces
  solid[static_cast<int>(Face::z_lo)] = BoundaryCondition::dirichlet(0.0);
  // The positive face is held at V under voltage control, and at the foil's
  // potential with the potential-pair collectors (which carry the drive).
  solid[static_cast<int>(Face::z_hi)] = mode == CellDrive::Mode::voltage || has_collectors()
                                            ? BoundaryCondition::dirichlet(0.0)
                                            : BoundaryCondition::insulated();
  const BoundaryConditions insulated{};
  const Array<double> separator_one = region_values(l, CellRegion::separator, 1.0, 0.0);
  const Array<double> zero = region_values(l, CellRegion::separator, 0.0, 0.0);
  const Array<double> one = region_values(l, CellRegion::separator, 1.0, 1.0);
  // A nonsingular placeholder Jacobian, of the scale of a real one: a dj/deta
  // for j0 = 1 A/m^2 at 298.15 K. Every solve refreshes it.
  const double f = kFaraday / (kGasConstant * 298.15);
  std::vector<double> reaction(l.num_cells()), coupling(l.num_cells());
  const CellMap& m = l.constants().map;
  std::vector<double> volume = l.volumes().to_host();
  for (std::size_t c = 0; c < m.cells; ++c) {
    reaction[c] = l.constants().region[m.region(c)].surface_area * f;
    coupling[c] = -volume[c] * reaction[c];
  }
  const Array<double> adj = Array<double>::from_host(exec, reaction);
  const Array<double> c01 = Array<double>::from_host(exec, coupling);

  auto s = std::make_unique<System>();
  s->sigma =
      std::make_unique<StencilOperator<double>>(grid, exec, l.solid_conductivity().view(), separator_one.view(), solid);
  const FaceMean mean = options_.electrolyte_face_mean;
  s->kappa = std::make_unique<StencilOperator<double>>(grid, exec, one.view(), zero.view(), insulated, mean);
  s->kappa_d = std::make_unique<StencilOperator<double>>(grid, exec, one.view(), zero.view(), insulated, mean);
  Array<double> d_s(exec, l.num_cells());
  copy(*exec, adj.view(), d_s.view());
  axpy(*exec, 1.0, separator_one.view(), d_s.view());
  s->j64 = std::make_shared<TwoFieldStencilOperator<double>>(
      StencilOperator<double>(grid, exec, l.solid_conductivity().view(), d_s.view(), solid),
      StencilOperator<double>(grid, exec, one.view(), adj.view(), insulated, mean), c01.view(), c01.view());
  if (const auto& d = l.decomposition()) {
    for (StencilOperator<double>* op : {s->sigma.get(), s->kappa.get(), s->kappa_d.get()}) op->decompose(d);
    s->j64->decompose(d);  // before its FP32 copy, which inherits it
  }
  s->j32 = std::make_shared<TwoFieldStencilOperator<float>>(s->j64->converted<float>());
  s->j64->keep_face_sums();  // after a Newton solve's first update, only the diagonals move
  s->m64 = std::make_shared<BlockZLinePreconditioner<double>>(*s->j64);
  s->m32 = std::make_shared<BlockZLinePreconditioner<float>>(*s->j32);
  if (has_collectors())
    s->collectors = std::make_unique<CollectorSystem>(l, mode, s->j64, s->m64, options_.linear);
  else
    s->solver = std::make_unique<GmresIrSolver>(s->j64, s->m64, s->j32, s->m32, options_.linear);
  if (s->solver) {  // GMRES-IR needs the FP64 factors only once FP32 corrections stop helping
    System* sys = s.get();
    s->solver->set_fp64_preparation([sys] { sys->m64->update(*sys->j64); });
  }
  slot = std::move(s);
  return *slot;
}

void PotentialStep::evaluate(System& s, const CellDrive& drive, const ParticleSurface& surface, View<const double> c_e,
                             View<const double> T, View<const double> phi) {
  const auto& exec = *layout_->executor();
  const std::size_t n = layout_->num_cells();
  const DfnConstants& k = layout_->constants();
  const View<const double> phi_s = phi.subview(0, n), phi_e = phi.subview(n, n);
  const bool follows = surface.slope.size() > 0;
  dfn::for_each_index(
      exec, 0, n,
      dfn::ReactionCurrent{k, phi_s.data(), phi_e.data(), c_e.data(), T.data(), surface.value.data(),
                           follows ? surface.slope.data() : nullptr, follows ? surface.flux.data() : nullptr,
                           aj_.data(), adj_.data(), follows ? surface_.data() : nullptr});
  s.sigma->apply(phi_s, s_phi_.view());
  s.kappa->apply(phi_e, e_phi_.view());
  dfn::for_each_index(exec, 0, n,
                      dfn::NewtonSystem{k, kernel_drive(drive, layout_->electrode_area(), *layout_, phi.data()),
                                        s_phi_.data(), e_phi_.data(), d_logc_.data(), aj_.data(), adj_.data(),
                                        residual_.data(), d_s_.data(), d_e_.data(), c01_.data(), c10_.data()});
  if (s.collectors) s.collectors->residual(drive, phi, residual_.view());
}

PotentialReport PotentialStep::solve(const CellDrive& drive, View<const double> c_surf, View<const double> c_e,
                                     View<const double> T, View<double> phi) {
  return solve(drive, ParticleSurface{c_surf, {}, {}, {}}, c_e, T, phi);
}

PotentialReport PotentialStep::solve(const CellDrive& drive, const ParticleSurface& surface, View<const double> c_e,
                                     View<const double> T, View<double> phi) {
  const auto& exec = *layout_->executor();
  const std::size_t n = layout_->num_cells(), np = layout_->num_particles();
  detail::require_vector(exec, surface.value, np, "PotentialStep::solve", "surface.value");
  if (surface.slope.size() > 0 || surface.flux.size() > 0) {
    detail::require_vector(exec, surface.slope, np, "PotentialStep::solve", "surface.slope");
    detail::require_vector(exec, surface.flux, np, "PotentialStep::solve", "surface.flux");
    if (surface.reaction.size() > 0) {
      detail::require_vector(exec, surface.reaction, n, "PotentialStep::solve", "surface.reaction");
      copy(exec, surface.reaction, aj_.view());
    }
  } else {
    copy(exec, surface.value, surface_.view());
  }
  detail::require_vector(exec, c_e, n, "PotentialStep::solve", "c_e");
  detail::require_vector(exec, T, n, "PotentialStep::solve", "T");
  detail::require_vector(exec, phi, unknowns(), "PotentialStep::solve", "phi");
  System& s = system(drive.mode);
  const Grid3D& grid = *layout_->grid();
  const bool direct = grid.nx() == 1 && grid.ny() == 1 && !s.collectors;
  PotentialReport report;
  try {
    dfn::for_each_index(exec, 0, n,
                        dfn::ElectrolyteProperties{layout_->constants(), c_e.data(), T.data(), nullptr, kappa_.data(),
                                                   kappa_d_.data()});
    fill(exec, d_logc_.view(), 0.0);  // zero diagonals for the two pure-flux operators, then the diffusion potential
    s.kappa->update(kappa_.view(), d_logc_.view());
    s.kappa_d->update(kappa_d_.view(), d_logc_.view());
    copy(exec, c_e, c_e_.view());  // for heat_source()
    const Grid3D& g = *layout_->grid();
    dfn::for_each_index(exec, 0, n,
                        dfn::DiffusionPotential{n, layout_->constants().map.layer, g.nx(), g.ny(),
                                                couplings(*s.kappa_d), c_e.data(), d_logc_.data()});
    for (report.iterations = 0;; ++report.iterations) {
      evaluate(s, drive, surface, c_e, T, phi);
      if (report.iterations == options_.max_iterations) {
        report.reason = newton_failure(options_.max_iterations, report.last_update, options_.tolerance);
        return report;
      }
      std::string linear_summary;
      newton_update(s, direct, report, linear_summary);
      const double largest = layout_->max_abs(update_.view());
      if (!std::isfinite(largest)) {
        report.reason = newton_update_failure(linear_summary);
        return report;
      }
      const bool damped = largest > options_.max_update;
      if (damped) scale(exec, options_.max_update / largest, update_.view());
      axpy(exec, 1.0, update_.view(), phi);
      share_ghosts(phi);
      // The error left after this update: the update itself, times the
      // contraction rate the iterates show (Newton's is quadratic, so the
      // rate falls as the updates do); after the first, the rate the
      // measured quadratic constant predicts.
      if (report.iterations == 1 && !damped && report.last_update <= newton::kLargest)
        newton_constant_ = largest / (report.last_update * report.last_update);
      const double rate = report.iterations > 0 ? std::min(1.0, largest / report.last_update)
                                                : newton::first_rate(newton_constant_, largest);
      report.last_update = largest;
      if (!damped && largest * rate <= options_.tolerance) {
        finish_linearised(surface);
        ++report.iterations;  // updates made
        report.converged = true;
        return report;
      }
    }
  } catch (const InvalidArgument& e) {
    // A state outside the model's domain (c_e <= 0, c_surf outside (0, c_max),
    // an overflowing exponential) shows up as a non-finite coefficient.
    report.converged = false;
    report.reason = e.what();
    return report;
  }
}

void PotentialStep::newton_update(System& s, bool direct, PotentialReport& report, std::string& summary) {
  const auto& exec = *layout_->executor();
  // The conductivities stay through a solve: after its first iteration only
  // the reaction's derivatives (the diagonals) and the coupling move.
  if (report.iterations == 0) {
    s.j64->update(layout_->solid_conductivity().view(), d_s_.view(), kappa_.view(), d_e_.view(), c01_.view(),
                  c10_.view());
  } else {
    s.j64->update_diagonals(d_s_.view(), d_e_.view(), c01_.view(), c10_.view());
  }
  if (direct || s.collectors) s.m64->update(*s.j64);  // GMRES-IR's factors it when it needs them
  scale(exec, -1.0, residual_.view());
  if (direct) {
    // One z-line holds every unknown: the block z-line factorisation is the
    // Jacobian's exact LU, so one application solves the system.
    s.m64->apply(residual_.view(), update_.view());
    summary = "direct block-tridiagonal solve";
    return;
  }
  SolveReport linear;
  if (s.collectors) {  // FP64 GMRES (collector_system.hpp says why)
    s.collectors->update();
    linear = s.collectors->solve(residual_.view(), update_.view());
  } else {
    s.j32->assign_converted(*s.j64);
    s.m32->update(*s.j32);
    linear = s.solver->solve_from_zero(residual_.view(), update_.view());
  }
  report.linear_iterations += linear.inner_iterations;
  report.switched_to_fp64 = report.switched_to_fp64 || linear.switched_to_fp64;
  summary = linear.summary();
}

void PotentialStep::finish_linearised(const ParticleSurface& surface) {
  const bool follows = surface.slope.size() > 0;
  dfn::for_each_index(*layout_->executor(), 0, layout_->num_cells(),
                      dfn::LinearisedReaction{layout_->constants(), update_.data(), adj_.data(), surface.value.data(),
                                              follows ? surface.slope.data() : nullptr,
                                              follows ? surface.flux.data() : nullptr, aj_.data(), surface_.data()});
  share_ghosts(aj_.view());
  share_ghosts(surface_.view());
}

void PotentialStep::share_ghosts(View<double> v) const {
  // The ghost cells then repeat their owners' arithmetic from the owners'
  // values: nothing a ghost row computes can leave the model's domain.
  if (const auto& d = layout_->decomposition())
    d->exchange(v.data(), static_cast<int>(v.size() / layout_->grid()->cells_per_layer()));
}

void PotentialStep::initial_guess(View<const double> c_surf, View<const double> T, View<double> phi) const {
  const auto& exec = layout_->executor();
  const std::size_t n = layout_->num_cells();
  detail::require_vector(*exec, phi, unknowns(), "PotentialStep::initial_guess", "phi");
  double t0 = 0.0;
  exec->copy(&t0, MemorySpace::host(), T.data(), T.space(), sizeof(double));
  // Host constants: the OCP below may be a custom function whose data
  // constants() holds in device memory.
  const DfnConstants& k = layout_->host_constants();
  double mean[2] = {0.0, 0.0};
  std::size_t count[2] = {0, 0};
  if (const auto& d = layout_->decomposition()) {
    // Each electrode's particles are whole layers: their canonical sums.
    const std::size_t negative = k.map.negative_end, positive = k.map.particles() - negative;
    const std::size_t layer = k.map.layer, plane = layout_->plane_count(layer);
    mean[0] = d->dot(c_surf.data(), nullptr, static_cast<int>(negative / layer));
    mean[1] = d->dot(c_surf.data() + negative, nullptr, static_cast<int>(positive / layer));
    count[0] = negative / layer * plane;
    count[1] = positive / layer * plane;
  } else {  // the host copy is needed only here: a cut plane sums on its blocks
    std::vector<double> cs(c_surf.size());
    exec->copy(cs.data(), MemorySpace::host(), c_surf.data(), c_surf.space(), cs.size() * sizeof(double));
    for (std::size_t p = 0; p < cs.size(); ++p) {
      const int e = k.map.region(k.map.cell_of_particle(p)) / 2;
      mean[e] += cs[p];
      ++count[e];
    }
  }
  double u[2];
  for (int e = 0; e < 2; ++e)
    u[e] = material::open_circuit_potential(k.electrode[e], mean[e] / count[e] / k.electrode[e].maximum_concentration,
                                            t0, k.reference_temperature);
  std::vector<double> guess(unknowns());
  for (std::size_t c = 0; c < n; ++c) {
    guess[c] = k.map.region_of(c) == CellRegion::positive ? u[1] - u[0] : 0.0;
    guess[n + c] = -u[0];
  }
  for (std::size_t f = 2 * n + k.map.layer; f < guess.size(); ++f) guess[f] = u[1] - u[0];  // the positive foil
  exec->copy(phi.data(), phi.space(), guess.data(), MemorySpace::host(), guess.size() * sizeof(double));
}

double PotentialStep::terminal_voltage(const CellDrive& drive, View<const double> phi) const {
  if (drive.mode == CellDrive::Mode::voltage) return drive.value;
  if (has_collectors()) {
    const auto& slot = systems_[0];
    if (!slot) throw InvalidArgument("terminal_voltage", "PotentialStep", "needs a solve under current control first");
    return slot->collectors->terminal_voltage(drive, phi);
  }
  const std::size_t n = layout_->num_cells();
  const DfnConstants& k = layout_->constants();
  const double face_mean = layout_->dot(phi.subview(0, n), layout_->collector_weights().view());
  const double i = drive.value / layout_->electrode_area();
  return face_mean - i * k.last_layer_dz / (2.0 * k.of(CellRegion::positive).solid_conductivity);
}

double PotentialStep::current() const { return layout_->dot(aj_.view(), layout_->negative_volumes().view()); }

void PotentialStep::heat_source(const CellDrive& drive, View<const double> phi, View<const double> c_surf,
                                View<const double> T, View<double> q) const {
  const auto& exec = *layout_->executor();
  const std::size_t n = layout_->num_cells();
  detail::require_vector(exec, q, n, "PotentialStep::heat_source", "q");
  const auto& slot = systems_[drive.mode == CellDrive::Mode::voltage ? 1 : 0];
  if (!slot)
    throw InvalidArgument("heat_source", "PotentialStep::heat_source", "needs a solve in this drive mode first");
  const Grid3D& g = *layout_->grid();
  dfn::for_each_index(
      exec, 0, n,
      dfn::HeatSource{layout_->constants(), kernel_drive(drive, layout_->electrode_area(), *layout_, phi.data()),
                      g.nx(), g.ny(), couplings(*slot->sigma), couplings(*slot->kappa), couplings(*slot->kappa_d),
                      phi.data(), phi.data() + n, c_e_.data(), aj_.data(), c_surf.data(), T.data(), q.data()});
}

double PotentialStep::foil_heat(const CellDrive& drive, View<const double> phi) const {
  const auto& slot = systems_[drive.mode == CellDrive::Mode::voltage ? 1 : 0];
  if (!slot) throw InvalidArgument("foil_heat", "PotentialStep::foil_heat", "needs a solve in this drive mode first");
  if (slot->collectors) return slot->collectors->foil_heat(drive, phi);
  const ParameterSet& p = layout_->parameters();
  const double foils = p.negative_current_collector.thickness / p.negative_current_collector.conductivity +
                       p.positive_current_collector.thickness / p.positive_current_collector.conductivity;
  const double i = drive.mode == CellDrive::Mode::voltage ? current() : drive.value;
  return i * i * foils / layout_->electrode_area();
}

void PotentialStep::foil_heat_density(const CellDrive& drive, View<const double> phi, View<double> q) const {
  const auto& slot = systems_[drive.mode == CellDrive::Mode::voltage ? 1 : 0];
  if (!slot)
    throw InvalidArgument("foil_heat_density", "PotentialStep::foil_heat_density",
                          "needs a solve in this drive mode first");
  const auto& exec = *layout_->executor();
  const std::size_t layer = layout_->grid()->cells_per_layer();
  detail::require_vector(exec, q, 2 * layer, "PotentialStep::foil_heat_density", "q");
  const ParameterSet& p = layout_->parameters();
  const CurrentCollectorParameters* foil[2] = {&p.negative_current_collector, &p.positive_current_collector};
  if (slot->collectors) {
    slot->collectors->foil_heat(drive, phi, q);
    for (int f = 0; f < 2; ++f) {
      const double volume = layout_->constants().map.face_area * foil[f]->thickness;
      scale(exec, volume > 0.0 ? 1.0 / volume : 0.0, q.subview(f * layer, layer));
    }
    return;
  }
  // Uniform collectors: the current density I / A through each foil's thickness.
  const double i = (drive.mode == CellDrive::Mode::voltage ? current() : drive.value) / layout_->electrode_area();
  for (int f = 0; f < 2; ++f)
    fill(exec, q.subview(f * layer, layer), foil[f]->thickness > 0.0 ? i * i / foil[f]->conductivity : 0.0);
}

void PotentialStep::collector_fields(const CellDrive& drive, View<const double> phi, View<double> out) const {
  const auto& exec = *layout_->executor();
  const DfnConstants& k = layout_->constants();
  if (phi.size() < unknowns())
    throw SizeMismatch(
        "phi", "PotentialStep::collector_fields",
        "'phi' has " + std::to_string(phi.size()) + " elements; expected at least " + std::to_string(unknowns()));
  detail::require_space(exec, phi, "PotentialStep::collector_fields", "phi");
  detail::require_vector(exec, out, 3 * k.map.layer, "PotentialStep::collector_fields", "out");
  dfn::for_each_index(exec, 0, k.map.layer,
                      dfn::CollectorFields{k, kernel_drive(drive, layout_->electrode_area(), *layout_, phi.data()),
                                           terminal_voltage(drive, phi), phi.data(), out.data()});
}

}  // namespace voltaic
