#include "voltaic/solver/field_catalog.hpp"

namespace voltaic {

const std::vector<FieldInfo>& field_catalog() {
  static const std::vector<FieldInfo> catalog = {
      {"electrolyte_concentration", "Electrolyte concentration [mol.m-3]", "mol.m-3", false},
      {"electrolyte_potential", "Electrolyte potential [V]", "V", false},
      {"solid_potential", "Solid potential [V]", "V", false},
      {"temperature", "Cell temperature [K]", "K", false},
      {"interfacial_current", "Volumetric interfacial current density [A.m-3]", "A.m-3", false},
      {"heating", "Total heating [W.m-3]", "W.m-3", false},
      {"particle_surface_concentration", "Particle surface concentration [mol.m-3]", "mol.m-3", true},
  };
  return catalog;
}

const FieldInfo* find_field(const std::string& key) {
  for (const FieldInfo& f : field_catalog())
    if (f.key == key) return &f;
  return nullptr;
}

}  // namespace voltaic
