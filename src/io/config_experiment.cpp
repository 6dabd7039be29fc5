// [experiment]: steps in PyBaMM's wording, each parsed here so that a bad one
// is reported at its line, the number of cycles, and the drive-cycle tables
// of [experiment.drive_cycles], loaded here so that a missing or malformed
// file is reported at its key.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "io/config_readers.hpp"
#include "io/nearest_name.hpp"
#include "voltaic/io/atomic_file.hpp"
#include "voltaic/io/drive_cycle_file.hpp"
#include "voltaic/model/parameter_table.hpp"
#include "voltaic/solver/experiment.hpp"

namespace voltaic::io::detail {

namespace {

namespace fs = std::filesystem;

const char* const kAllowedSteps =
    "a list of steps in PyBaMM's wording, e.g. [\"Discharge at 1C until 2.5 V\", \"Rest for 1 hour\", "
    "\"Charge at 0.5C until 4.2 V\", \"Hold at 4.2 V until C/50\", \"Run US06 (A) until 2.5 V\"]";
const char* const kAllowedRun =
    "\"Run NAME (A)\" (a current table) or \"Run NAME (W)\" (a power table), then optionally \"for <duration>\" "
    "and/or \"until <x> V\", NAME a table of [experiment.drive_cycles]";
const char* const kAllowedTables =
    "a table, [experiment.drive_cycles] with lines NAME = \"path/to/table.csv\", each path relative to the config's "
    "directory";
const char* const kAllowedTableFile = "a CSV file of time [s], value rows, its path relative to the config's directory";

const std::string kDriveCyclesKey = "drive_cycles";

std::string step_label(std::size_t index) { return "step " + std::to_string(index); }

/// What a reader's Error says, without the "voltaic: " and "[at function]" of its what().
std::string message_of(const Error& e) { return e.what_failed() + ": " + e.why(); }

/// A word a step can name: no whitespace or control character, since steps are split into words.
bool usable_name(const std::string& name) {
  if (name.empty()) return false;
  for (const char c : name) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isspace(u) || std::iscntrl(u)) return false;
  }
  return true;
}

DriveCycles read_drive_cycles(const ConfigSection& e) {
  DriveCycles tables;
  const toml::node* node = e.node(kDriveCyclesKey);
  if (!node) return tables;
  if (!node->is_table()) e.fail(kDriveCyclesKey, "is " + describe(*node) + "; allowed: " + kAllowedTables);
  const ConfigSection d(e.source(), e.path(kDriveCyclesKey), node->as_table());
  // In the file's order (toml++ sorts by name), so that the first bad table is the one reported.
  std::vector<std::pair<std::string, const toml::node*>> in_order;
  for (auto&& [key, value] : *d.table()) in_order.emplace_back(std::string(key.str()), &value);
  std::stable_sort(in_order.begin(), in_order.end(),
                   [](const auto& a, const auto& b) { return line_of(*a.second) < line_of(*b.second); });
  for (const auto& [name, value] : in_order) {
    if (!usable_name(name)) {
      d.fail(name,
             "the name holds a space or a control character, so no step could name it; allowed: a word such "
             "as US06, without spaces");
    }
    fs::path path(d.text_of(*value, d.path(name), kAllowedTableFile));
    if (path.is_relative()) path = fs::path(e.source().base_dir) / path;
    path = path.lexically_normal();
    try {
      tables[name] = std::make_shared<const DriveCycle>(load_drive_cycle(path, name));
    } catch (const FileError& x) {
      d.fail(name, message_of(x));
    } catch (const InvalidArgument& x) {
      d.fail(name, message_of(x));
    }
  }
  return tables;
}

/// The first two words of a step, each with its column (from 1).
std::vector<std::pair<std::string, std::size_t>> first_words(const std::string& text) {
  std::vector<std::pair<std::string, std::size_t>> words;
  for (std::size_t i = 0; i < text.size() && words.size() < 2;) {
    if (std::isspace(static_cast<unsigned char>(text[i]))) {
      ++i;
      continue;
    }
    const std::size_t start = i;
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    words.emplace_back(text.substr(start, i - start), start + 1);
  }
  return words;
}

/// "Run ..." in any case, as the step parser reads its verb.
bool is_run_step(const std::string& text) {
  const auto words = first_words(text);
  return !words.empty() && edit_distance(words[0].first, "run") == 0;
}

/// The name and its column when `text` is a Run step that names a table.
std::optional<std::pair<std::string, std::size_t>> run_step_name(const std::string& text) {
  const auto words = first_words(text);
  if (words.size() < 2 || !is_run_step(text)) return std::nullopt;
  return words[1];
}

/// A Run step naming a table that [experiment.drive_cycles] does not declare:
/// reported here, where the declared names can be searched for a near one.
void check_run_step(const ConfigSection& e, const toml::node& element, std::size_t index, const std::string& text,
                    const DriveCycles& tables) {
  const auto name = run_step_name(text);
  if (!name || tables.count(name->first)) return;
  std::vector<std::string> declared;
  for (const auto& entry : tables) declared.push_back(entry.first);
  const std::string where = step_label(index) + " '" + text + "', column " + std::to_string(name->second) + ": ";
  if (declared.empty()) {
    e.fail_at(element, e.path("steps"),
              where + "unknown drive cycle '" + name->first +
                  "': [experiment.drive_cycles] declares no tables; allowed: " + kAllowedRun);
  }
  const std::optional<std::string> near = nearest_name(name->first, declared);
  e.fail_at(element, e.path("steps"),
            where + "unknown drive cycle '" + name->first + "'" +
                (near ? "; did you mean '" + *near + "'? allowed: " : "; allowed: ") +
                "a table of [experiment.drive_cycles]: " + join(declared) + " (names are case-sensitive)");
}

