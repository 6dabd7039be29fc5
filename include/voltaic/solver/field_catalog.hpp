#pragma once
/// @file field_catalog.hpp
/// @brief The fields a Simulation can store: a short key (config files,
/// HDF5 dataset names), PyBaMM's name (FieldSnapshot, ParaView) and the unit.

#include <string>
#include <vector>

namespace voltaic {

struct FieldInfo {
  std::string key;    ///< "temperature"
  std::string name;   ///< "Cell temperature [K]", as FieldSnapshot::fields names it
  std::string unit;   ///< "K"
  bool per_particle;  ///< one value per particle (electrode cells only), else per cell
};

/// Every field, in output order.
const std::vector<FieldInfo>& field_catalog();

/// The entry with this key, or nullptr.
const FieldInfo* find_field(const std::string& key);

}  // namespace voltaic
