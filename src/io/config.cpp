// load_config and parse_config: bytes -> TOML -> names checked -> each
// section read into RunConfig. The first problem stops it with a ConfigError
// naming the file, line and key; nothing is written anywhere.
#include "voltaic/io/config.hpp"

#include <cstdint>
#include <filesystem>

#include "io/config_readers.hpp"
#include "io/config_schema.hpp"
#include "io/config_text.hpp"
#include "io/input_file.hpp"
#include "voltaic/io/atomic_file.hpp"

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
          ConfigSection(source, "solver", table("solver")),
          ConfigSection(source, "experiment", table("experiment")),
          ConfigSection(source, "output", table("output"))};
}

}  // namespace detail

namespace {

namespace fs = std::filesystem;

/// A config is a few hundred bytes; a larger file is most likely a data file given by mistake.
constexpr std::uintmax_t kMaxConfigBytes = std::uintmax_t(1) << 24;

std::string read_config_file(const std::string& path) {
  return detail::read_input_file(path, kMaxConfigBytes, "load_config",
                                 "a regular file of at most 16 MiB holding a TOML run config (docs/config.md)");
}

}  // namespace

RunConfig parse_config(const std::string& toml_text, const std::string& origin, const std::string& base_dir) {
  const detail::ConfigSource source{origin, base_dir};
  const toml::table root = detail::parse_toml(toml_text, source);
  detail::check_names(root, source);
  const detail::ConfigSections sections = detail::sections_of(root, source);
  RunConfig config;
  detail::read_cell(sections, config);
  detail::read_simulation(sections, config);
  detail::read_experiment(sections.experiment, config);
  detail::read_output(sections.output, config.output);
  return config;
}

RunConfig load_config(const std::string& path) {
  const std::string text = read_config_file(path);
  const fs::path dir = fs::path(path).parent_path();
  RunConfig config = parse_config(text, path, dir.empty() ? "." : dir.string());
  config.path = path;
  return config;
}

std::vector<std::string> config_keys() {
  std::vector<std::string> keys;
  for (const detail::SectionSchema& s : detail::config_schema())
    for (const std::string& k : s.keys) keys.push_back(s.name + "." + k);
  return keys;
}

}  // namespace voltaic::io