/// A hold drives the cell to its voltage: one outside the cell's window of
/// cut-offs would charge or discharge it past them (a hold at 5 V of a 4.2 V
/// cell charged at 22C with exit 0).
void check_hold(const ConfigSection& e, const toml::node& element, std::size_t index, const std::string& text,
                const ExperimentStep& step, const ElectricalParameters& cell) {
  if (step.mode != StepMode::voltage) return;
  const double lo = cell.lower_voltage_cutoff, hi = cell.upper_voltage_cutoff;
  if (step.voltage_v >= lo && step.voltage_v <= hi) return;
  e.fail_at(element, e.path("steps"),
            step_label(index) + " '" + text + "': the voltage " + format_parameter_value(step.voltage_v) +
                " V is outside the cell's window, " + format_parameter_value(lo) +
                " V (\"Lower voltage cut-off [V]\") to " + format_parameter_value(hi) +
                " V (\"Upper voltage cut-off [V]\"); allowed: a hold within the window, or the cut-offs changed in "
                "[cell.overrides]");
}

void check_step(const ConfigSection& e, const toml::node& element, std::size_t index, const RunConfig& config,
                std::vector<std::string>& steps) {
  const std::string key = e.path("steps");
  if (!element.is_string()) {
    e.fail_at(element, key, step_label(index) + " is " + describe(element) + "; allowed: " + kAllowedSteps);
  }
  const std::string text = e.text_of(element, key, kAllowedSteps);
  check_run_step(e, element, index, text, config.drive_cycles);
  ExperimentStep step;
  try {
    step = parse_experiment_step(text, index, config.drive_cycles);
  } catch (const ExperimentError& x) {
    // x.why() is "'<step>', column <n>: <reason>"
    e.fail_at(element, key,
              step_label(index) + " " + x.why() + "; allowed: " + (is_run_step(text) ? kAllowedRun : kAllowedSteps));
  }
  check_hold(e, element, index, text, step, config.parameters.electrical);
  steps.push_back(text);
}

constexpr const char* kAllowedTermination =
    "a string or an array of strings as PyBaMM's termination: \"<x>% capacity\", \"<x> A.h capacity\", "
    "\"<x> V\"";

/// termination = "80% capacity" or ["80% capacity", "2.5 V"].
void read_termination(const ConfigSection& e, CycleTermination& out) {
  const toml::node* n = e.node("termination");
  if (!n) return;
  std::vector<const toml::node*> items;
  if (const toml::array* a = n->as_array()) {
    if (a->empty()) e.fail("termination", std::string("is empty; allowed: ") + kAllowedTermination);
    for (const toml::node& item : *a) items.push_back(&item);
  } else {
    items.push_back(n);
  }
  std::vector<std::string> texts;
  for (const toml::node* item : items) {
    const std::string text = e.text_of(*item, e.path("termination"), kAllowedTermination);
    try {
      texts.push_back(text);
      parse_cycle_termination({text});
    } catch (const InvalidArgument& x) {
      e.fail_at(*item, e.path("termination"), "\"" + text + "\" " + x.why());
    }
  }
  out = parse_cycle_termination(texts);
}

/// save_at_cycles = N (every Nth) or [1, 10, 100] (those), as PyBaMM's.
void read_saving(const ConfigSection& e, const Interval& at_least_one, CycleSaving& out) {
  const toml::node* n = e.node("save_at_cycles");
  if (!n) return;
  constexpr const char* allowed = "an integer N >= 1 (every Nth cycle) or an array of cycle numbers >= 1";
  if (const toml::array* a = n->as_array()) {
    std::vector<int> cycles;
    for (const toml::node& item : *a)
      cycles.push_back(static_cast<int>(e.number_of(item, e.path("save_at_cycles"), at_least_one, "")));
    if (cycles.empty()) e.fail("save_at_cycles", std::string("is empty; allowed: ") + allowed);
    out = CycleSaving::listed(std::move(cycles));
    return;
  }
  if (const std::optional<int> every = e.integer("save_at_cycles", at_least_one)) out = CycleSaving::every_nth(*every);
}

}  // namespace

void read_experiment(const ConfigSection& e, RunConfig& config) {
  if (!e.table()) {
    e.source().fail(
        1, "experiment",
        "there is no [experiment] section; allowed: [experiment] with steps = " + std::string(kAllowedSteps));
  }
  config.drive_cycles = read_drive_cycles(e);
  const toml::array* steps = e.array("steps", kAllowedSteps);
  if (!steps) e.fail("steps", "is missing; allowed: " + std::string(kAllowedSteps));
  if (steps->empty()) e.fail("steps", "is empty; allowed: " + std::string(kAllowedSteps));
  config.experiment_steps.clear();
  for (std::size_t i = 0; i < steps->size(); ++i) {
    check_step(e, *steps->get(i), i + 1, config, config.experiment_steps);
  }
  const Interval at_least_one{1.0, std::numeric_limits<double>::infinity(), true, false, true};
  if (const std::optional<int> cycles = e.integer("cycles", at_least_one)) config.cycles = *cycles;
  read_termination(e, config.termination);
  read_saving(e, at_least_one, config.saving);
}

}  // namespace voltaic::io::detail
