#include "io/config_schema.hpp"

#include <algorithm>
#include <optional>

#include "io/nearest_name.hpp"
#include "voltaic/model/parameter_table.hpp"
#include "voltaic/solver/solver_options.hpp"

namespace voltaic::io::detail {

namespace {

/// The backend (a RunConfig choice), then every option of solver_option_table().
std::vector<std::string> solver_keys() {
  std::vector<std::string> keys = {"backend"};
  for (const SolverOption& opt : solver_option_table()) keys.push_back(opt.key);
  return keys;
}

}  // namespace

const std::vector<SectionSchema>& config_schema() {
  static const std::vector<SectionSchema> schema = {
      {"cell", {"parameter_set", "bpx", kOverridesKey}},
      {"grid",
       {"negative_cells", "separator_cells", "positive_cells", "radial_shells", "nx", "ny", "current_collector"}},
      {"thermal",
       {"model", "ambient_temperature", "initial_temperature", "heat_transfer_coefficient",
        "negative_collector_heat_transfer_coefficient", "positive_collector_heat_transfer_coefficient",
        "negative_tab_heat_transfer_coefficient", "positive_tab_heat_transfer_coefficient",
        "edge_heat_transfer_coefficient"}},
      {"degradation",
       {"sei", "sei_film_resistance", "lithium_plating", "loss_of_active_material", "particle_mechanics",
        "stress_induced_diffusion", "sei_porosity_change", "lithium_plating_porosity_change"}},
      {"solver", solver_keys()},
      {"experiment", {"steps", "cycles", "drive_cycles", "termination", "save_at_cycles"}},
      {"output", {"directory", "field_times", "field_period", "fields", "checkpoint_period"}},
      {kPackSection,
       {"parallel", "series", "connection_resistance", "connection_resistances", "busbar_resistance", "netlist",
        "lower_voltage_cutoff", "record_period", "upper_voltage_cutoff", kPackThermalKey}},
      {"sweep", {"method", "samples", "seed", "table", kSweepParametersKey}},
  };
  return schema;
}

const std::vector<std::string>& sweep_parameter_keys() {
  static const std::vector<std::string> keys = {"values", "distribution", "low", "high", "mean", "std", "spread"};
  return keys;
}

const std::vector<std::string>& pack_thermal_keys() {
  static const std::vector<std::string> keys = {
      "neighbour_conductance", "links", "coolant", "coolant_conductance", "coolant_conductances", "coolant_temperature",
      "coolant_capacity_rate"};
  return keys;
}

const std::vector<std::string>& pack_link_keys() {
  static const std::vector<std::string> keys = {"a", "b", "conductance"};
  return keys;
}

namespace {

/// A name the config may not use, found while walking the file.
struct Problem {
  int line;
  std::string key, why;
};

const SectionSchema* find_section(const std::string& name) {
  for (const SectionSchema& s : config_schema())
    if (s.name == name) return &s;
  return nullptr;
}

std::vector<std::string> section_names(const char* before = "", const char* after = "") {
  std::vector<std::string> names;
  for (const SectionSchema& s : config_schema()) names.push_back(before + s.name + after);
  return names;
}

/// "section.key" of the first section other than `except` that has `key`.
std::optional<std::string> section_holding(const std::string& key, const std::string& except = "") {
  for (const SectionSchema& s : config_schema()) {
    if (s.name != except && std::find(s.keys.begin(), s.keys.end(), key) != s.keys.end()) return s.name + "." + key;
  }
  return std::nullopt;
}

/// Where a key found in the wrong place belongs: in another section, in
/// [pack.thermal], or in [cell.overrides] when it is a parameter's name.
std::optional<std::string> home_of(const std::string& key, const std::string& except = "") {
  if (std::optional<std::string> s = section_holding(key, except)) return s;
  const std::vector<std::string>& pack_thermal = pack_thermal_keys();
  if (except != kPackThermalSection && std::find(pack_thermal.begin(), pack_thermal.end(), key) != pack_thermal.end())
    return kPackThermalSection + "." + key;
  if (find_parameter(key)) return key_path("cell.overrides", key);
  return std::nullopt;
}

/// "; did you mean 'x'? allowed: ..." (without the question when there is no near name).
std::string suggest(const std::optional<std::string>& near, const std::string& allowed) {
  return (near ? "; did you mean '" + *near + "'? allowed: " : "; allowed: ") + allowed;
}

Problem unknown_section(const std::string& name, const toml::node& value, int line) {
  const std::string allowed = join(section_names("[", "]"));
  if (!value.is_table()) {
    // A key outside every section: say where it belongs if it belongs anywhere.
    return {line, name, "is a key outside any section" + suggest(home_of(name), "keys inside " + allowed)};
  }
  std::optional<std::string> near = nearest_name(name, section_names());
  if (!near && name == kOverridesKey) near = "cell.overrides";
  if (near) near = "[" + *near + "]";
  return {line, name, "unknown section [" + name + "]" + suggest(near, allowed)};
}

Problem unknown_key(const SectionSchema& section, const std::string& key, int line) {
  std::optional<std::string> near = home_of(key, section.name);
  if (!near) near = nearest_name(key, section.keys);
  return {line, key_path(section.name, key), "unknown key '" + key + "'" + suggest(near, join(section.keys))};
}

std::vector<std::string> parameter_names() {
  std::vector<std::string> names;
  for (const ParameterInfo& p : parameter_table()) names.push_back(p.name);
  return names;
}

bool is_function_name(const std::string& name) {
  for (const FunctionInfo& f : function_table())
    if (f.name == name) return true;
  return false;
}

/// The names of a table of parameters ([cell.overrides], [sweep.parameters]);
/// for [sweep.parameters] also the keys of each parameter's table.
void check_parameters(const std::string& section, const toml::table& table, std::vector<Problem>& problems) {
  const std::vector<std::string>& keys = sweep_parameter_keys();
  for (auto&& [key, value] : table) {
    const std::string name(key.str());
    const std::string path = key_path(section, name);
    if (const std::string why = not_a_parameter(name); !why.empty()) {
      problems.push_back({line_of(value), path, why});
      continue;
    }
    if (section == "cell.overrides" || !value.is_table()) continue;
    for (auto&& [k, v] : *value.as_table()) {
      const std::string sub(k.str());
      if (std::find(keys.begin(), keys.end(), sub) != keys.end()) continue;
      problems.push_back({line_of(v, line_of(value)), key_path(path, sub),
                          "unknown key '" + sub + "'" + suggest(nearest_name(sub, keys), join(keys))});
    }
  }
}

/// The keys of [pack.thermal] and of each of its links (an element that is
/// not a table is the reader's to refuse).
void check_pack_thermal(const toml::table& table, std::vector<Problem>& problems) {
  const std::vector<std::string>& keys = pack_thermal_keys();
  for (auto&& [key, value] : table) {
    const std::string name(key.str());
    if (std::find(keys.begin(), keys.end(), name) == keys.end()) {
      std::optional<std::string> near = home_of(name, kPackThermalSection);
      if (!near) near = nearest_name(name, keys);
      problems.push_back({line_of(value), key_path(kPackThermalSection, name),
                          "unknown key '" + name + "'" + suggest(near, join(keys))});
    } else if (name == "links" && value.is_array()) {
      const toml::array& links = *value.as_array();
      for (std::size_t i = 0; i < links.size(); ++i) {
        if (!links[i].is_table()) continue;
        for (auto&& [k, v] : *links[i].as_table()) {
          const std::string sub(k.str());
          const std::vector<std::string>& link_keys = pack_link_keys();
          if (std::find(link_keys.begin(), link_keys.end(), sub) != link_keys.end()) continue;
          problems.push_back({line_of(v, line_of(links[i], line_of(value))), key_path(kPackThermalSection, name),
                              "link " + std::to_string(i + 1) + ": unknown key '" + sub + "'" +
                                  suggest(nearest_name(sub, link_keys), join(link_keys))});
        }
      }
    }
  }
}

void check_section(const SectionSchema& schema, const toml::table& table, std::vector<Problem>& problems) {
  for (auto&& [key, value] : table) {
    const std::string name(key.str());
    if (std::find(schema.keys.begin(), schema.keys.end(), name) == schema.keys.end()) {
      problems.push_back(unknown_key(schema, name, line_of(value)));
    } else if (schema.name == "cell" && name == kOverridesKey && value.is_table()) {
      check_parameters("cell.overrides", *value.as_table(), problems);
    } else if (schema.name == "sweep" && name == kSweepParametersKey && value.is_table()) {
      check_parameters("sweep.parameters", *value.as_table(), problems);
    } else if (schema.name == kPackSection && name == kPackThermalKey && value.is_table()) {
      check_pack_thermal(*value.as_table(), problems);
    }
  }
}

}  // namespace

std::string not_a_parameter(const std::string& name) {
  static const std::vector<std::string> names = parameter_names();
  if (find_parameter(name)) return "";
  const std::string allowed = "a numeric parameter's name exactly as PyBaMM writes it (docs/config.md lists them)";
  if (is_function_name(name)) {
    return "'" + name + "' is a material function, which a config cannot replace; allowed: " + allowed;
  }
  return "unknown parameter '" + name + "'" + suggest(nearest_name(name, names), allowed);
}

void check_names(const toml::table& root, const ConfigSource& source) {
  std::vector<Problem> problems;
  for (auto&& [key, value] : root) {
    const std::string name(key.str());
    const SectionSchema* schema = find_section(name);
    if (!schema) {
      problems.push_back(unknown_section(name, value, line_of(value)));
    } else if (!value.is_table()) {
      problems.push_back({line_of(value), name,
                          "is " + describe(value) + "; allowed: a section, [" + name + "] with its keys below it"});
    } else {
      check_section(*schema, *value.as_table(), problems);
    }
  }
  if (problems.empty()) return;
  // toml++ keeps keys sorted by name: report the first in the file instead.
  const auto first = std::min_element(problems.begin(), problems.end(),
                                      [](const Problem& a, const Problem& b) { return a.line < b.line; });
  source.fail(first->line, first->key, first->why);
}

}  // namespace voltaic::io::detail
