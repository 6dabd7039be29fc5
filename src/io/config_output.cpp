// [output]: where the results go and which fields are stored when. Only
// checked here: the writers create the directory when the run starts.
#include <algorithm>
#include <limits>
#include <string>

#include "io/config_readers.hpp"
#include "io/nearest_name.hpp"
#include "voltaic/model/parameter_table.hpp"
#include "voltaic/solver/field_catalog.hpp"

namespace voltaic::io::detail {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
const Interval kNonNegative{0.0, kInf, true, false};

std::vector<double> read_field_times(const ConfigSection& o) {
  const std::string allowed = "a list of increasing times, each " + allowed_number(kNonNegative, "s");
  std::vector<double> times;
  const toml::array* a = o.array("field_times", allowed);
  if (!a) return times;
  const std::string key = o.path("field_times");
  for (std::size_t i = 0; i < a->size(); ++i) {
    const toml::node& element = *a->get(i);
    const double t = o.number_of(element, key, kNonNegative, "s");
    if (!times.empty() && !(t > times.back())) {
      o.fail_at(element, key,
                "time " + std::to_string(i + 1) + " (" + format_parameter_value(t) + ") is not after time " +
                    std::to_string(i) + " (" + format_parameter_value(times.back()) + "); allowed: " + allowed);
    }
    times.push_back(t);
  }
  return times;
}

std::vector<std::string> field_keys() {
  std::vector<std::string> keys;
  for (const FieldInfo& f : field_catalog()) keys.push_back(f.key);
  return keys;
}

std::vector<std::string> read_fields(const ConfigSection& o) {
  static const std::vector<std::string> keys = field_keys();
  const std::string allowed = "a list of field keys from " + join(keys);
  std::vector<std::string> fields;
  const toml::array* a = o.array("fields", allowed);
  if (!a) return fields;
  const std::string key = o.path("fields");
  for (const toml::node& element : *a) {
    const std::string name = o.text_of(element, key, allowed);
    if (!find_field(name)) {
      const std::optional<std::string> near = nearest_name(name, keys);
      o.fail_at(element, key,
                "unknown field '" + name + "'" + (near ? "; did you mean '" + *near + "'? allowed: " : "; allowed: ") +
                    join(keys));
    }
    if (std::find(fields.begin(), fields.end(), name) != fields.end()) {
      o.fail_at(element, key, "lists '" + name + "' twice; allowed: each field once");
    }
    fields.push_back(name);
  }
  return fields;
}

}  // namespace

void read_output(const ConfigSection& o, OutputConfig& config) {
  if (auto dir = o.text("directory", "a directory path, relative to the working directory")) config.directory = *dir;
  config.field_times = read_field_times(o);
  if (auto period = o.number("field_period", kNonNegative, "s")) config.field_period = *period;
  config.fields = read_fields(o);
  if (auto period = o.number("checkpoint_period", kNonNegative, "s")) config.checkpoint_period = *period;
}

}  // namespace voltaic::io::detail
