#pragma once
/// @file checkpoint.hpp
/// @brief Checkpoint: everything a Simulation needs to continue a run and end
/// in bitwise the same state as if it had never stopped (io/checkpoint_file.hpp
/// stores it in HDF5).

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace voltaic {

/// Named values, copied exactly. Which names a Simulation writes is its own
/// business; a reader only stores and returns them.
struct Checkpoint {
  std::map<std::string, std::vector<double>> arrays;  ///< state fields and time-series columns
  std::map<std::string, double> scalars;
  std::map<std::string, std::int64_t> integers;
  std::map<std::string, std::string> texts;
};

}  // namespace voltaic
