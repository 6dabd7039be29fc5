#pragma once
// RecordedState: the state a run's rows, fields and checkpoints read and a
// restart writes, whichever engine holds it: the field solvers' arrays
// (StateHistory) or the cell engine's slab (a 1D cell). RunRecorder sees
// only this interface, so its output and checkpoints are written once.

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "voltaic/core/view.hpp"
#include "voltaic/solver/field_catalog.hpp"

namespace voltaic {

class CellLayout;

class RecordedState {
 public:
  virtual ~RecordedState() = default;
  /// Every state array and its past levels by its checkpoint name ("c_e",
  /// "c_e@0", ...): the whole plane's on a cut plane (gathered by the caller).
  virtual std::map<std::string, std::vector<double>> arrays() const = 0;
  /// The inverse of arrays() for this rank's block; names a missing or mis-sized array (`where`).
  virtual void load_arrays(const std::map<std::string, std::vector<double>>& arrays, const char* where) = 0;
  /// Newton's measured quadratic constant of the potential step [1/V].
  virtual double newton_constant() const = 0;
  virtual void set_newton_constant(double c) = 0;
  /// The cell's mean, least and greatest temperature [K]; a lumped or
  /// isothermal cell's is `lumped` (the clock's).
  virtual void temperatures(double lumped, double& mean, double& lo, double& hi) const { mean = lo = hi = lumped; }
  /// Lithium in the cell [mol]: particles plus electrolyte.
  virtual double lithium() const = 0;
  /// Every field of field_catalog() on the host, by name: the whole plane's.
  virtual std::map<std::string, std::vector<double>> fields() const = 0;
  /// The `streamed` fields into `frame` (one view each, sized by
  /// frame_count): the whole plane's, or this rank's owned block (`blocks`).
  virtual void fill(const std::vector<const FieldInfo*>& streamed, const std::vector<View<double>>& frame,
                    bool blocks) = 0;
};

/// Values per frame of a field of `local` values on this rank: the whole
/// plane's, or the owned block's when the run streams blocks.
std::size_t frame_count(const CellLayout& layout, bool blocks, std::size_t local);

}  // namespace voltaic
