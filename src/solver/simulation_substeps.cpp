// The sub-steps of Simulation's operator split (simulation_substeps.hpp).
#include "solver/simulation_substeps.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "solver/dfn_launch.hpp"
#include "solver/dfn_point.hpp"
#include "solver/failure_cause.hpp"
#include "solver/step_control.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/linalg/blas1.hpp"

namespace voltaic {

template <class F>
bool Simulation::Substep::timed(F&& f) {
  if (!sim_.options_.time_substeps) return f();
  // The executor is synchronised before and after, so the time is the
  // sub-step's own. A sub-step that throws is not counted.
  using Clock = std::chrono::steady_clock;
  const Executor& e = *sim_.layout_->executor();
  e.synchronize();
  const DeviceActivity before = device_activity();
  const Clock::time_point start = Clock::now();
  const bool ok = f();
  const DeviceActivity asked = device_activity() - before;
  e.synchronize();
  sim_.substep_times_.*timer_ += std::chrono::duration<double>(Clock::now() - start).count();
  sim_.substep_times_.*activity_ += asked;
  return ok;
}

bool Simulation::Substep::run(const Pass& pass, std::string& why) {
  return timed([&] { return advance(pass, why); });
}

// ---- Concentration ----------------------------------------------------------

bool Simulation::ConcentrationSubstep::advance(const Pass& pass, std::string&) {
  ++sim_.work_.concentration_passes;
  step(pass, true, pass.index == 0);
  return true;
}

void Simulation::ConcentrationSubstep::finish(const Pass& pass) {
  timed([&] {
    Workspace& w = *sim_.w_;
    if (sim_.layout_->max_abs(w.sigma.view()) == 0.0) return true;  // the sink was not linearised
    step(pass, false, false);
    // Where the electrolyte is depleted to zero the sink itself empties it
    // past zero: there the linearised sink ends the step, and lithium is
    // conserved to the split's tolerance, not to rounding.
    if (!sim_.above(w.c_e, sim_.depletion_floor())) step(pass, true, false);
    return true;
  });
}

void Simulation::ConcentrationSubstep::step(const Pass& pass, bool linearised_sink, bool response) {
  Workspace& w = *sim_.w_;
  const CellLayout& l = *sim_.layout_;
  const Executor& e = *l.executor();
  const std::size_t n = l.num_cells();
  const StateHistory& h = *w.history;
  const double dt = pass.dt;
  // The formula's starting values a0 y_n + a1 y_{n-1} (a1 = 0: backward Euler).
  const auto start = [&](const char* name, Array<double>& y) {
    copy(e, h.level(name, 0).const_view(), y.view());
    if (pass.a1 != 0.0) axpby(e, pass.a1, h.level(name, 1).const_view(), pass.a0, y.view());
  };
  dfn::for_each_index(
      e, 0, n,
      dfn::ConcentrationInputs{l.constants(), w.aj.data(), w.T.data(), w.source.data(), w.flux.data(), w.ds.data()});
  // D_e at the present iterate of c_e, so that the passes converge to the implicit step.
  dfn::for_each_index(
      e, 0, n, dfn::ElectrolyteProperties{l.constants(), w.c_e.data(), w.T.data(), w.de.data(), nullptr, nullptr});
  // The surface's response to a unit flux (the particle step is linear in the
  // flux), which makes the particles implicit in the potential step: it
  // needs only D_s and dt, so it runs on the side stream (where there is
  // one) beside the electrolyte's CG. Taken once per attempt: D_s(T) moves
  // little between passes, and a slope a little off only slows the passes
  // (each pass recomputes the surface).
  if (response) {
    fill(e, w.unit_c_s.view(), 0.0);  // on stream 0, before the event
    w.inputs_ready->record(0);
    w.inputs_ready->wait(w.side_stream);
    w.particles->step(w.unit_c_s.view(), w.unit_flux.view(), w.ds.view(), dt, w.side_stream);
    w.particles->surface_concentration(w.unit_c_s.view(), w.unit_flux.view(), w.ds.view(), w.slope.view(),
                                       w.side_stream);
    w.particles_done->record(w.side_stream);
  }
  // The electrolyte next: its sink, linearised to keep c_e positive,
  // decides the flux the particles see.
  copy(e, w.c_e.view(), w.iterate.view());
  start("c_e", w.c_e);
  dfn::for_each_index(e, 0, n,
                      dfn::ElectrolyteSink{l.porosity().data(), w.iterate.data(), w.c_e.data(), dt, linearised_sink,
                                           w.source.data(), w.sigma.data(), w.capacity.data()});
  // CG starts from the last pass's c_e (the first pass's: the predictor's).
  const SolveReport r =
      w.electrolyte->step(w.c_e.view(), w.capacity.view(), w.de.view(), w.source.view(), dt, w.iterate.const_view());
  sim_.work_.electrolyte_iterations += r.iterations;
  if (response) w.particles_done->wait(0);  // joined before anything can throw
  if (!r.converged && !(r.relative_residual < 1e-10)) throw NotConverged("electrolyte diffusion step", r);
  dfn::for_each_index(e, 0, n,
                      dfn::SinkFlux{l.constants(), w.sigma.data(), w.c_e.data(), w.iterate.data(), w.flux.data()});
  start("c_s", w.c_s);
  w.particles->step(w.c_s.view(), w.flux.view(), w.ds.view(), dt);
  w.particles->surface_concentration(w.c_s.view(), w.flux.view(), w.ds.view(), w.c_surf.view());
}

// ---- Potential --------------------------------------------------------------

bool Simulation::PotentialSubstep::advance(const Pass& pass, std::string& why) {
  CellClock& k = sim_.clock();
  Workspace& w = *sim_.w_;
  const StepDrive& drive = pass.drive;
  if (drive.mode == StepDrive::Mode::power) {
    if (!draw_power(drive.value, why)) return false;
  } else {
    const CellDrive d =
        drive.mode == StepDrive::Mode::voltage ? CellDrive::voltage(drive.value) : CellDrive::current(drive.value);
    if (!solve(d, why)) return false;
    k.voltage = w.potential->terminal_voltage(d, w.phi.view());
    k.current = drive.mode == StepDrive::Mode::current ? drive.value : w.potential->current();
  }
  const Executor& e = *sim_.layout_->executor();
  copy(e, w.potential->reaction().view(), w.aj.view());
  copy(e, w.potential->surface().view(), w.c_surf.view());
  return true;
}

bool Simulation::PotentialSubstep::solve(const CellDrive& drive, std::string& why) {
  Workspace& w = *sim_.w_;
  const ParticleSurface surface{w.c_surf.view(), w.slope.view(), w.flux.view(), w.aj.view()};
  const PotentialReport r = w.potential->solve(drive, surface, w.c_e.view(), w.T.view(), w.phi.view());
  w.drive = drive;
  WorkCounts& work = sim_.work_;
  ++work.potential_solves;
  work.newton_iterations += r.iterations;
  work.linear_iterations += r.linear_iterations;
  if (!r.converged) why = "potential step: " + r.reason;
  return r.converged;
}

bool Simulation::PotentialSubstep::draw_power(double watts, std::string& why) {
  // The shared secant iteration (stepping::draw_power) over this cell's potential step.
  struct Cell {
    PotentialSubstep& step;
    std::string& why;
    bool solve_current(double i) { return step.solve(CellDrive::current(i), why); }
    double terminal_voltage(double i) const {
      return step.sim_.w_->potential->terminal_voltage(CellDrive::current(i), step.sim_.w_->phi.view());
    }
  } cell{*this, why};
  const stepping::PowerEnd end = stepping::draw_power(cell, sim_.clock(), watts);
  if (end.outcome == stepping::Power::no_voltage || end.outcome == stepping::Power::unsettled)
    why = power_failure(end.outcome, end.voltage);
  return end.outcome == stepping::Power::drawn;
}

// ---- Thermal ----------------------------------------------------------------

/// T stays at the initial temperature; the heat is still reported.
class Simulation::IsothermalSubstep final : public ThermalSubstep {
 public:
  using ThermalSubstep::ThermalSubstep;

