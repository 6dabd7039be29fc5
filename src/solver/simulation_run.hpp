#pragma once
// Simulation::RunContext: the state of one Simulation::run besides the cell's
// (shared by the files that implement Simulation).

#include <memory>
#include <string>
#include <vector>

#include "solver/field_output.hpp"
#include "voltaic/solver/field_catalog.hpp"
#include "voltaic/solver/simulation.hpp"

namespace voltaic {

struct Simulation::RunContext {
  Solution solution;
  RunObserver* observer = nullptr;
  std::vector<const FieldInfo*> streamed;  // the observer's fields, in its order
  std::unique_ptr<FieldOutput> fields;     // set when fields are streamed
  std::string experiment;                  // experiment_fingerprint() of the run's experiment
  bool resuming = false;                   // the present step continues from a checkpoint
};

}  // namespace voltaic
