#pragma once
// The operator split's parts as objects behind one interface: a pass of an
// attempt runs the concentration sub-step, then (until the passes settle)
// the coupled sub-steps in order: potential, then thermal. New physics (a
// current-collector solve, say) is one more Substep in Simulation::coupled_.
// Nested in Simulation, they work on its Workspace and CellClock.

#include <string>

#include "solver/simulation_run.hpp"
#include "voltaic/solver/simulation.hpp"

namespace voltaic {

/// One pass of an attempt as the sub-steps see it.
struct Simulation::Pass {
  double a0 = 1.0, a1 = 0.0;  ///< the formula's start a0 y_n + a1 y_{n-1} (a1 = 0: backward Euler)
  double dt = 0.0;            ///< its backward-Euler step [s] (0: no time passes)
  int index = 0;              ///< 0 for the first pass of an attempt
  StepDrive drive;            ///< at the new time: a fixed value
};

class Simulation::Substep {
 public:
  Substep(Simulation& sim, double SubstepTimes::*timer, DeviceActivity SubstepTimes::*activity)
      : sim_(sim), timer_(timer), activity_(activity) {}
  virtual ~Substep() = default;
  Substep(const Substep&) = delete;
  Substep& operator=(const Substep&) = delete;
  /// Advances this part of the state over the pass. False, with `why`, when
  /// it cannot (the attempt is then cut and retried); a solver may also throw
  /// voltaic::Error, which cuts the attempt likewise.
  virtual bool advance(const Pass& pass, std::string& why) = 0;
  /// After the passes have settled (nothing by default).
  virtual void finish(const Pass&) {}
  /// advance(), its wall time added to its SubstepTimes field when
  /// SimulationOptions::time_substeps asks (the executor synchronised).
  bool run(const Pass& pass, std::string& why);

 protected:
  /// f() (which returns bool), timed as run() times advance().
  template <class F>
  bool timed(F&& f);
  Simulation& sim_;

 private:
  double SubstepTimes::*timer_;
  DeviceActivity SubstepTimes::*activity_;
};

/// Particles and electrolyte by a backward-Euler step from the formula's
/// start, the electrolyte's sink linearised in c_e (dfn::ElectrolyteSink);
/// the first pass also takes each particle's surface response to a unit
/// flux, which makes the particles implicit in the potential step.
class Simulation::ConcentrationSubstep final : public Substep {
 public:
  explicit ConcentrationSubstep(Simulation& sim)
      : Substep(sim, &SubstepTimes::concentration_s, &SubstepTimes::concentration_activity) {}
  bool advance(const Pass& pass, std::string& why) override;
  /// A last pass with the electrolyte's own sink: exact lithium.
  void finish(const Pass& pass) override;

 private:
  void step(const Pass& pass, bool linearised_sink, bool response);
};

/// Newton on the potentials for the pass's drive: current, voltage, or the
/// current that draws a power (secant on I V = P). Sets the clock's voltage
/// and current, the reaction aj and the surface c_surf.
class Simulation::PotentialSubstep final : public Substep {
 public:
  explicit PotentialSubstep(Simulation& sim)
      : Substep(sim, &SubstepTimes::potential_s, &SubstepTimes::potential_activity) {}
  bool advance(const Pass& pass, std::string& why) override;

 private:
  bool solve(const CellDrive& drive, std::string& why);
  bool draw_power(double watts, std::string& why);
};

/// The heat of the potential step's state, then the temperature of the
/// thermal model: one subclass per ThermalModel (make()).
class Simulation::ThermalSubstep : public Substep {
 public:
  static std::unique_ptr<ThermalSubstep> make(Simulation& sim, ThermalModel model);
  explicit ThermalSubstep(Simulation& sim) : Substep(sim, &SubstepTimes::thermal_s, &SubstepTimes::thermal_activity) {}
  /// The heat [W] into the clock and q per cell, without a temperature
  /// update (a step's consistent start), timed as run() is.
  void start(const Pass& pass);
  bool advance(const Pass& pass, std::string& why) override;

 protected:
  void heat(const Pass& pass);
  /// The drive the potential step solved in this pass.
  CellDrive solved_drive(const Pass& pass) const;
  /// The temperature at the new time from the heat just computed.
  virtual void update(const Pass& pass) = 0;
};

}  // namespace voltaic
