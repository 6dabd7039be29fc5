// load_config and parse_config: bytes -> TOML -> names checked -> each
// section read into RunConfig. The first problem stops it with a ConfigError
// naming the file, line and key; nothing is written anywhere.
#include "voltaic/io/config.hpp"

#include <cstdint>
#include <filesystem>
#include <string>

#include "io/config_readers.hpp"
#include "io/config_schema.hpp"
#include "io/config_text.hpp"
#include "io/input_file.hpp"

namespace voltaic::io {

namespace detail {

ConfigSections sections_of(const toml::table& root, const ConfigSource& source) {
  const auto table = [&](const char* name) { return root.get_as<toml::table>(name); };
  const toml::table* cell = table("cell");
  const toml::node* overrides = cell ? cell->get(kOverridesKey) : nullptr;
  if (overrides && !overrides->is_table()) {
    source.fail(line_of(*overrides), key_path("cell", kOverridesKey),
                "is " + describe(*overrides) +
                    "; allowed: a table, [cell.overrides] with lines \"PyBaMM parameter name\" = number");
  }
  return {ConfigSection(source, "cell", cell),
          ConfigSection(source, "cell.overrides", overrides ? overrides->as_table() : nullptr),
          ConfigSection(source, "grid", table("grid")),
          ConfigSection(source, "thermal", table("thermal")),
          ConfigSection(source, "degradation", table("degradation")),
          ConfigSection(source, "solver", table("solver")),
          ConfigSection(source, "experiment", table("experiment")),
          ConfigSection(source, "output", table("output"))};
}

namespace {

/// A config is a few hundred bytes; a larger file is most likely a data file given by mistake.
constexpr std::uintmax_t kMaxConfigBytes = std::uintmax_t(1) << 24;

}  // namespace

std::string read_config_file(const std::string& path, const std::string& where) {
  return read_input_file(path, kMaxConfigBytes, where,
                         "a regular file of at most 16 MiB holding a TOML run config (docs/config.md)");
}

std::string directory_of(const std::string& path) {
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  return dir.empty() ? "." : dir.string();
}

void refuse_pack(const toml::table& root, const ConfigSource& source) {
  if (const toml::node* pack = root.get("pack")) {
    source.fail(line_of(*pack), "pack",
                "[pack] makes this a pack of cells in parallel and in series, which voltaic pack reads "
                "(load_pack_config); allowed: run it with voltaic pack CONFIG, or remove [pack]");
  }
}

RunConfig read_run_config(const toml::table& root, const ConfigSource& source) {
  check_names(root, source);
  const ConfigSections sections = sections_of(root, source);
  RunConfig config;
  read_cell(sections, config);
  read_simulation(sections, config);
  resolve_isothermal_temperature(sections, config);
  read_experiment(sections.experiment, config);
  read_output(sections.output, config.output);
  return config;
}

}  // namespace detail

RunConfig parse_config(const std::string& toml_text, const std::string& origin, const std::string& base_dir) {
  const detail::ConfigSource source{origin, base_dir};
  const toml::table root = detail::parse_toml(toml_text, source);
  // Before the names: a pack's or a sweep's keys are right, only the command is wrong.
  detail::refuse_pack(root, source);
  if (const toml::node* sweep = root.get("sweep")) {
    source.fail(detail::line_of(*sweep), "sweep",
                "[sweep] makes this a sweep of many cells, which voltaic sweep reads (load_sweep_config); allowed: "
                "run it with voltaic sweep CONFIG, or remove [sweep]");
  }
  return detail::read_run_config(root, source);
}

RunConfig load_config(const std::string& path) {
  RunConfig config = parse_config(detail::read_config_file(path, "load_config"), path, detail::directory_of(path));
  config.path = path;
  return config;
}

std::vector<std::string> config_keys() {
  std::vector<std::string> keys;
  for (const detail::SectionSchema& s : detail::config_schema()) {
    for (const std::string& k : s.keys) keys.push_back(s.name + "." + k);
    if (s.name == detail::kPackSection) {
      for (const std::string& k : detail::pack_thermal_keys()) keys.push_back(detail::kPackThermalSection + "." + k);
    }
  }
  for (const std::string& k : detail::sweep_parameter_keys()) keys.push_back("sweep.parameters.NAME." + k);
  return keys;
}

}  // namespace voltaic::io
