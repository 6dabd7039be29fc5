#pragma once
// What the host sums of a 1D cell's state on the cell program: its
// particles' lithium, its films, its active material and its porosity, from
// the cell's slab as the host reads it (one cell's CellEngine, or a batch's
// gathered copy) over the cell's own CPU layout. One cell alone and the same
// cell in a batch so give the same sums, bit for bit.

#include <cstddef>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "solver/cell_program_data.hpp"
#include "voltaic/model/parameter_set.hpp"
#include "voltaic/solver/cell_layout.hpp"
#include "voltaic/solver/particle_step.hpp"
#include "voltaic/solver/simulation_options.hpp"

namespace voltaic::program {

/// `size` values of a cell's slab from `offset` (SlabOffsets), on the host.
using SlabRead = std::function<std::vector<double>(std::size_t offset, std::size_t size)>;

/// The slab's ranges (offset, size) CellTotals reads of a cell run with `s`:
/// what a batch gathers of its cells.
std::vector<std::pair<std::size_t, std::size_t>> totals_ranges(const ProgramSettings& s);

class CellTotals {
 public:
  /// The cell laid out on the CPU (`layout`, which validated its
  /// parameters), run with `s` and `c` (the program's settings and constants).
  CellTotals(std::unique_ptr<CellLayout> layout, const SimulationOptions& options, const ProgramSettings& s,
             const CellConstants& c);
  ~CellTotals();
  CellTotals(const CellTotals&) = delete;
  CellTotals& operator=(const CellTotals&) = delete;

  /// Lithium bound in the SEI grown since t = 0 [mol] (PyBaMM's "Loss of
  /// lithium to negative SEI [mol]"), and the film's thickness averaged over
  /// the negative electrode [m] ("X-averaged negative SEI thickness [m]"); 0 without SEI.
  struct SeiFilm {
    double lithium_lost = 0.0, thickness = 0.0;
  };
  SeiFilm sei_film(const SlabRead& read) const;
  /// The negative electrode's porosity averaged over its volume: from the
  /// films with the porosity change (porosity_point.hpp), else the set's.
  double negative_porosity(const SlabRead& read) const;
  /// Plated and dead lithium [mol] (PyBaMM's "Loss of lithium to negative
  /// lithium plating [mol]", the initial plated lithium included as PyBaMM
  /// counts it) and their concentrations averaged over the negative
  /// electrode [mol/m^3]; 0 without plating.
  struct PlatedLithium {
    double lithium_lost = 0.0, plated = 0.0, dead = 0.0;
  };
  PlatedLithium plated_lithium(const SlabRead& read) const;
  /// The active material left of each electrode (negative, positive), as a
  /// fraction of its initial volume fraction averaged over the electrode,
  /// and the lithium it took [mol] ("Loss of lithium due to loss of active
  /// material in negative electrode [mol]"); 1 and 0 without a loss.
  struct ActiveMaterial {
    double fraction[2] = {1.0, 1.0};
    double lithium_lost[2] = {0.0, 0.0};
  };
  ActiveMaterial active_material(const SlabRead& read) const;
  /// Each particle's lithium from the state (ParticleDiffusion::lithium),
  /// times the active material left at its node.
  std::vector<double> particle_lithium(const SlabRead& read) const;
  /// Their sum [mol], as Simulation::lithium_inventory sums it.
  double total_particle_lithium(const SlabRead& read) const;
  /// The particles' lithium at t = 0 [mol] (initial_particle_lithium of the set).
  double initial_lithium() const { return initial_lithium_; }

  /// The cell on the CPU (its constants, weights and counts).
  const CellLayout& layout() const { return *host_; }

 private:
  /// f = eps_s / eps_s0 per node (all 1 without a loss of active material).
  std::vector<double> active(const SlabRead& read) const;

  ProgramSettings s_;
  CellConstants c_;
  std::unique_ptr<CellLayout> host_;
  std::unique_ptr<ParticleDiffusion<double>> particles_;
  std::vector<double> volume_;
  double initial_lithium_ = 0.0;
};

}  // namespace voltaic::program
