// Fuzz target: parse_experiment_step ("Discharge at 1C until 2.5 V", "Run
// US06 (A) for 5 minutes or until 3 V"). A step either fails with
// ExperimentError or parses to one whose numbers are finite and whose signs
// and limits are what its mode allows.
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>

#include "fuzz_support.hpp"
#include "voltaic/solver/experiment.hpp"

namespace {

using voltaic::ExperimentStep;
using voltaic::StepMode;
using voltaic::fuzz::require;

/// The tables Run steps may name: one short, one of a lower-case name.
const voltaic::DriveCycles& tables() {
  static const voltaic::DriveCycles t = {
      {"US06", std::make_shared<const voltaic::DriveCycle>("US06", std::vector<double>{0, 10, 600},
                                                           std::vector<double>{1, -2, 3})},
      {"pulses",
       std::make_shared<const voltaic::DriveCycle>("pulses", std::vector<double>{0, 1}, std::vector<double>{0, 5})},
  };
  return t;
}

bool finite_positive(double v) { return std::isfinite(v) && v > 0; }

void check_step(const ExperimentStep& s) {
  require(std::isfinite(s.current.value) && std::isfinite(s.power_w) && std::isfinite(s.voltage_v),
          "a value that is not finite");
  require(!s.duration_s || finite_positive(*s.duration_s), "a duration that is not finite and positive");
  require(!s.until_voltage_v || finite_positive(*s.until_voltage_v), "a voltage limit not finite and positive");
  require(!s.until_current || finite_positive(s.until_current->value), "a current limit not finite and positive");
  require(s.mode != StepMode::rest || s.duration_s, "a rest without a duration");
  require(s.mode != StepMode::voltage || finite_positive(s.voltage_v), "a hold at a voltage not positive");
  require(s.duration_s || s.until_voltage_v || s.until_current, "a step that never ends");
  if (s.drive_cycle) {
    require(*s.duration_s <= s.drive_cycle->duration(), "a Run step longer than its table");
  } else if (s.mode == StepMode::current) {
    require(s.current.value != 0, "a current step at zero current");
  } else if (s.mode == StepMode::power) {
    require(s.power_w != 0, "a power step at zero power");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    check_step(voltaic::parse_experiment_step(voltaic::fuzz::text_of(data, size), 1, tables()));
  } catch (const voltaic::ExperimentError&) {
    // the documented refusal
  }
  return 0;
}
