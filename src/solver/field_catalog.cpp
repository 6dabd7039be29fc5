#include "voltaic/solver/field_catalog.hpp"

namespace voltaic {

const std::vector<FieldInfo>& field_catalog() {
  static const std::vector<FieldInfo> catalog = {
      {"electrolyte_concentration", "Electrolyte concentration [mol.m-3]", "mol.m-3", FieldKind::cell},
      {"electrolyte_potential", "Electrolyte potential [V]", "V", FieldKind::cell},
      {"solid_potential", "Solid potential [V]", "V", FieldKind::cell},
      {"temperature", "Cell temperature [K]", "K", FieldKind::cell},
      {"interfacial_current", "Volumetric interfacial current density [A.m-3]", "A.m-3", FieldKind::cell},
      {"heating", "Total heating [W.m-3]", "W.m-3", FieldKind::cell},
      {"particle_surface_concentration", "Particle surface concentration [mol.m-3]", "mol.m-3", FieldKind::particle},
      // Maps over the electrode plane, one value per column.
      {"negative_collector_potential", "Negative current collector potential [V]", "V", FieldKind::column},
      {"positive_collector_potential", "Positive current collector potential [V]", "V", FieldKind::column},
      {"collector_current_density", "Current collector current density [A.m-2]", "A.m-2", FieldKind::column},
      {"negative_stoichiometry", "Negative electrode stoichiometry", "", FieldKind::column},
      {"column_temperature", "Column-averaged cell temperature [K]", "K", FieldKind::column},
  };
  return catalog;
}

const FieldInfo* find_field(const std::string& key) {
  for (const FieldInfo& f : field_catalog())
    if (f.key == key) return &f;
  return nullptr;
}

}  // namespace voltaic
