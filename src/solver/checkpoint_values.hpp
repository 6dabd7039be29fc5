#pragma once
// Reads of a checkpoint's values with their ranges checked: a checkpoint
// is input, and a value no run can produce (a NaN time, a negative step
// count, columns of unequal length) is refused with its name, its value and
// the allowed range rather than trusted.

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "voltaic/solver/checkpoint.hpp"

namespace voltaic::checkpoint_values {

constexpr double kInf = std::numeric_limits<double>::infinity();
/// The smallest double > 0, as a lower bound "> 0".
constexpr double kPositive = std::numeric_limits<double>::denorm_min();

/// Scalar `key`, finite and in [lo, hi]; `unit` ends the message.
/// @throws InvalidArgument naming the key, the value and the range
double scalar(const Checkpoint& c, const std::string& key, double lo = -kInf, double hi = kInf, const char* unit = "");

/// Integer `key` in [lo, hi].
std::int64_t integer(const Checkpoint& c, const std::string& key, std::int64_t lo, std::int64_t hi);

/// Text `key`.
const std::string& text(const Checkpoint& c, const std::string& key);

/// Array `key`, every value finite.
const std::vector<double>& finite_array(const Checkpoint& c, const std::string& key);

/// The columns `names` of a Solution, all of one length, with finite times
/// that never decrease; the number of rows.
std::size_t solution_rows(const Checkpoint& c, const std::vector<std::string>& names);

}  // namespace voltaic::checkpoint_values
