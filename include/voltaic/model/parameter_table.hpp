#pragma once
/// @file parameter_table.hpp
/// @brief Names, units, descriptions and allowed ranges of every field of a
/// ParameterSet, so that a CLI can print a set, a config file can override a
/// value by its PyBaMM name, and validate() can name what is wrong.

#include <string>
#include <vector>

#include "voltaic/model/parameter_set.hpp"

namespace voltaic {

/// An allowed range of values: lo and hi, each open or closed; optionally whole numbers only.
struct Interval {
  double lo;
  double hi;
  bool lo_closed;
  bool hi_closed;
  bool whole = false;

  bool contains(double v) const;
  /// "(0, 1)", "> 0", ">= 0", "whole number >= 1", ...
  std::string to_string() const;
};

/// One numeric parameter.
struct ParameterInfo {
  std::string name;         ///< PyBaMM's name, unit included: "Negative electrode thickness [m]"
  std::string unit;         ///< SI unit as PyBaMM writes it ("m", "S.m-1"), "" if dimensionless
  std::string description;  ///< one line
  Interval allowed;         ///< checked by ParameterSet::validate()
  double& (*field)(ParameterSet&);
  /// May be unset (NaN): a set without it is valid, and what needs it says so.
  bool optional = false;

  double get(const ParameterSet& p) const { return field(const_cast<ParameterSet&>(p)); }
  void set(ParameterSet& p, double value) const { field(p) = value; }
};

/// One material function: which fit a parameter set uses for it.
struct FunctionInfo {
  std::string name;  ///< PyBaMM's name: "Negative electrode OCP [V]"
  std::string unit;
  std::string description;
  std::string (*selected)(const ParameterSet&);  ///< the fit's name ("chen2020_graphite_siox"), or for a custom
                                                 ///< function "expression: ...", "table (N points)", "constant: ..."
};

/// Every numeric field of ParameterSet, in the order of the structs.
const std::vector<ParameterInfo>& parameter_table();
/// Every material function, with the fit a set selects.
const std::vector<FunctionInfo>& function_table();

/// The entry named `name` (PyBaMM's name, exactly), or nullptr.
const ParameterInfo* find_parameter(const std::string& name);
/// Value of the parameter named `name`; throws InvalidArgument if there is none.
double parameter_value(const ParameterSet& p, const std::string& name);
/// Sets the parameter named `name` (no range check: call validate() after all overrides).
/// @throws InvalidArgument if there is no such parameter
void set_parameter(ParameterSet& p, const std::string& name, double value);

/// A value as the shortest decimal that reads back to the same double ("0.335", "nan").
std::string format_parameter_value(double v);

/// Names of the fits, as a config file or a CLI writes them.
std::string to_string(OcpModel m);
std::string to_string(EntropicModel m);
std::string to_string(ElectrolyteModel m);

}  // namespace voltaic
