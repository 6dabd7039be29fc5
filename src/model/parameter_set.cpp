// ParameterSet::validate: every field against its range in parameter_table(),
// then the relations between fields. The first bad value is reported, named
// as PyBaMM names it, with its value and what is allowed.
#include "voltaic/model/parameter_set.hpp"

#include <cmath>
#include <string>
#include <utility>

#include "voltaic/core/error.hpp"
#include "voltaic/model/parameter_table.hpp"

namespace voltaic {

namespace {

constexpr const char* kWhere = "ParameterSet::validate";

std::string show(const std::string& name, double v) { return name + " = " + format_parameter_value(v); }

void check_electrode(const ElectrodeParameters& e, const std::string& Side) {
  const std::string side = Side == "Negative" ? "negative" : "positive";
  const std::string porosity = Side + " electrode porosity";
  const std::string active = Side + " electrode active material volume fraction";
  const double sum = e.porosity + e.active_material_volume_fraction;
  // 1 up to the rounding of the sum (0.335 + 0.665 is exactly 1, not every such pair is).
  if (sum > 1.0 + 1e-15) {
    throw InvalidArgument(porosity, kWhere,
                          show(porosity, e.porosity) + " and " + show(active, e.active_material_volume_fraction) +
                              " add up to " + format_parameter_value(sum) +
                              "; electrolyte and active material must not fill more than the whole volume (sum <= 1)");
  }
  const std::string initial = "Initial concentration in " + side + " electrode [mol.m-3]";
  const std::string maximum = "Maximum concentration in " + side + " electrode [mol.m-3]";
  const double sto = e.initial_concentration / e.maximum_concentration;
  if (!(sto > 0.0 && sto < 1.0)) {
    throw InvalidArgument(initial, kWhere,
                          show(initial, e.initial_concentration) + " is a stoichiometry of " +
                              format_parameter_value(sto) + " of " + show(maximum, e.maximum_concentration) +
                              "; the initial stoichiometry must be in (0, 1)");
  }
  const std::string ocp = to_string(e.ocp);
  if (ocp.rfind("unknown", 0) == 0) {
    throw InvalidArgument(Side + " electrode OCP [V]", kWhere, "the OCP fit is " + ocp + "; voltaic has no such fit");
  }
  const std::string entropic = to_string(e.entropic);
  if (entropic.rfind("unknown", 0) == 0) {
    throw InvalidArgument(Side + " electrode OCP entropic change [V.K-1]", kWhere,
                          "the entropic-change fit is " + entropic + "; voltaic has no such fit");
  }
}

/// A selected custom function must have a handle this set can evaluate.
void check_custom(const ParameterSet& p, FunctionSlot slot, const std::string& name) {
  const CustomFunction& f = p.custom_function(slot);
  if (f.kind == FunctionKind::none) {
    throw InvalidArgument(name, kWhere,
                          "the custom function is selected but none is set (use ParameterSet::set_custom_function)");
  }
  if (f.kind == FunctionKind::constant && !std::isfinite(f.value)) {
    throw InvalidArgument(name, kWhere, show(name, f.value) + " is not allowed; a constant function must be finite");
  }
  if (!p.holds_custom_function(slot)) {
    throw InvalidArgument(name, kWhere,
                          "the custom function's data are not held by this parameter set (a handle copied from "
                          "another set, or set by hand); set it with ParameterSet::set_custom_function");
  }
}

void check_custom_functions(const ParameterSet& p) {
  const std::pair<FunctionSlot, const char*> slots[] = {
      {FunctionSlot::negative_ocp, "Negative electrode OCP [V]"},
      {FunctionSlot::negative_entropic, "Negative electrode OCP entropic change [V.K-1]"},
      {FunctionSlot::positive_ocp, "Positive electrode OCP [V]"},
      {FunctionSlot::positive_entropic, "Positive electrode OCP entropic change [V.K-1]"},
      {FunctionSlot::electrolyte_conductivity, "Electrolyte conductivity [S.m-1]"},
      {FunctionSlot::electrolyte_diffusivity, "Electrolyte diffusivity [m2.s-1]"}};
  const bool selected[] = {p.negative_electrode.ocp == OcpModel::custom,
                           p.negative_electrode.entropic == EntropicModel::custom,
                           p.positive_electrode.ocp == OcpModel::custom,
                           p.positive_electrode.entropic == EntropicModel::custom,
                           p.electrolyte.conductivity_model == ElectrolyteModel::custom,
                           p.electrolyte.diffusivity_model == ElectrolyteModel::custom};
  for (int s = 0; s < kFunctionSlots; ++s)
    if (selected[s]) check_custom(p, slots[s].first, slots[s].second);
}

void check_order(double lo, const std::string& lo_name, double hi, const std::string& hi_name) {
  if (!(lo < hi)) {
    throw InvalidArgument(lo_name, kWhere, show(lo_name, lo) + " must be below " + show(hi_name, hi));
  }
}

void check_electrolyte_model(ElectrolyteModel m, const std::string& name) {
  const std::string s = to_string(m);
  if (s.rfind("unknown", 0) == 0) {
    throw InvalidArgument(name, kWhere, "the electrolyte fit is " + s + "; voltaic has no such fit");
  }
}

}  // namespace

void ParameterSet::validate() const {
  for (const ParameterInfo& info : parameter_table()) {
    const double v = info.get(*this);
    if (info.optional && std::isnan(v)) continue;  // unset
    if (!info.allowed.contains(v)) {
      const std::string range = info.allowed.to_string();
      throw InvalidArgument(info.name, kWhere,
                            show(info.name, v) + " is not allowed; it must be finite" +
                                (range == "finite" ? std::string() : " and " + range));
    }
  }
  check_electrode(negative_electrode, "Negative");
  check_electrode(positive_electrode, "Positive");
  check_electrolyte_model(electrolyte.conductivity_model, "Electrolyte conductivity [S.m-1]");
  check_electrolyte_model(electrolyte.diffusivity_model, "Electrolyte diffusivity [m2.s-1]");
  check_custom_functions(*this);
  check_order(electrical.lower_voltage_cutoff, "Lower voltage cut-off [V]", electrical.upper_voltage_cutoff,
              "Upper voltage cut-off [V]");
  check_order(electrical.ocv_at_0_soc, "Open-circuit voltage at 0% SOC [V]", electrical.ocv_at_100_soc,
              "Open-circuit voltage at 100% SOC [V]");
}

}  // namespace voltaic
