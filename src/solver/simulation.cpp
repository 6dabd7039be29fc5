#include "voltaic/solver/simulation.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <sstream>

#include "solver/bdf2.hpp"
#include "solver/cell_engine.hpp"
#include "solver/dfn_launch.hpp"
#include "solver/dfn_point.hpp"
#include "solver/failure_cause.hpp"
#include "solver/mixing_solve.hpp"
#include "solver/run_recorder.hpp"
#include "solver/simulation_run.hpp"
#include "solver/simulation_substeps.hpp"
#include "solver/state_history.hpp"
#include "solver/step_control.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/linalg/blas1.hpp"
#include "voltaic/solver/diffusion_step.hpp"
#include "voltaic/solver/lumped_thermal.hpp"
#include "voltaic/solver/memory_estimate.hpp"
#include "voltaic/solver/particle_step.hpp"
#include "voltaic/solver/solver_options.hpp"

namespace voltaic {

double starting_temperature(const ParameterSet& p, ThermalModel model) {
  return model == ThermalModel::isothermal ? p.thermal.ambient_temperature : p.thermal.initial_temperature;
}

Simulation::Simulation(const ParameterSet& parameters, SimulationOptions options, std::shared_ptr<const Executor> exec)
    : Simulation(parameters, std::move(options), std::move(exec), nullptr) {}

Simulation::Simulation(const ParameterSet& parameters, SimulationOptions options, std::shared_ptr<const Executor> exec,
                       std::shared_ptr<const PlaneDecomposition> decomposition)
    : options_(std::move(options)), w_(std::make_unique<Workspace>()) {
  check_solver_options(options_, "Simulation");
  if (exec && !decomposition) require_memory(options_, *exec);  // before anything is allocated
  if (!std::is_sorted(options_.field_times.begin(), options_.field_times.end()))
    throw InvalidArgument("SimulationOptions::field_times", "Simulation", "must be in increasing order");
  const bool engine = on_cell_engine(options_, decomposition.get());
  layout_ = std::make_shared<const CellLayout>(parameters, options_.grid, exec, std::move(decomposition));
  if (engine) {
    if (options_.time_substeps)
      throw InvalidArgument("SimulationOptions::time_substeps", "Simulation",
                            "is set for a 1D cell, which runs on the cell engine (its sub-steps are not timed apart); "
                            "allowed: false for a 1D cell");
    engine_ = std::make_unique<program::CellEngine>(parameters, options_, exec);
    static_cast<stepping::Clock&>(clock()) = engine_->clock();
    state_ = std::make_unique<EngineState>(*engine_, clock().index, *layout_->executor());
    recorder_ = std::make_unique<RunRecorder>(*layout_, options_, clock(), clock().index, *state_, true);
    return;
  }
  if (options_.degradation.any())
    throw InvalidArgument("SimulationOptions::degradation", "Simulation",
                          describe(options_.degradation) +
                              " is set for a cell the field solvers run (nx or ny > 1, 3D conduction, collectors or a "
                              "cut plane); degradation runs on 1D cells only (the cell engine)");
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
  w.electrolyte = std::make_unique<DiffusionStep<double>>(l.grid(), e, BoundaryConditions{}, options_.diffusion,
                                                          StepBalance::exact);
  w.electrolyte->decompose(l.decomposition());
  w.potential = std::make_unique<PotentialStep>(layout_, options_.potential);
  if (options_.thermal == ThermalModel::conduction) w.heat = std::make_unique<StackHeat>(l, options_.heat);
  w.lumped = std::make_unique<LumpedThermal>(lumped_heat_capacity(p),
                                             p.thermal.heat_transfer_coefficient * p.thermal.cooling_surface_area,
                                             p.thermal.ambient_temperature);
  for (Array<double>* a : {&w.c_e, &w.T, &w.aj, &w.source, &w.de, &w.q, &w.work, &w.c_e_pass, &w.T_pass, &w.iterate,
                           &w.sigma, &w.capacity})
    *a = Array<double>(e, n);
  for (Array<double>* a : {&w.c_surf, &w.flux, &w.ds, &w.lithium, &w.unit_flux, &w.slope}) *a = Array<double>(e, np);
  w.c_s = Array<double>(e, nr * np);
  w.unit_c_s = Array<double>(e, nr * np);
  w.phi = Array<double>(e, w.potential->unknowns());
  w.columns = Array<double>(e, 5 * l.grid()->cells_per_layer());
  fill(*e, w.unit_flux.view(), 1.0);
  w.mixing = std::make_unique<AndersonMixing>(e, n, mixing::kDepth, l.space());
  w.flags = Array<double>(e, std::max(n, nr * np));
  // The registry: BDF2 needs y_n and y_{n-1}; the error estimate's predictor
  // y_{n-2} too, for the quantities it checks, and so does the first pass of
  // the split, which starts every input of the potential step (phi, aj, c_e,
  // T) from the predictor (predict_inputs).
  w.history = std::make_unique<StateHistory>(e);
  w.history->add("c_s", w.c_s, 2);
  w.history->add("c_e", w.c_e, 3);
  w.history->add("T", w.T, 3);
  if (w.heat) {
    const std::size_t foils = 2 * l.grid()->cells_per_layer();
    w.T_foils = Array<double>(e, foils);
    w.q_foils = Array<double>(e, foils);
    fill(*e, w.T_foils.view(), starting_temperature(p, options_.thermal));
    w.history->add("T_foils", w.T_foils, 3);
  }
  w.history->add("c_surf", w.c_surf, 3);
  w.history->add("phi", w.phi, 3);
  w.history->add("aj", w.aj, 3);

  // Initial state: uniform concentrations and temperature, no reaction yet.
  std::vector<double> cs(nr * np);
  const CellMap& m = l.constants().map;
  for (std::size_t q = 0; q < np; ++q) {
    const double c0 = m.region_of(m.cell_of_particle(q)) == CellRegion::negative
                          ? p.negative_electrode.initial_concentration
                          : p.positive_electrode.initial_concentration;
    for (std::size_t i = 0; i < nr; ++i) cs[i * np + q] = c0;
  }
  e->copy(w.c_s.data(), w.c_s.space(), cs.data(), MemorySpace::host(), cs.size() * sizeof(double));
  fill(*e, w.c_e.view(), p.electrolyte.initial_concentration);
  fill(*e, w.T.view(), starting_temperature(p, options_.thermal));
  fill(*e, w.aj.view(), 0.0);
  fill(*e, w.flux.view(), 0.0);
  fill(*e, w.ds.view(), p.negative_electrode.diffusivity);
  clock().lumped_t = starting_temperature(p, options_.thermal);
  std::fill(std::begin(clock().lumped_history), std::end(clock().lumped_history), clock().lumped_t);
  // The surface response runs on a second stream where there is one (no-ops on the CPU).
  w.side_stream = e->num_streams() >= 2 ? 1 : 0;
  w.inputs_ready = e->create_event();
  w.particles_done = e->create_event();
  w.particles->surface_concentration(w.c_s.view(), w.flux.view(), w.ds.view(), w.c_surf.view());
  w.potential->initial_guess(w.c_surf.view(), w.T.view(), w.phi.view());
  concentration_ = std::make_unique<ConcentrationSubstep>(*this);
  potential_ = std::make_unique<PotentialSubstep>(*this);
  thermal_ = ThermalSubstep::make(*this, options_.thermal);
  coupled_ = {potential_.get(), thermal_.get()};
  state_ = std::make_unique<FieldState>(l, w);
  recorder_ = std::make_unique<RunRecorder>(l, options_, clock(), clock().index, *state_, false);
}

Simulation::~Simulation() = default;

double Simulation::scalar_tolerance(double y, double scale) const {
  return options_.steps.relative_tolerance * std::fabs(y) + options_.steps.absolute_tolerance * scale;
}

double Simulation::split_change() const {
  Workspace& w = *w_;
  const Executor& e = *layout_->executor();
  const StepControl& sc = options_.steps;
  const ParameterSet& p = layout_->parameters();
  const std::size_t n = layout_->num_cells();
  const auto change = [&](const Array<double>& now, const Array<double>& before, double scale) {
    dfn::for_each_index(e, 0, n,
                        dfn::LocalError{now.data(), before.data(), before.data(), before.data(), bdf::previous_value(),
                                        sc.relative_tolerance, sc.absolute_tolerance * scale, w.work.data()});
    return std::sqrt(layout_->dot(w.work.view(), w.work.view()) / double(layout_->plane_count(n)));
  };
  double d = change(w.c_e, w.c_e_pass, p.electrolyte.initial_concentration);
  if (options_.thermal != ThermalModel::isothermal) d = std::max(d, change(w.T, w.T_pass, 1.0));
  return d;
}

void Simulation::predict_inputs(double h) {
  // The split's first pass starts from the polynomial through the last
  // accepted values (the error estimate's predictor: quadratic once three
  // are known), extrapolated to the new time, for every input of the
  // potential step: the reaction and potentials it starts Newton from, the
  // electrolyte it linearises about, the temperature. The passes then measure
  // the split's own error, not the step's change in a lagged input, and one
  // pass usually settles it (docs/performance.md, "Work counts and the
  // late-November regression").
  // The weights sum to 1, which keeps the reaction's charge balance.
  Workspace& w = *w_;
  const Executor& exec = *layout_->executor();
  const CellClock& c = clock();
  const StateHistory& past = *w.history;
  const int degree = c.history >= 3 ? 2 : 1;
  const bdf::Estimate k = bdf::estimate(degree, h, c.h1, c.h2);
  const auto predict = [&](const char* name, Array<double>& live) {
    copy(exec, past.level(name, 0).const_view(), live.view());
    axpby(exec, k.l1, past.level(name, 1).const_view(), k.l0, live.view());
    if (degree == 2) axpy(exec, k.l2, past.level(name, 2).const_view(), live.view());
  };
  predict("aj", w.aj);
  predict("phi", w.phi);
  // The electrolyte's first pass evaluates D_e and linearises its sink at
  // this c_e; an extrapolation through zero (depletion) keeps c_e at t_n.
  predict("c_e", w.c_e);
  if (!above(w.c_e, 0.0)) copy(exec, past.level("c_e", 0).const_view(), w.c_e.view());
  if (options_.thermal != ThermalModel::isothermal) predict("T", w.T);
}

// Simulation's split as the shared pass loop sees it (step_control.hpp).
struct Simulation::SplitPasses {
  Simulation& sim;
  Pass& p;
  std::string& why;

