#pragma once
/// @file field_catalog.hpp
/// @brief The fields a Simulation can store: a short key (config files,
/// HDF5 dataset names), PyBaMM's name (FieldSnapshot, ParaView), the unit
/// and where the values live (per cell, per particle, per in-plane column).

#include <string>
#include <vector>

namespace voltaic {

/// Where a field's values live.
enum class FieldKind {
  cell,      ///< one per cell of the grid, c = i + nx (j + ny k)
  particle,  ///< one per particle (the electrode cells'); streamed on the cells, NaN in the separator
  column,    ///< one per in-plane column, c = i + nx j (nx ny values): a map over the electrode plane
};

struct FieldInfo {
  std::string key;   ///< "temperature"
  std::string name;  ///< "Cell temperature [K]", as FieldSnapshot::fields names it
  std::string unit;  ///< "K"
  FieldKind kind = FieldKind::cell;
};

/// Every field, in output order.
const std::vector<FieldInfo>& field_catalog();

/// The entry with this key, or nullptr.
const FieldInfo* find_field(const std::string& key);

}  // namespace voltaic