 protected:
  void update(const Pass&) override {}
};

/// PyBaMM's lumped model: one temperature for the cell.
class Simulation::LumpedThermalSubstep final : public ThermalSubstep {
 public:
  using ThermalSubstep::ThermalSubstep;

 protected:
  void update(const Pass& pass) override {
    CellClock& k = sim_.clock();
    Workspace& w = *sim_.w_;
    k.lumped_t = w.lumped->step(pass.a0 * k.lumped_history[0] + pass.a1 * k.lumped_history[1], k.heat_w, pass.dt);
    fill(*sim_.layout_->executor(), w.T.view(), k.lumped_t);
  }
};

/// 3D heat conduction through the whole stack (the foils included), cooled per face.
class Simulation::ConductionSubstep final : public ThermalSubstep {
 public:
  using ThermalSubstep::ThermalSubstep;

 protected:
  void update(const Pass& pass) override {
    Workspace& w = *sim_.w_;
    const Executor& e = *sim_.layout_->executor();
    // The BDF combination of the past values: the implicit step starts from it.
    for (auto [name, now] : {std::pair<const char*, Array<double>*>{"T", &w.T}, {"T_foils", &w.T_foils}}) {
      copy(e, w.history->level(name, 0).const_view(), now->view());
      if (pass.a1 != 0.0) axpby(e, pass.a1, w.history->level(name, 1).const_view(), pass.a0, now->view());
    }
    w.potential->foil_heat_density(solved_drive(pass), w.phi.view(), w.q_foils.view());
    const SolveReport r = w.heat->step(w.T.view(), w.T_foils.view(), w.q.view(), w.q_foils.view(), pass.dt);
    sim_.work_.heat_iterations += r.iterations;
    if (!r.converged && !(r.relative_residual < StackHeat::kAcceptedResidual))
      throw NotConverged("heat conduction step", r);
  }
};

std::unique_ptr<Simulation::ThermalSubstep> Simulation::ThermalSubstep::make(Simulation& sim, ThermalModel model) {
  switch (model) {
    case ThermalModel::isothermal: return std::make_unique<IsothermalSubstep>(sim);
    case ThermalModel::lumped: return std::make_unique<LumpedThermalSubstep>(sim);
    case ThermalModel::conduction: return std::make_unique<ConductionSubstep>(sim);
  }
  throw InvalidArgument("thermal model", "Simulation", "is unknown");
}

void Simulation::ThermalSubstep::start(const Pass& pass) {
  timed([&] {
    heat(pass);
    return true;
  });
}

bool Simulation::ThermalSubstep::advance(const Pass& pass, std::string&) {
  heat(pass);
  update(pass);
  return true;
}

CellDrive Simulation::ThermalSubstep::solved_drive(const Pass& pass) const {
  // A voltage, or the current the potential step found.
  return pass.drive.mode == StepDrive::Mode::voltage ? CellDrive::voltage(pass.drive.value)
                                                     : CellDrive::current(sim_.clock().current);
}

void Simulation::ThermalSubstep::heat(const Pass& pass) {
  CellClock& k = sim_.clock();
  Workspace& w = *sim_.w_;
  const CellLayout& l = *sim_.layout_;
  const CellDrive drive = solved_drive(pass);
  w.potential->heat_source(drive, w.phi.view(), w.c_surf.view(), w.T.view(), w.q.view());
  // Ohmic heat of the two collector foils (PyBaMM's lumped model includes it).
  k.heat_w = l.dot(w.q.view(), l.volumes().view()) + w.potential->foil_heat(drive, w.phi.view());
}

}  // namespace voltaic