  bool concentration(int pass) {
    p.index = pass;  // the index the sub-steps see in their Pass
    return sim.concentration_->run(p, why);
  }
  double split_change() const { return sim.split_change(); }
  bool voltage_driven() const { return p.drive.mode == StepDrive::Mode::voltage; }
  double current() const { return sim.clock().current; }
  double current_tolerance() const { return sim.scalar_tolerance(sim.clock().current, 1.0); }
  stepping::Clock& clock() { return sim.clock(); }
  void mix() {
    // The next c_e for the potential step: Anderson-accelerated, since plain
    // passes diverge where the electrolyte nears depletion.
    Workspace& w = *sim.w_;
    w.mixing->mix(w.c_e_pass.view(), w.c_e.view(), w.work.view());
    if (sim.above(w.work, 0.0)) {
      copy(*sim.layout_->executor(), w.work.view(), w.c_e.view());
    } else {  // extrapolated past depletion: a plain pass instead
      w.mixing->reset();
    }
  }
  void reset_mixing() { sim.w_->mixing->reset(); }
  void keep_inputs() {
    Workspace& w = *sim.w_;
    const Executor& exec = *sim.layout_->executor();
    copy(exec, w.c_e.view(), w.c_e_pass.view());
    copy(exec, w.T.view(), w.T_pass.view());
  }
  bool coupled(int) {
    for (Substep* s : sim.coupled_)
      if (!s->run(p, why)) return false;
    return true;
  }
  bool finish() {
    sim.concentration_->finish(p);
    return true;
  }
};

// Simulation's attempt as the shared skeleton sees it (step_control.hpp).
struct Simulation::Attempt {
  Simulation& sim;
  const StepDrive& drive;
  std::string& why;

