#pragma once
/// @file bpx.hpp
/// @brief Import of BPX (Battery Parameter eXchange) v1.x parameter files
/// into a ParameterSet.

#include <string>

#include "voltaic/core/error.hpp"
#include "voltaic/model/parameter_set.hpp"

namespace voltaic::io {

/// A BPX file that cannot be used: names the file, the field (its BPX name)
/// and what is wrong with it (missing, wrong type, out of range, an
/// unparsable expression with its position, an unsupported version).
class BpxError : public InvalidArgument {
  using InvalidArgument::InvalidArgument;
};

/// Reads a BPX v1.x JSON file: every field a DFN needs, with BPX's
/// conventions (exchange current, Bruggeman exponent from the transport
/// efficiency, Arrhenius factors, initial state of charge). The set is
/// validated before it is returned.
/// @throws FileError (atomic_file.hpp) when the file cannot be read
/// @throws BpxError when its content cannot be used
ParameterSet load_bpx(const std::string& path);

/// The same, from JSON text; `origin` names the source in errors.
ParameterSet parse_bpx(const std::string& json_text, const std::string& origin);

}  // namespace voltaic::io
