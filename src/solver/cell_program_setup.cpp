// The host side of the cell program that a batch and a single cell share:
// the experiment as the program runs it, a cell's slab, its constants, its
// settings, and the words of a failure.
#include "solver/cell_program_setup.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "solver/failure_cause.hpp"
#include "solver/step_limits.hpp"
#include "voltaic/core/array.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/solver/lumped_thermal.hpp"

namespace voltaic::program {

std::vector<ProgramStep> compile_experiment(const Experiment& experiment, std::vector<double>& tables) {
  std::vector<ProgramStep> steps;
  std::map<const DriveCycle*, std::size_t> placed;
  for (const ExperimentStep& s : experiment.cycle()) {
    ProgramStep p;
    if (const DriveCycle* t = s.drive_cycle.get()) {
      const auto [at, fresh] = placed.emplace(t, tables.size());
      if (fresh) {
        tables.insert(tables.end(), t->times().begin(), t->times().end());
        tables.insert(tables.end(), t->values().begin(), t->values().end());
      }
      p.table = at->second;
      p.table_rows = t->rows();
    }
    p.voltage_control = s.mode == StepMode::voltage;
    p.power = s.mode == StepMode::power;
    if (s.mode == StepMode::voltage) p.value = s.voltage_v;
    if (s.mode == StepMode::power) p.value = s.power_w;
    if (s.mode == StepMode::current) {
      p.value = s.current.value;
      p.c_rate = s.current.c_rate;
    }
    if (const std::optional<double> until = s.until_voltage_of_cell()) {
      p.has_until_voltage = true;
      p.until_voltage = *until;
    }
    if (s.until_current) {
      p.has_until_current = true;
      p.until_current = s.until_current->value;
      p.until_c_rate = s.until_current->c_rate;
    }
    if (s.duration_s) {
      p.has_duration = true;
      p.duration = *s.duration_s;
    }
    steps.push_back(p);
  }
  return steps;
}

SlabOffsets slab_offsets(std::size_t n, std::size_t P, std::size_t R, int rows_per_call, const DegradationOptions& d) {
  const bool sei = d.film() != SeiModel::none, plating = d.lithium_plating != PlatingModel::none, lam = d.lam();
  SlabOffsets o{};
  std::size_t end = 0;
  const auto take = [&](std::size_t& at, std::size_t size) {
    at = end;
    end += size;
  };
  for (std::size_t* a : {&o.volume, &o.porosity, &o.solid_sigma, &o.dz, &o.negative_volume, &o.separator_one})
    take(*a, n);
  take(o.radius, P);
  take(o.ones, P);
  take(o.c_s, R * P);
  take(o.c_s_levels, 2 * R * P);
  take(o.c_e, n);
  take(o.c_e_levels, 3 * n);
  take(o.c_surf, P);
  take(o.c_surf_levels, 3 * P);
  take(o.phi, 2 * n);
  take(o.phi_levels, 6 * n);
  take(o.aj, n);
  take(o.aj_levels, 3 * n);
  const std::size_t m = sei ? n : 0;
  take(o.c_sei, m);
  take(o.c_sei_levels, 3 * m);
  take(o.aj_sei, m);
  take(o.aj_sei_levels, 3 * m);
  take(o.pot_aj_sei, m);
  take(o.film_drop, m);
  const std::size_t l = plating ? n : 0;
  take(o.c_pl, l);
  take(o.c_pl_levels, 3 * l);
  take(o.c_dead, l);
  take(o.c_dead_levels, 3 * l);
  take(o.aj_pl, l);
  take(o.aj_pl_levels, 3 * l);
  take(o.pot_aj_pl, l);
  take(o.adj_pl, l);
  take(o.adj_main, sei || plating ? n : 0);
  const std::size_t f = lam ? n : 0;
  take(o.active, f);
  take(o.active_levels, 3 * f);
  take(o.lam_li, f);
  take(o.lam_li_levels, 3 * f);
  for (std::size_t* a :
       {&o.T, &o.T_pass, &o.c_e_pass, &o.iterate, &o.source, &o.de, &o.sigma, &o.capacity, &o.q, &o.work})
    take(*a, n);
  take(o.unit_c_s, R * P);
  take(o.particle_work, (R - 1) * P);
  take(o.particle_factors, 6 * R);
  take(o.ds_face, d.any_stress_diffusion() ? (R - 1) * P : 0);
  const std::size_t e = d.porosity_follows_films() ? n : 0;
  for (std::size_t* a : {&o.eps_now, &o.transport, &o.sigma_now}) take(*a, e);
  for (std::size_t* a : {&o.flux, &o.ds, &o.slope, &o.pot_surface}) take(*a, P);
  for (std::size_t* a :
       {&o.pot_aj, &o.adj, &o.kappa, &o.kappa_d, &o.d_logc, &o.s_phi, &o.e_phi, &o.c_e_seen, &o.bv_quadratic})
    take(*a, n);
  take(o.residual, 2 * n);
  take(o.update, 2 * n);
  for (std::size_t* a : {&o.d_s, &o.d_e, &o.c01, &o.c10, &o.sig_diag, &o.sig_tz, &o.kap_diag, &o.kap_tz, &o.kd_diag,
                         &o.kd_tz, &o.j0_diag, &o.j1_diag})
    take(*a, n);
  take(o.factors, 6 * n);
  for (std::size_t* a : {&o.el_diag, &o.el_tz, &o.el_rhs, &o.el_inverse, &o.mix_f, &o.mix_f_last, &o.mix_g_last})
    take(*a, n);
  take(o.mix_df, mixing::kDepth * n);
  take(o.mix_dg, mixing::kDepth * n);
  take(o.rows, static_cast<std::size_t>(rows_per_call) * kRowValues);
  o.total = end;
  return o;
}

std::size_t constant_doubles(const SlabOffsets& o) { return o.c_s; }

CellConstants cell_constants(const CellLayout& layout, const SimulationOptions& options, const SlabOffsets& o,
                             const std::vector<double>& functions, const double* function_copy, double* statics,
                             const char* where) {
  const ParameterSet& p = layout.parameters();
  if (p.custom_function_data() != functions)
    throw InvalidArgument("custom material functions", where,
                          "differ between the cells; allowed with the cell program: the same functions for all");
  const DfnConstants& host = layout.host_constants();
  const std::size_t n = layout.num_cells(), P = layout.num_particles();
  const auto put = [&](std::size_t at, const Array<double>& a) {
    const std::vector<double> v = a.to_host();
    std::copy(v.begin(), v.end(), statics + at);
  };
  put(o.volume, layout.volumes());
  put(o.porosity, layout.porosity());
  put(o.solid_sigma, layout.solid_conductivity());
  put(o.negative_volume, layout.negative_volumes());
  put(o.radius, layout.particle_radii());
  const std::vector<double>& dz = layout.grid()->dz();
  std::copy(dz.begin(), dz.end(), statics + o.dz);
  for (std::size_t c = 0; c < n; ++c) statics[o.separator_one + c] = host.map.in_separator(c) ? 1.0 : 0.0;
  std::fill(statics + o.ones, statics + o.ones + P, 1.0);

  CellConstants c;
  c.k = host;
  c.k.map.volume = nullptr;  // set where the slab lies
  if (!functions.empty()) rebase_custom_functions(c.k, p.custom_function_data().data(), function_copy);
  c.dx = layout.grid()->dx();
  c.dy = layout.grid()->dy();
  c.area = layout.electrode_area();
  c.nominal_capacity = p.electrical.nominal_capacity;
  c.discharge_rate_factor = p.electrical.discharge_rate_factor;
  c.charge_rate_factor = p.electrical.charge_rate_factor;
  c.lower_cutoff = p.electrical.lower_voltage_cutoff;
  c.upper_cutoff = p.electrical.upper_voltage_cutoff;
  c.lumped_capacity = lumped_heat_capacity(p);
  c.lumped_cooling = p.thermal.heat_transfer_coefficient * p.thermal.cooling_surface_area;
  c.ambient = p.thermal.ambient_temperature;
  LumpedThermal(c.lumped_capacity, c.lumped_cooling, c.ambient);  // validates them as Simulation does
  c.foils = p.negative_current_collector.thickness / p.negative_current_collector.conductivity +
            p.positive_current_collector.thickness / p.positive_current_collector.conductivity;
  c.ce0 = p.electrolyte.initial_concentration;
  c.T0 = starting_temperature(p, options.thermal);
  c.cs0_negative = p.negative_electrode.initial_concentration;
  c.cs0_positive = p.positive_electrode.initial_concentration;
  c.ds0 = p.negative_electrode.diffusivity;
  c.c_max = std::max(p.negative_electrode.maximum_concentration, p.positive_electrode.maximum_concentration);
  c.sei = sei_constants(options.degradation, p, host.of(CellRegion::negative).surface_area);
  c.plating = plating_constants(options.degradation, p, host.of(CellRegion::negative).surface_area);
  c.lam = lam_constants(options.degradation, p);
  c.stress_diffusion = stress_diffusion_constants(options.degradation, p);
  c.porosity = porosity_constants(options.degradation, p, c.sei, c.plating);
  return c;
}

std::string failure_text(const ProgramClock& k, const ProgramSettings& s) {
  switch (k.failure) {
    case Failure::newton: return "potential step: " + newton_failure(s.max_newton, k.failure_value, s.newton_tolerance);
    case Failure::newton_update: return "potential step: " + newton_update_failure("direct block-tridiagonal solve");
    case Failure::linear:
      return "a column solve met a pivot that is not finite and positive (a state outside the model's domain)";
    case Failure::split: return split_failure(stepping::Split::unsettled, s.max_split, k.failure_value);
    case Failure::split_nonfinite: return split_failure(stepping::Split::nonfinite, s.max_split, 0.0);
    case Failure::terminal: return terminal_failure();
    case Failure::depletion: return depletion_failure();
    case Failure::local_error: return local_error_failure(k.failure_value, k.failure_dt);
    case Failure::power_voltage: return power_failure(stepping::Power::no_voltage, k.failure_value);
    case Failure::power_unsettled: return power_failure(stepping::Power::unsettled, k.failure_value);
    case Failure::porosity: {
      std::ostringstream m;
      m << "the negative electrode's porosity closed (" << k.failure_value
        << " at a node: its films filled the pores, PyBaMM's \"Zero negative electrode porosity cut-off\")";
      return m.str();
    }
    case Failure::stalled:
      return stall_reason(k.free_steps, k.failure_dt, s.limits.min_dt, s.limits.max_dt, s.limits.max_steps);
    default: return "the step failed";
  }
}

namespace {
double given(double v) { return std::isnan(v) ? 0.0 : v; }  // what the model does not read
}  // namespace

sei::Constants sei_constants(const DegradationOptions& d, const ParameterSet& p, double negative_surface_area) {
  check_degradation(d, p);
  sei::Constants s;
  const SeiModel model = d.film();
  if (model == SeiModel::none) return s;
  const SeiParameters& q = p.sei;
  s.model = model;
  s.film = d.film_resistance();
  const bool symmetric =
      model != SeiModel::reaction_limited_asymmetric && model != SeiModel::ec_reaction_limited_asymmetric;
  s.alpha = symmetric ? 0.5 : q.transfer_coefficient;
  s.j0 = given(q.exchange_current_density);
  s.u = given(q.open_circuit_potential);
  s.resistivity = given(q.resistivity);
  s.c_to_l = q.partial_molar_volume / negative_surface_area;
  s.z = given(q.lithium_moles_ratio);
  s.activation = given(q.activation_energy) / kGasConstant;
  s.reference_temperature = p.thermal.reference_temperature;
  s.solvent = given(q.solvent_diffusivity) * given(q.bulk_solvent_concentration) * kFaraday;
  s.interstitial = given(q.interstitial_diffusivity) * given(q.interstitial_concentration) * kFaraday;
  s.k = given(q.kinetic_rate_constant);
  s.d_ec = given(q.ec_diffusivity);
  s.c_ec = given(q.ec_concentration);
  s.c0 = q.initial_thickness / s.c_to_l;  // PyBaMM's L_sei_0 a_typ / V_bar
  return s;
}

plating::Constants plating_constants(const DegradationOptions& d, const ParameterSet& p, double negative_surface_area) {
  check_degradation(d, p);
  plating::Constants c;
  if (d.lithium_plating == PlatingModel::none) return c;
  const PlatingParameters& q = p.plating;
  c.model = d.lithium_plating;
  c.alpha = q.transfer_coefficient;
  c.fk = kFaraday * q.kinetic_rate_constant;
  c.c0 = q.initial_plated_concentration;
  c.scale = q.typical_plated_concentration;
  c.c_to_l = q.lithium_metal_partial_molar_volume / negative_surface_area;
  if (d.lithium_plating == PlatingModel::partially_reversible)
    c.decay_l = q.dead_lithium_decay_constant * p.sei.initial_thickness;
  return c;
}

lam::Constants lam_constants(const DegradationOptions& d, const ParameterSet& p) {
  check_degradation(d, p);
  lam::Constants c;
  const ActiveMaterialLossParameters* q[2] = {&p.negative_lam, &p.positive_lam};
  const ElectrodeParameters* electrode[2] = {&p.negative_electrode, &p.positive_electrode};
  for (int i = 0; i < 2; ++i) {
    const LamModel m = d.loss_of_active_material[i];
    lam::Electrode& e = c.e[i];
    e.stress = m == LamModel::stress_driven || m == LamModel::stress_and_reaction_driven;
    e.reaction = m == LamModel::reaction_driven || m == LamModel::stress_and_reaction_driven;
    e.eps0 = electrode[i]->active_material_volume_fraction;
    if (e.stress) {
      e.beta = q[i]->proportional_term;
      e.m = q[i]->exponential_term;
      e.per_sigma_c = 1.0 / q[i]->critical_stress;
      e.stress_per_c = q[i]->partial_molar_volume * q[i]->youngs_modulus / (3.0 * (1.0 - q[i]->poisson_ratio));
    }
    if (e.reaction) e.beta_sei = q[i]->reaction_factor;
  }
  return c;
}

stress_diffusion::Constants stress_diffusion_constants(const DegradationOptions& d, const ParameterSet& p) {
  check_degradation(d, p);
  stress_diffusion::Constants c;
  const ActiveMaterialLossParameters* q[2] = {&p.negative_lam, &p.positive_lam};
  for (int i = 0; i < 2; ++i) {
    stress_diffusion::Electrode& e = c.e[i];
    e.on = d.stress_diffusion(i);
    if (!e.on) continue;
    e.theta_t = stress_diffusion::theta_times_temperature(q[i]->partial_molar_volume, q[i]->youngs_modulus,
                                                          q[i]->poisson_ratio);
    e.c0 = q[i]->reference_concentration;
  }
  return c;
}

porosity::Constants porosity_constants(const DegradationOptions& d, const ParameterSet& p, const sei::Constants& sei,
                                       const plating::Constants& plating) {
  porosity::Constants c;
  c.on = d.porosity_follows_films();
  if (!c.on) return c;
  const ElectrodeParameters& n = p.negative_electrode;
  c.eps0 = n.porosity;
  c.b_e = n.bruggeman_electrolyte;
  c.b_s = n.bruggeman_electrode;
  if (sei.on()) {
    c.v_sei = p.sei.partial_molar_volume;
    c.c_sei0 = sei.c0;
  }
  if (plating.on()) c.v_li = p.plating.lithium_metal_partial_molar_volume;
  return c;
}

ProgramSettings settings_for(const SimulationOptions& options, int rows_per_call) {
  const CellGridSpec& g = options.grid;
  const auto n = static_cast<std::size_t>(g.negative_cells + g.separator_cells + g.positive_cells);
  const auto P = static_cast<std::size_t>(g.negative_cells + g.positive_cells);
  const auto R = static_cast<std::size_t>(g.radial_shells);
  ProgramSettings s;
  s.n = static_cast<int>(n);
  s.P = static_cast<int>(P);
  s.R = static_cast<int>(R);
  s.sei = options.degradation.film() != SeiModel::none;
  s.plating = options.degradation.lithium_plating != PlatingModel::none;
  s.lam = options.degradation.lam();
  s.stress_diffusion = options.degradation.any_stress_diffusion();
  s.porosity_change = options.degradation.porosity_follows_films();
  s.o = slab_offsets(n, P, R, rows_per_call, options.degradation);
  s.surface = options.surface;
  if (s.stress_diffusion && s.surface != SurfaceMethod::linear_extrapolation)
    throw InvalidArgument("SimulationOptions::surface", "the cell program",
                          "the stress-induced diffusion takes the particles' surface by PyBaMM's linear "
                          "extrapolation only (the flux-aware surface would need the surface's own diffusivity)");
  s.kappa_arithmetic = options.potential.electrolyte_face_mean == FaceMean::arithmetic;
  s.lumped = options.thermal == ThermalModel::lumped;
  const StepControl& sc = options.steps;
  s.limits = step_limits(sc);
  s.initial_dt = sc.initial_dt;
  s.rtol = sc.relative_tolerance;
  s.atol = sc.absolute_tolerance;
  s.max_split = sc.max_split_iterations;
  s.newton_tolerance = options.potential.tolerance;
  s.max_update = options.potential.max_update;
  s.max_newton = options.potential.max_iterations;
  s.rows_per_call = rows_per_call;
  return s;
}

}  // namespace voltaic::program
