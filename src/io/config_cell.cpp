// [cell]: a built-in parameter set or a BPX file, the overrides by PyBaMM
// name and the temperatures of [thermal], then ParameterSet::validate() with
// its error reported at the key that set the offending value.
#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "io/config_readers.hpp"
#include "io/input_file.hpp"
#include "io/nearest_name.hpp"
#include "voltaic/io/atomic_file.hpp"
#include "voltaic/io/bpx.hpp"
#include "voltaic/model/parameter_sets.hpp"
#include "voltaic/model/parameter_table.hpp"

namespace voltaic::io::detail {

namespace {

namespace fs = std::filesystem;

/// Where the file set a parameter: the key and its line.
struct Setting {
  std::string key;
  int line;
};
/// By PyBaMM name.
using Settings = std::map<std::string, Setting>;

/// The keys of [thermal] that set a parameter of the cell.
struct ThermalKey {
  const char* key;
  const char* parameter;
};
constexpr ThermalKey kThermalKeys[] = {
    {"ambient_temperature", "Ambient temperature [K]"},
    {"initial_temperature", "Initial temperature [K]"},
    {"heat_transfer_coefficient", "Total heat transfer coefficient [W.m-2.K-1]"},
    {"negative_collector_heat_transfer_coefficient",
     "Negative current collector surface heat transfer coefficient [W.m-2.K-1]"},
    {"positive_collector_heat_transfer_coefficient",
     "Positive current collector surface heat transfer coefficient [W.m-2.K-1]"},
    {"negative_tab_heat_transfer_coefficient", "Negative tab heat transfer coefficient [W.m-2.K-1]"},
    {"positive_tab_heat_transfer_coefficient", "Positive tab heat transfer coefficient [W.m-2.K-1]"},
    {"edge_heat_transfer_coefficient", "Edge heat transfer coefficient [W.m-2.K-1]"},
};

/// What a reader's Error says, without the "voltaic: " and "[at function]" of its what().
std::string message_of(const Error& e) { return e.what_failed() + ": " + e.why(); }

ParameterSet built_in(const ConfigSection& cell, std::string& cell_source) {
  const std::vector<std::string> names = parameter_sets::parameter_set_names();
  const std::string allowed = "one of " + quoted_list(names);
  const std::string name = *cell.text("parameter_set", allowed);
  for (const std::string& n : names) {
    if (edit_distance(n, name) == 0) {  // by_name() ignores case too
      cell_source = n;
      return parameter_sets::by_name(n);
    }
  }
  cell.fail("parameter_set", "unknown parameter set \"" + name + "\"; allowed: " + allowed);
}

ParameterSet from_bpx(const ConfigSection& cell, std::string& cell_source) {
  const std::string allowed = "a BPX JSON file, its path relative to the config's directory";
  const std::string given = *cell.text("bpx", allowed);
  fs::path path(given);
  if (path.is_relative()) path = fs::path(cell.source().base_dir) / path;
  path = path.lexically_normal();
  if (const std::string why = detail::not_regular_file(path.string()); !why.empty())
    cell.fail("bpx", "'" + one_line(path.string()) + "' " + why + "; allowed: " + allowed);
  cell_source = path.string();
  try {
    return load_bpx(cell_source);
  } catch (const BpxError& e) {
    cell.fail("bpx", "'" + cell_source + "' cannot be used: " + message_of(e));
  } catch (const FileError& e) {
    cell.fail("bpx", "'" + cell_source + "' cannot be read: " + message_of(e));
  }
}

ParameterSet cell_parameters(const ConfigSection& cell, std::string& cell_source) {
  const bool named = cell.has("parameter_set"), bpx = cell.has("bpx");
  if (named && bpx) {
    const std::string later = cell.line("bpx") >= cell.line("parameter_set") ? "bpx" : "parameter_set";
    cell.fail(later, "parameter_set and bpx are both given; allowed: one of them");
  }
  if (!named && !bpx) {
    const std::string what = cell.table() ? "[cell] gives neither parameter_set nor bpx" : "there is no [cell] section";
    cell.source().fail(cell.line(), "cell",
                       what + "; allowed: parameter_set = " + quoted_list(parameter_sets::parameter_set_names()) +
                           " (one of them), or bpx = \"a BPX JSON file\"");
  }
  return named ? built_in(cell, cell_source) : from_bpx(cell, cell_source);
}

void apply_overrides(const ConfigSection& overrides, ParameterSet& p, Settings& settings) {
  if (!overrides.table()) return;
  // In the file's order (toml++ sorts by name), so that the first bad value is the one reported.
  std::vector<std::pair<std::string, const toml::node*>> in_order;
  for (auto&& [key, value] : *overrides.table()) in_order.emplace_back(std::string(key.str()), &value);
  std::stable_sort(in_order.begin(), in_order.end(),
                   [](const auto& a, const auto& b) { return line_of(*a.second) < line_of(*b.second); });
  for (const auto& [name, value] : in_order) {
    const ParameterInfo& info = *find_parameter(name);  // check_names() has checked the name
    const std::string path = overrides.path(name);
    info.set(p, overrides.number_of(*value, path, info.allowed, info.unit));
    settings[name] = {path, line_of(*value, overrides.line())};
  }
}

void apply_thermal(const ConfigSection& thermal, ParameterSet& p, Settings& settings) {
  for (const ThermalKey& k : kThermalKeys) {
    if (!thermal.has(k.key)) continue;
    if (const auto earlier = settings.find(k.parameter); earlier != settings.end()) {
      thermal.fail(k.key, "sets \"" + std::string(k.parameter) + "\", which " + earlier->second.key + " (line " +
                              std::to_string(earlier->second.line) + ") sets too; allowed: one of them");
    }
    const ParameterInfo& info = *find_parameter(k.parameter);
    info.set(p, *thermal.number(k.key, info.allowed, info.unit));
    settings[k.parameter] = {thermal.path(k.key), thermal.line(k.key)};
  }
}

/// validate() names the parameter that is wrong; report it at the key that
/// set it, or at one that set a parameter its message mentions (a porosity
/// that no longer fits beside an overridden active fraction).
void validate(const ParameterSet& p, const Settings& settings, const ConfigSection& cell,
              const std::string& cell_source) {
  try {
    p.validate();
  } catch (const InvalidArgument& e) {
    const auto named = settings.find(e.what_failed());
    if (named != settings.end()) cell.source().fail(named->second.line, named->second.key, e.why());
    for (const auto& [name, setting] : settings)
      if (e.why().find(name) != std::string::npos) cell.source().fail(setting.line, setting.key, e.why());
    cell.source().fail(cell.line(), "cell", "the parameters of " + cell_source + " are not valid: " + e.why());
  }
}

}  // namespace

std::optional<ParameterSetting> parameter_setting(const ConfigSections& s, const std::string& name) {
  if (s.overrides.has(name)) return ParameterSetting{s.overrides.path(name), s.overrides.line(name)};
  for (const ThermalKey& k : kThermalKeys) {
    if (k.parameter == name && s.thermal.has(k.key))
      return ParameterSetting{s.thermal.path(k.key), s.thermal.line(k.key)};
  }
  return std::nullopt;
}

void resolve_isothermal_temperature(const ConfigSections& s, RunConfig& config) {
  if (config.simulation.thermal != ThermalModel::isothermal) return;
  ThermalParameters& t = config.parameters.thermal;
  const auto initial = parameter_setting(s, "Initial temperature [K]");
  if (!initial) return;
  if (const auto ambient = parameter_setting(s, "Ambient temperature [K]")) {
    if (t.initial_temperature != t.ambient_temperature) {
      s.thermal.source().fail(initial->line, initial->key,
                              "is " + format_parameter_value(t.initial_temperature) +
                                  " K, but an isothermal cell is "
                                  "held at one temperature, the ambient one (" +
                                  ambient->key + " = " + format_parameter_value(t.ambient_temperature) + " K, line " +
                                  std::to_string(ambient->line) +
                                  "); allowed: the same value, or thermal.model = \"lumped\" for a cell that "
                                  "starts at one temperature and is cooled towards the other");
    }
    return;
  }
  t.ambient_temperature = t.initial_temperature;
}

void read_cell(const ConfigSections& s, RunConfig& config) {
  config.parameters = cell_parameters(s.cell, config.cell_source);
  Settings settings;
  apply_overrides(s.overrides, config.parameters, settings);
  apply_thermal(s.thermal, config.parameters, settings);
  validate(config.parameters, settings, s.cell, config.cell_source);
}

}  // namespace voltaic::io::detail