  stepping::Clock& clock() { return sim.clock(); }
  void count_attempt() { ++sim.work_.attempts; }
  bool extrapolation_positive(const bdf::Formula& f) {
    Workspace& w = *sim.w_;
    const Executor& exec = *sim.layout_->executor();
    copy(exec, w.history->level("c_e", 0).const_view(), w.work.view());
    axpby(exec, f.a1, w.history->level("c_e", 1).const_view(), f.a0, w.work.view());
    return sim.above(w.work, 0.0);
  }
  double lowest_concentration() {  // as 1 / max |1 / c_e|: a maximum the cut plane reduces
    Workspace& w = *sim.w_;
    dfn::for_each_index(*sim.layout_->executor(), 0, w.c_e.size(),
                        dfn::Reciprocal{w.history->level("c_e", 0).data(), w.work.data()});
    return 1.0 / sim.layout_->max_abs(w.work.view());
  }
  double initial_concentration() const { return sim.layout_->parameters().electrolyte.initial_concentration; }
  void predict_inputs(double h) { sim.predict_inputs(h); }
  stepping::SplitEnd split(const bdf::Formula& f, double h, bool rate_test) {
    // concentration -> potential -> temperature, repeated until the potential
    // step's inputs settle. The passes linearise the electrolyte's sink (it
    // keeps c_e positive where it depletes); a last pass with the sink itself
    // ends the step, so that particles and electrolyte exchange the reaction
    // of the potential step, whose charge balances: lithium is conserved to
    // rounding.
    Pass p{f.a0, f.a1, f.beta * h, 0, drive.at(sim.clock().elapsed + h)};  // implicit: the drive at the new time
    SplitPasses passes{sim, p, why};
    try {
      return stepping::split_passes(passes, h, rate_test, sim.options_.steps.max_split_iterations);
    } catch (const Error& e) {  // NotConverged, or a coefficient outside its domain
      why = e.what();
      return {stepping::Split::failed, 0.0};
    }
  }
  bool above_depletion_floor() { return sim.above(sim.w_->c_e, sim.depletion_floor()); }
};

bool Simulation::attempt(double h, const StepDrive& drive, std::string& why) {
  Attempt a{*this, drive, why};
  const stepping::AttemptEnd end = stepping::attempt(a, h);
  const int most = options_.steps.max_split_iterations;
  switch (end.outcome) {
    case stepping::Attempted::passed: return true;
    case stepping::Attempted::failed: return false;  // the sub-step said why
    case stepping::Attempted::nonfinite_inputs: why = split_failure(stepping::Split::nonfinite, most, 0.0); break;
    case stepping::Attempted::unsettled: why = split_failure(stepping::Split::unsettled, most, end.change); break;
    case stepping::Attempted::nonfinite_terminal: why = terminal_failure(); break;
    case stepping::Attempted::depleted: why = depletion_failure(); break;
  }
  return false;
}

double Simulation::depletion_floor() const {
  return stepping::depletion_floor(options_.steps.absolute_tolerance,
                                   layout_->parameters().electrolyte.initial_concentration);
}

bool Simulation::above(const Array<double>& x, double floor) const {
  Workspace& w = *w_;
  const Executor& e = *layout_->executor();
  dfn::for_each_index(e, 0, x.size(), dfn::NotAbove{x.data(), floor, w.flags.data()});
  return layout_->max_abs(w.flags.view().subview(0, x.size())) == 0.0;
}

double Simulation::local_error(double h, bool voltage_driven) const {
  const CellClock& c = clock();
  if (c.history < 2) return -1.0;
  Workspace& w = *w_;
  const Executor& e = *layout_->executor();
  const StepControl& sc = options_.steps;
  const ParameterSet& p = layout_->parameters();
  const int order = c.last_order;
  const bdf::Estimate k = bdf::estimate(order, h, c.h1, c.h2);
  const StateHistory& s = *w.history;
  const auto norm = [&](const char* name, const Array<double>& y, double scale) {
    const Array<double>& y2 = s.level(name, order >= 2 ? 2 : 1);
    const std::size_t n = y.size();
    dfn::for_each_index(e, 0, n,
                        dfn::LocalError{y.data(), s.level(name, 0).data(), s.level(name, 1).data(), y2.data(), k,
                                        sc.relative_tolerance, sc.absolute_tolerance * scale, w.work.data()});
    const View<const double> error = w.work.view().subview(0, n);
    return std::sqrt(layout_->dot(error, error) / double(layout_->plane_count(n)));
  };
  const double c_max = std::max(p.negative_electrode.maximum_concentration, p.positive_electrode.maximum_concentration);
  double error = std::max(norm("c_e", w.c_e, p.electrolyte.initial_concentration), norm("c_surf", w.c_surf, c_max));
  error = std::max(error, stepping::terminal_error(c, k, voltage_driven, options_.thermal == ThermalModel::lumped,
                                                   sc.relative_tolerance, sc.absolute_tolerance));
  if (options_.thermal == ThermalModel::conduction)
    error = std::max({error, norm("T", w.T, 1.0), norm("T_foils", w.T_foils, 1.0)});
  return stepping::error_test(error);
}

void Simulation::save() {
  CellClock& k = clock();
  w_->history->save();
  k.save();
}

void Simulation::restore() {
  CellClock& k = clock();
  w_->history->restore();
  k.restore();
}

void Simulation::accept(double h) {
  CellClock& k = clock();
  w_->history->rotate();
  k.accept(h);
}

bool Simulation::consistent_start(const StepDrive& step_drive, std::string& why) {
  const Pass p{1.0, 0.0, 0.0, 0, step_drive.at(0.0)};  // no time passes
  try {
    // The surface is held where the particles are.
    fill(*layout_->executor(), w_->slope.view(), 0.0);
    if (!potential_->run(p, why)) return false;
    thermal_->start(p);
  } catch (const Error& e) {
    why = e.what();
    return false;
  }
  clock().history = 1;
  return true;
}

StepDrive step_drive(const ExperimentStep& step, const ElectricalParameters& e) {
  const CurrentValue& i = step.current;
  switch (step.mode) {
    case StepMode::current:
      return {StepDrive::Mode::current, i.c_rate ? e.c_rate_amperes(i.value) : i.value, step.drive_cycle};
    case StepMode::rest: return {StepDrive::Mode::current, 0.0, nullptr};
    case StepMode::voltage: return {StepDrive::Mode::voltage, step.voltage_v, nullptr};
    case StepMode::power: return {StepDrive::Mode::power, step.power_w, step.drive_cycle};
  }
  throw InvalidArgument("\"" + step.text + "\"", "Simulation::run", "has an unknown control mode");
}

StepDrive Simulation::drive_of(const ExperimentStep& step) const {
  return step_drive(step, layout_->parameters().electrical);
}

std::string Simulation::infeasibility(const ExperimentStep& step, const StepDrive& step_drive) const {
  const CellClock& k = clock();
  const double value0 = step_drive.at(0.0).value;
  const stepping::Ends ends = ends_of(step, step_drive);
  std::ostringstream why;
  switch (stepping::start_check(ends, value0, k.voltage, event_margin(step, step_drive))) {
    case stepping::Start::feasible: return "";
    case stepping::Start::until_voltage_behind:
      why << "it " << (value0 > 0.0 ? "discharges" : "charges") << " until " << ends.until_voltage
          << " V, but the voltage at its start is already " << k.voltage << " V";
      return why.str();
    case stepping::Start::cutoff_reached: break;
  }
  const ElectricalParameters& e = layout_->parameters().electrical;
  why << "a cut-off is already reached at its start (voltage " << k.voltage << " V, current " << k.current
      << " A; the cell's voltage cut-offs " << e.lower_voltage_cutoff << " V and " << e.upper_voltage_cutoff << " V";
  if (step.until_current)
    why << ", the step's current limit " << step.until_current->amperes(e.nominal_capacity) << " A";
  why << ")";
  return why.str();
}

CheckpointWindow Simulation::state_window() const { return recorder_->state_window(); }

void Simulation::load_checkpoint(const Checkpoint& c) { recorder_->load_checkpoint(c); }

void Simulation::load_checkpoint(const Checkpoint& c, const Experiment& experiment) {
  recorder_->load_checkpoint(c);
  recorder_->check_resume(experiment);
}

Solution Simulation::run(const Experiment& experiment, RunObserver* observer) {
  RunContext run;
  recorder_->begin(run, observer, experiment);
  for (std::size_t s = 0; s < experiment.cycle().size(); ++s) drive_of(experiment.step(s));  // bad steps first
  const std::size_t first = recorder_->resume(run, experiment);
  if (engine_) {
    run_on_engine(experiment, run, first);
    if (run.fields) run.fields->finish();
    return std::move(run.solution);
  }
  for (std::size_t i = first; i < experiment.total_steps(); ++i) {
    const ExperimentStep& step = experiment.step(i % experiment.cycle().size());
    clock().index = i;
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

double Simulation::lithium_inventory() const { return state_->lithium(); }

}  // namespace voltaic
