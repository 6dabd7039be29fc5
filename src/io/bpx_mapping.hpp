#pragma once
// From the sections of a BPX 1.x file to a ParameterSet, with BPX's
// conventions applied as PyBaMM's BPX reader applies them (docs/bpx.md).

#include <optional>

#include "io/bpx_node.hpp"
#include "voltaic/model/parameter_set.hpp"

namespace voltaic::io::detail {

/// The cell described by "Parameterisation" (and "State", when present),
/// not yet validated as a whole.
/// @throws BpxError naming the field that is missing, of the wrong type, out
///         of range or not supported
ParameterSet bpx_parameter_set(const BpxNode& parameterisation, const std::optional<BpxNode>& state);

}  // namespace voltaic::io::detail
