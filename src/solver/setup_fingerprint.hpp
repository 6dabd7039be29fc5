#pragma once
// The setup a checkpoint must match to continue a run bit for bit.

#include <string>

#include "voltaic/model/parameter_set.hpp"
#include "voltaic/solver/simulation_options.hpp"

namespace voltaic {

/// Everything besides the state that shapes a cell's trajectory under
/// `options` (grid, thermal model, step and solver controls, degradation,
/// every parameter's value and function), one item a line, so that two
/// differ at a line that names it.
std::string setup_fingerprint(const ParameterSet& parameters, const SimulationOptions& options);

/// The first line where two fingerprints differ, worded for a refusal
/// ('X' in the checkpoint, 'Y' here), or "" when they are the same.
std::string first_difference(const std::string& checkpoint, const std::string& here);

}  // namespace voltaic
