#include "voltaic/solver/simulation.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <sstream>

#include "solver/dfn_launch.hpp"
#include "solver/dfn_point.hpp"
#include "solver/simulation_run.hpp"
#include "voltaic/config.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/linalg/blas1.hpp"
#include "voltaic/solver/diffusion_step.hpp"
#include "voltaic/solver/lumped_thermal.hpp"
#include "voltaic/solver/particle_step.hpp"

namespace voltaic {

struct Simulation::Workspace {
  std::unique_ptr<ParticleDiffusion<double>> particles;
  std::unique_ptr<DiffusionStep<double>> electrolyte, heat;
  std::unique_ptr<PotentialStep> potential;
  std::unique_ptr<LumpedThermal> lumped;
  // State. aj is the reaction of the last potential solve, which the next
  // concentration step uses (the split's lag).
  Array<double> c_s, c_e, T, phi, aj, c_surf;
  Array<double> c_s0, c_e0, T0, phi0, aj0, c_surf0;  // saved at the start of a step attempt
  Array<double> source, flux, ds, de, q, lithium, work;
  std::shared_ptr<const CudaExecutor> cuda;  // set when particles run on their own stream
  std::unique_ptr<CudaEvent> inputs_ready, particles_done;
};

namespace {

void check_control(bool ok, const char* key, double value, const char* range) {
  if (!ok) {
    std::ostringstream why;
    why << "is " << value << "; allowed: " << range;
    throw InvalidArgument(std::string("StepControl::") + key, "Simulation", why.str());
  }
}

void check_step_control(const StepControl& s) {
  check_control(s.initial_dt > 0 && std::isfinite(s.initial_dt), "initial_dt", s.initial_dt, "> 0 s");
  check_control(s.min_dt > 0 && s.min_dt <= s.initial_dt, "min_dt", s.min_dt, "(0, initial_dt]");
  check_control(s.max_dt >= s.initial_dt && std::isfinite(s.max_dt), "max_dt", s.max_dt, "[initial_dt, inf)");
  check_control(s.voltage_tolerance > 0, "voltage_tolerance", s.voltage_tolerance, "> 0 V");
  check_control(s.max_growth > 1, "max_growth", s.max_growth, "> 1");
  check_control(s.max_retries >= 0, "max_retries", s.max_retries, ">= 0");
  check_control(s.reaction_tolerance > 0, "reaction_tolerance", s.reaction_tolerance, "> 0");
  check_control(s.event_tolerance > 0, "event_tolerance", s.event_tolerance, "> 0");
  check_control(s.split_iterations >= 1, "split_iterations", s.split_iterations, ">= 1");
}

/// rho c_p of the whole cell, thickness-weighted over collectors, electrodes
/// and separator (PyBaMM's lumped model), times the cell volume [J/K].
double lumped_heat_capacity(const ParameterSet& p) {
  const auto rc = [](double rho, double cp, double l) { return rho * cp * l; };
  const auto& n = p.negative_electrode;
  const auto& s = p.separator;
  const auto& q = p.positive_electrode;
  const auto& nc = p.negative_current_collector;
  const auto& pc = p.positive_current_collector;
  const double sum =
      rc(nc.density, nc.specific_heat_capacity, nc.thickness) + rc(n.density, n.specific_heat_capacity, n.thickness) +
      rc(s.density, s.specific_heat_capacity, s.thickness) + rc(q.density, q.specific_heat_capacity, q.thickness) +
      rc(pc.density, pc.specific_heat_capacity, pc.thickness);
  const double length = nc.thickness + n.thickness + s.thickness + q.thickness + pc.thickness;
  return sum / length * p.thermal.cell_volume;
}

/// f() (which returns bool), its wall time added to `total` when `on`: the
/// executor is synchronised before and after, so the time is the sub-step's
/// own. A sub-step that throws is not counted.
template <class F>
bool timed(bool on, const Executor& e, double& total, F&& f) {
  if (!on) return f();
  using Clock = std::chrono::steady_clock;
  e.synchronize();
  const Clock::time_point start = Clock::now();
  const bool ok = f();
  e.synchronize();
  total += std::chrono::duration<double>(Clock::now() - start).count();
  return ok;
}

}  // namespace

std::string Simulation::describe_step(const ExperimentStep& step, std::size_t index) {
  return "experiment step " + std::to_string(index + 1) + " (\"" + step.text + "\")";
}

Simulation::Simulation(const ParameterSet& parameters, SimulationOptions options, std::shared_ptr<const Executor> exec)
    : options_(std::move(options)), w_(std::make_unique<Workspace>()) {
  check_step_control(options_.steps);
  if (options_.surface != SurfaceMethod::linear_extrapolation) {
    throw InvalidArgument("SimulationOptions::surface", "Simulation",
                          "only SurfaceMethod::linear_extrapolation is supported: the flux-aware surface value lags "
                          "the reaction current by a step in the operator split, which is unstable");
  }
  if (!std::is_sorted(options_.field_times.begin(), options_.field_times.end()))
    throw InvalidArgument("SimulationOptions::field_times", "Simulation", "must be in increasing order");
  layout_ = std::make_shared<const CellLayout>(parameters, options_.grid, exec);
  const CellLayout& l = *layout_;
  const ParameterSet& p = l.parameters();
  const auto& e = l.executor();
  const std::size_t n = l.num_cells(), np = l.num_particles(),
                    nr = static_cast<std::size_t>(options_.grid.radial_shells);
  Workspace& w = *w_;
  ParticleOptions po;
  po.surface = options_.surface;
  po.check_values = false;  // D and the flux are computed here; the potential step catches bad states
  w.particles =
      std::make_unique<ParticleDiffusion<double>>(e, options_.grid.radial_shells, l.particle_radii().view(), po);
  w.electrolyte = std::make_unique<DiffusionStep<double>>(l.grid(), e, BoundaryConditions{}, options_.diffusion);
  w.potential = std::make_unique<PotentialStep>(layout_, options_.potential);
  if (options_.thermal == ThermalModel::conduction) {
    BoundaryConditions cooled;
    cooled.fill(BoundaryCondition::robin(p.thermal.heat_transfer_coefficient, p.thermal.ambient_temperature));
    w.heat = std::make_unique<DiffusionStep<double>>(l.grid(), e, cooled, options_.diffusion);
  }
  w.lumped = std::make_unique<LumpedThermal>(lumped_heat_capacity(p),
                                             p.thermal.heat_transfer_coefficient * p.thermal.cooling_surface_area,
                                             p.thermal.ambient_temperature);
  for (Array<double>* a : {&w.c_e, &w.T, &w.aj, &w.c_e0, &w.T0, &w.aj0, &w.source, &w.de, &w.q, &w.work})
    *a = Array<double>(e, n);
  for (Array<double>* a : {&w.c_surf, &w.c_surf0, &w.flux, &w.ds, &w.lithium}) *a = Array<double>(e, np);
  w.c_s = Array<double>(e, nr * np);
  w.c_s0 = Array<double>(e, nr * np);
  w.phi = Array<double>(e, 2 * n);
  w.phi0 = Array<double>(e, 2 * n);

  // Initial state: uniform concentrations and temperature, no reaction yet.
  std::vector<double> cs(nr * np);
  const CellMap& m = l.constants().map;
  for (std::size_t q = 0; q < np; ++q) {
    const double c0 = m.region(m.cell_of_particle(q)) == 0 ? p.negative_electrode.initial_concentration
                                                           : p.positive_electrode.initial_concentration;
    for (std::size_t i = 0; i < nr; ++i) cs[i * np + q] = c0;
  }
  e->copy(w.c_s.data(), w.c_s.space(), cs.data(), MemorySpace::host(), cs.size() * sizeof(double));
  fill(*e, w.c_e.view(), p.electrolyte.initial_concentration);
  fill(*e, w.T.view(), p.thermal.initial_temperature);
  fill(*e, w.aj.view(), 0.0);
  fill(*e, w.flux.view(), 0.0);
  fill(*e, w.ds.view(), p.negative_electrode.diffusivity);
  lumped_t_ = p.thermal.initial_temperature;
#if VOLTAIC_HAS_CUDA
  if (e->backend() == Backend::cuda) {
    auto cuda = std::static_pointer_cast<const CudaExecutor>(e);
    if (cuda->num_streams() >= 2) {
      w.cuda = cuda;
      w.inputs_ready = std::make_unique<CudaEvent>(cuda);
      w.particles_done = std::make_unique<CudaEvent>(cuda);
    }
  }
#endif
  w.particles->surface_concentration(w.c_s.view(), w.flux.view(), w.ds.view(), w.c_surf.view());
  w.potential->initial_guess(w.c_surf.view(), w.T.view(), w.phi.view());
}

Simulation::~Simulation() = default;

void Simulation::concentration(double dt) {
  Workspace& w = *w_;
  const CellLayout& l = *layout_;
  const Executor& e = *l.executor();
  const std::size_t n = l.num_cells();
  dfn::for_each_index(
      e, 0, n,
      dfn::ConcentrationInputs{l.constants(), w.aj.data(), w.T.data(), w.source.data(), w.flux.data(), w.ds.data()});
  // Particles and electrolyte are independent: with a CUDA executor the
  // particles run on stream 1 while the electrolyte's CG runs on stream 0.
  const int particle_stream = w.cuda ? 1 : 0;
  if (w.cuda) {
    w.inputs_ready->record(0);
    w.inputs_ready->wait(1);
  }
  w.particles->step(w.c_s.view(), w.flux.view(), w.ds.view(), dt, particle_stream);
  if (w.cuda) w.particles_done->record(1);
  dfn::for_each_index(
      e, 0, n,
      dfn::ElectrolyteProperties{l.constants(), w.c_e.data(), w.T.data(), w.de.data(), nullptr, nullptr, nullptr});
  const SolveReport r = w.electrolyte->step(w.c_e.view(), l.porosity().view(), w.de.view(), w.source.view(), dt);
  if (w.cuda) w.particles_done->wait(0);
  if (!r.converged && !(r.relative_residual < 1e-10)) throw NotConverged("electrolyte diffusion step", r);
  w.particles->surface_concentration(w.c_s.view(), w.flux.view(), w.ds.view(), w.c_surf.view());
}

bool Simulation::potential(const CellDrive& drive, std::string& why) {
  Workspace& w = *w_;
  const PotentialReport r = w.potential->solve(drive, w.c_surf.view(), w.c_e.view(), w.T.view(), w.phi.view());
  if (!r.converged) {
    why = "potential step: " + r.reason;
    return false;
  }
  copy(*layout_->executor(), w.potential->reaction().view(), w.aj.view());
  voltage_ = w.potential->terminal_voltage(drive, w.phi.view());
  current_ = drive.mode == CellDrive::Mode::current ? drive.value : w.potential->current();
  return true;
}

double Simulation::heat_power(const CellDrive& drive) const {
  Workspace& w = *w_;
  const CellLayout& l = *layout_;
  w.potential->heat_source(drive, w.phi.view(), w.c_surf.view(), w.T.view(), w.q.view());
  const ParameterSet& p = l.parameters();
  // Ohmic heat of the two collector foils, i^2 L / sigma per area (PyBaMM's lumped model includes it).
  const double foils = p.negative_current_collector.thickness / p.negative_current_collector.conductivity +
                       p.positive_current_collector.thickness / p.positive_current_collector.conductivity;
  return dot(*l.executor(), w.q.view(), l.volumes().view()) + current_ * current_ * foils / l.electrode_area();
}

void Simulation::temperature(double dt, const CellDrive& drive) {
  Workspace& w = *w_;
  const CellLayout& l = *layout_;
  heat_w_ = heat_power(drive);
  switch (options_.thermal) {
    case ThermalModel::isothermal: break;
    case ThermalModel::lumped:
      lumped_t_ = w.lumped->step(lumped_t_, heat_w_, dt);
      fill(*l.executor(), w.T.view(), lumped_t_);
      break;
    case ThermalModel::conduction: {
      const SolveReport r =
          w.heat->step(w.T.view(), l.heat_capacity().view(), l.thermal_conductivity().view(), w.q.view(), dt);
      if (!r.converged && !(r.relative_residual < 1e-10)) throw NotConverged("heat conduction step", r);
      break;
    }
  }
}

bool Simulation::attempt(double dt, const CellDrive& drive, std::string& why) {
  const bool on = options_.time_substeps;
  const Executor& exec = *layout_->executor();
  SubstepTimes& t = substep_times_;
  ++t.attempts;
  try {
    for (int pass = 0; pass < options_.steps.split_iterations; ++pass) {
      if (pass > 0) {  // iterated splitting: redo the concentrations with the new reaction
        copy(*layout_->executor(), w_->c_s0.view(), w_->c_s.view());
        copy(*layout_->executor(), w_->c_e0.view(), w_->c_e.view());
      }
      timed(on, exec, t.concentration_s, [&] {
        concentration(dt);
        return true;
      });
      if (!timed(on, exec, t.potential_s, [&] { return potential(drive, why); })) return false;
    }
    timed(on, exec, t.thermal_s, [&] {
      temperature(dt, drive);
      return true;
    });
  } catch (const Error& e) {  // NotConverged, or a coefficient outside its domain
    why = e.what();
    return false;
  }
  if (!std::isfinite(voltage_) || !std::isfinite(current_) || !std::isfinite(heat_w_)) {
    why = "the step produced a non-finite voltage, current or heat";
    return false;
  }
  return true;
}

std::vector<std::pair<Array<double>*, Array<double>*>> Simulation::saved_arrays() const {
  Workspace& w = *w_;
  return {{&w.c_s, &w.c_s0}, {&w.c_e, &w.c_e0}, {&w.T, &w.T0},
          {&w.phi, &w.phi0}, {&w.aj, &w.aj0},   {&w.c_surf, &w.c_surf0}};
}

void Simulation::save() {
  const Executor& e = *layout_->executor();
  for (auto [live, kept] : saved_arrays()) copy(e, live->view(), kept->view());
  saved_ = {lumped_t_, voltage_, current_, heat_w_};
}

void Simulation::restore() {
  const Executor& e = *layout_->executor();
  for (auto [live, kept] : saved_arrays()) copy(e, kept->view(), live->view());
  lumped_t_ = saved_[0];
  voltage_ = saved_[1];
  current_ = saved_[2];
  heat_w_ = saved_[3];
}

bool Simulation::consistent_start(const CellDrive& drive, std::string& why) {
  const bool on = options_.time_substeps;
  const Executor& exec = *layout_->executor();
  try {
    if (!timed(on, exec, substep_times_.potential_s, [&] { return potential(drive, why); })) return false;
    timed(on, exec, substep_times_.thermal_s, [&] {
      heat_w_ = heat_power(drive);
      return true;
    });
  } catch (const Error& e) {
    why = e.what();
    return false;
  }
  return true;
}

CellDrive Simulation::drive_of(const ExperimentStep& step) const {
  const double capacity = layout_->parameters().electrical.nominal_capacity;
  switch (step.mode) {
    case StepMode::current: return CellDrive::current(step.current.amperes(capacity));
    case StepMode::rest: return CellDrive::current(0.0);
    case StepMode::voltage: return CellDrive::voltage(step.voltage_v);
    case StepMode::power: break;
  }
  throw InvalidArgument("\"" + step.text + "\"", "Simulation::run", "power-controlled steps are not supported yet");
}

void Simulation::check_step(const ExperimentStep& step, const CellDrive& drive, std::size_t index) const {
  if (!step.until_voltage_v || drive.mode != CellDrive::Mode::current || drive.value == 0.0) return;
  const double target = *step.until_voltage_v;
  const bool discharge = drive.value > 0.0;
  if (discharge ? voltage_ > target : voltage_ < target) return;
  std::ostringstream why;
  why << "is impossible: it " << (discharge ? "discharges" : "charges") << " until " << target
      << " V, but the voltage at its start is already " << voltage_ << " V";
  throw InvalidArgument(describe_step(step, index), "Simulation::run", why.str());
}

void Simulation::record(Solution& s, int step_index, const CellDrive& /*drive*/) const {
  const CellLayout& l = *layout_;
  const Executor& e = *l.executor();
  double mean = lumped_t_, lo = lumped_t_, hi = lumped_t_;
  if (options_.thermal == ThermalModel::conduction) {
    Workspace& w = *w_;
    const double volume = l.electrode_area() * l.grid()->thickness();
    mean = dot(e, w.T.view(), l.volumes().view()) / volume;
    hi = max_abs(e, w.T.view());
    dfn::for_each_index(e, 0, l.num_cells(), dfn::Reciprocal{w.T.data(), w.work.data()});
    lo = 1.0 / max_abs(e, w.work.view());
  }
  s.append({time_, voltage_, current_, capacity_ah_, energy_wh_, mean, lo, hi, heat_w_, double(step_index)});
}

void Simulation::snapshot(Solution& s) const {
  const Workspace& w = *w_;
  const std::size_t n = layout_->num_cells();
  FieldSnapshot f;
  f.time = time_;
  const std::vector<double> phi = w.phi.to_host();
  f.fields["Solid potential [V]"].assign(phi.begin(), phi.begin() + static_cast<std::ptrdiff_t>(n));
  f.fields["Electrolyte potential [V]"].assign(phi.begin() + static_cast<std::ptrdiff_t>(n), phi.end());
  f.fields["Electrolyte concentration [mol.m-3]"] = w.c_e.to_host();
  f.fields["Cell temperature [K]"] = w.T.to_host();
  f.fields["Volumetric interfacial current density [A.m-3]"] = w.aj.to_host();
  f.fields["Total heating [W.m-3]"] = w.q.to_host();
  f.fields["Particle surface concentration [mol.m-3]"] = w.c_surf.to_host();
  s.fields.push_back(std::move(f));
}

double Simulation::next_field_time() const {
  double t = std::numeric_limits<double>::infinity();
  if (next_field_ < options_.field_times.size()) t = options_.field_times[next_field_];
  if (options_.field_period > 0.0) t = std::min(t, options_.field_period * double(next_periodic_field_));
  return t;
}

void Simulation::emit_due_fields(RunContext& run) {
  if (time_ < next_field_time() - 1e-9) return;
  if (run.fields)
    stream_fields(run);
  else
    snapshot(run.solution);
  const auto& times = options_.field_times;
  while (next_field_ < times.size() && times[next_field_] <= time_ + 1e-9) ++next_field_;
  while (options_.field_period > 0.0 && options_.field_period * double(next_periodic_field_) <= time_ + 1e-9)
    ++next_periodic_field_;
}

void Simulation::stream_fields(RunContext& run) {
  const Workspace& w = *w_;
  const CellLayout& l = *layout_;
  const Executor& e = *l.executor();
  const std::size_t n = l.num_cells();
  const std::vector<View<double>>& frame = run.fields->next_frame();
  for (std::size_t f = 0; f < run.streamed.size(); ++f) {
    const std::string& key = run.streamed[f]->key;
    View<double> out = frame[f];
    if (key == "solid_potential")
      copy(e, w.phi.view().subview(0, n), out);
    else if (key == "electrolyte_potential")
      copy(e, w.phi.view().subview(n, n), out);
    else if (key == "electrolyte_concentration")
      copy(e, w.c_e.view(), out);
    else if (key == "temperature")
      copy(e, w.T.view(), out);
    else if (key == "interfacial_current")
      copy(e, w.aj.view(), out);
    else if (key == "heating")
      copy(e, w.q.view(), out);
    else if (key == "particle_surface_concentration")
      dfn::for_each_index(e, 0, n, dfn::ParticlesToCells{l.constants().map, w.c_surf.data(), out.data()});
  }
  run.fields->push(time_);
}

void Simulation::report_row(RunContext& run, bool may_checkpoint) {
  emit_due_fields(run);
  if (!run.observer) return;
  run.observer->on_row(run.solution);
  if (may_checkpoint && run.observer->checkpoint_due(time_)) run.observer->on_checkpoint(make_checkpoint(run));
}

std::string Simulation::experiment_fingerprint(const Experiment& experiment) {
  std::string text = "[";
  for (const ExperimentStep& step : experiment.cycle()) text += "\"" + step.text + "\", ";
  return text + "] x " + std::to_string(experiment.cycles());
}

Solution Simulation::run(const Experiment& experiment, RunObserver* observer) {
  RunContext run;
  run.observer = observer;
  run.experiment = experiment_fingerprint(experiment);
  if (observer) {
    for (const std::string& key : observer->streamed_fields()) {
      const FieldInfo* f = find_field(key);
      if (!f) throw InvalidArgument("field \"" + key + "\"", "Simulation::run", "is not in field_catalog()");
      run.streamed.push_back(f);
    }
  }
  if (!run.streamed.empty()) {
    run.fields = std::make_unique<FieldOutput>(
        layout_->executor(), run.streamed.size(), layout_->num_cells(),
        [observer](double t, const std::vector<const double*>& data) { observer->on_fields(t, data); });
  }
  for (std::size_t s = 0; s < experiment.cycle().size(); ++s) drive_of(experiment.step(s));  // bad steps first
  std::size_t first = 0;
  if (resume_) {
    const std::unique_ptr<Checkpoint> c = std::move(resume_);
    if (c->texts.at("experiment") != run.experiment)
      throw InvalidArgument("checkpoint", "Simulation::run",
                            "was written by a run of another experiment: " + c->texts.at("experiment"));
    resume_solution(*c, run.solution);
    first = cursor_.index;
    run.resuming = true;
  }
  for (std::size_t i = first; i < experiment.total_steps(); ++i) {
    const ExperimentStep& step = experiment.step(i % experiment.cycle().size());
    cursor_.index = i;
    try {
      if (!run_step(step, run)) break;
    } catch (const InvalidArgument& e) {
      if (i == 0) throw;               // seen before anything ran
      run.solution.completed = false;  // found on the way: keep what ran
      run.solution.termination = e.what();
      break;
    }
  }
  if (run.fields) run.fields->finish();
  return std::move(run.solution);
}

}  // namespace voltaic

namespace voltaic {

double Simulation::reaction_lag() const {
  Workspace& w = *w_;
  const Executor& e = *layout_->executor();
  // Relative to the larger of the present reaction and that of a C/100
  // current spread over the negative electrode, so that a rest's rounding-level
  // reaction does not count as a large change.
  const ParameterSet& p = layout_->parameters();
  const double floor =
      0.01 * p.electrical.nominal_capacity / (layout_->electrode_area() * p.negative_electrode.thickness);
  const double scale = std::max(max_abs(e, w.aj.view()), floor);
  copy(e, w.aj.view(), w.work.view());
  axpy(e, -1.0, w.aj0.view(), w.work.view());
  return max_abs(e, w.work.view()) / scale;
}

double Simulation::lithium_inventory() const {
  Workspace& w = *w_;
  const CellLayout& l = *layout_;
  const Executor& e = *l.executor();
  w.particles->lithium(w.c_s.view(), w.lithium.view());
  return dot(e, w.lithium.view(), l.particle_counts().view()) + dot(e, w.c_e.view(), l.electrolyte_weights().view());
}

}  // namespace voltaic
