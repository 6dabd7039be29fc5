// [experiment]: steps in PyBaMM's wording, each parsed here so that a bad one
// is reported at its line, and the number of cycles.
#include <limits>
#include <string>

#include "io/config_readers.hpp"
#include "voltaic/solver/experiment.hpp"

namespace voltaic::io::detail {

namespace {

const char* const kAllowedSteps =
    "a list of steps in PyBaMM's wording, e.g. [\"Discharge at 1C until 2.5 V\", \"Rest for 1 hour\", "
    "\"Charge at 0.5C until 4.2 V\", \"Hold at 4.2 V until C/50\"]";

std::string step_label(std::size_t index) { return "step " + std::to_string(index); }

void check_step(const ConfigSection& e, const toml::node& element, std::size_t index, std::vector<std::string>& steps) {
  const std::string key = e.path("steps");
  if (!element.is_string()) {
    e.fail_at(element, key, step_label(index) + " is " + describe(element) + "; allowed: " + kAllowedSteps);
  }
  const std::string text = e.text_of(element, key, kAllowedSteps);
  try {
    // Simulation::run refuses power steps only when the run starts; here the
    // file and line can still be named.
    if (parse_experiment_step(text, index).mode == StepMode::power) {
      e.fail_at(element, key,
                step_label(index) + " '" + text +
                    "' is controlled by power, which the solver does not support yet; allowed: current, "
                    "voltage-hold and rest steps");
    }
  } catch (const ExperimentError& x) {
    // x.why() is "'<step>', column <n>: <reason>"
    e.fail_at(element, key, step_label(index) + " " + x.why() + "; allowed: " + kAllowedSteps);
  }
  steps.push_back(text);
}

}  // namespace

void read_experiment(const ConfigSection& e, RunConfig& config) {
  if (!e.table()) {
    e.source().fail(
        1, "experiment",
        "there is no [experiment] section; allowed: [experiment] with steps = " + std::string(kAllowedSteps));
  }
  const toml::array* steps = e.array("steps", kAllowedSteps);
  if (!steps) e.fail("steps", "is missing; allowed: " + std::string(kAllowedSteps));
  if (steps->empty()) e.fail("steps", "is empty; allowed: " + std::string(kAllowedSteps));
  config.experiment_steps.clear();
  for (std::size_t i = 0; i < steps->size(); ++i) check_step(e, *steps->get(i), i + 1, config.experiment_steps);
  const Interval at_least_one{1.0, std::numeric_limits<double>::infinity(), true, false, true};
  if (const std::optional<int> cycles = e.integer("cycles", at_least_one)) config.cycles = *cycles;
}

}  // namespace voltaic::io::detail
