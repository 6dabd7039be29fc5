#pragma once
/// @file digest.hpp
/// @brief A short fingerprint of a vector of doubles, for input fingerprints
/// and checkpoints that must name a difference without spelling every value.

#include <string>
#include <vector>

namespace voltaic {

/// FNV-1a (64 bits) over the bits of `values`, as 16 hex digits: equal
/// exactly when the bits are (barring a collision).
std::string values_digest(const std::vector<double>& values);

}  // namespace voltaic
