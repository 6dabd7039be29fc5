// A cycle's summary on the cell program (cycle_summary.hpp).
#include "solver/cycle_summary.hpp"

#include <algorithm>
#include <sstream>

#include "voltaic/solver/electrode_soh.hpp"

namespace voltaic::program {

void CycleTally::add(double time, double current, double voltage) {
  if (started) {
    const double dt = (time - t) / 3600.0;
    discharge_capacity += 0.5 * (std::max(current, 0.0) + std::max(I, 0.0)) * dt;
    charge_capacity += 0.5 * (std::max(-current, 0.0) + std::max(-I, 0.0)) * dt;
    discharge_energy += 0.5 * (std::max(current * voltage, 0.0) + std::max(I * V, 0.0)) * dt;
  }
  min_voltage = std::min(min_voltage, voltage);
  t = time;
  I = current;
  V = voltage;
  started = true;
}

CycleSummary summarise_cycle(const CycleTally& tally, const CellTotals& totals, const SlabRead& read, int cycle) {
  CycleSummary c;
  c.cycle = cycle;
  c.discharge_capacity = tally.discharge_capacity;
  c.charge_capacity = tally.charge_capacity;
  c.discharge_energy = tally.discharge_energy;
  c.min_voltage = tally.min_voltage;
  c.time = tally.t;
  c.particle_lithium = totals.total_particle_lithium(read);
  const CellTotals::SeiFilm film = totals.sei_film(read);
  c.sei_lithium_lost = film.lithium_lost;
  c.sei_thickness = film.thickness;
  const CellTotals::PlatedLithium plated = totals.plated_lithium(read);
  c.plating_lithium_lost = plated.lithium_lost;
  c.plated_concentration = plated.plated;
  c.dead_concentration = plated.dead;
  // The electrodes as they are now: eps_s shrunk by the loss of active material.
  const CellTotals::ActiveMaterial active = totals.active_material(read);
  ParameterSet now = totals.layout().parameters();
  now.negative_electrode.active_material_volume_fraction *= active.fraction[0];
  now.positive_electrode.active_material_volume_fraction *= active.fraction[1];
  for (int i = 0; i < 2; ++i) {
    c.lam_percent[i] = (1.0 - active.fraction[i]) * 100.0;
    c.lam_lithium_lost[i] = active.lithium_lost[i];
  }
  c.electrode_capacity[0] = negative_electrode_capacity(now);
  c.electrode_capacity[1] = positive_electrode_capacity(now);
  c.capacity = electrode_soh(now, c.particle_lithium).capacity_ah;
  c.lithium_inventory_lost_percent = (1.0 - c.particle_lithium / totals.initial_lithium()) * 100.0;
  c.negative_porosity = totals.negative_porosity(read);
  return c;
}

std::string cycling_ended(const CycleTermination& t, const std::vector<CycleSummary>& cycles) {
  const CycleSummary& last = cycles.back();
  std::ostringstream m;
  m << "the experiment's termination \"" << t.text() << "\" after cycle " << last.cycle << ": ";
  if (t.capacity_percent) {
    const double stop = *t.capacity_percent / 100.0 * cycles.front().capacity;
    if (last.capacity <= stop) {
      m << "its capacity " << last.capacity << " A.h is at or below " << stop << " A.h, " << *t.capacity_percent
        << "% of cycle " << cycles.front().cycle << "'s " << cycles.front().capacity << " A.h";
      return m.str();
    }
  }
  if (t.capacity_ah && last.capacity <= *t.capacity_ah) {
    m << "its capacity " << last.capacity << " A.h is at or below " << *t.capacity_ah << " A.h";
    return m.str();
  }
  if (t.voltage && last.min_voltage <= *t.voltage) {
    m << "its lowest voltage " << last.min_voltage << " V is at or below " << *t.voltage << " V";
    return m.str();
  }
  return "";
}

}  // namespace voltaic::program
