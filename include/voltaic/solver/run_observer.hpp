#pragma once
/// @file run_observer.hpp
/// @brief RunObserver: what a Simulation run reports while it goes (rows,
/// field frames, checkpoints), for a progress display and output files.

#include <string>
#include <vector>

#include "voltaic/solver/checkpoint.hpp"
#include "voltaic/solver/solution.hpp"

namespace voltaic {

/// Every method has a default that does nothing; an exception thrown by one
/// ends the run and reaches the caller of Simulation::run.
class RunObserver {
 public:
  virtual ~RunObserver() = default;

  /// After every row appended to the Solution (each experiment step's start and each accepted time step).
  virtual void on_row(const Solution& solution) { (void)solution; }

  /// Keys (field_catalog()) of the fields to stream to on_fields() at the
  /// field times. Empty (the default): fields are stored in Solution::fields.
  virtual std::vector<std::string> streamed_fields() const { return {}; }
  /// One frame of the streamed fields, per cell (a per-particle field is given
  /// on its electrode cells, NaN in the separator; a column field has nx ny
  /// values, one per in-plane column), in streamed_fields() order. Called on the run's output thread while the run goes
  /// on; the data (page-locked host memory) is valid during the call only.
  virtual void on_fields(double time, const std::vector<const double*>& fields) {
    (void)time;
    (void)fields;
  }

  /// On a plane cut over ranks (a Simulation made with a PlaneDecomposition):
  /// true to receive this rank's owned block of every field frame (the
  /// columns of blocks()[rank()], x fastest, then y, then layers) and
  /// checkpoints whose state arrays hold that block only (their
  /// CheckpointWindow says which), so that no rank holds a whole field.
  /// False (the default): every rank receives the whole plane's, gathered.
  /// Asked once, at the start of run(); ignored on an uncut plane.
  virtual bool takes_blocks() const { return false; }

  /// Asked after each accepted time step that does not end its experiment
  /// step: true to receive a checkpoint of the present state.
  virtual bool checkpoint_due(double time) {
    (void)time;
    return false;
  }
  /// A checkpoint from which Simulation::load_checkpoint continues the run.
  virtual void on_checkpoint(const Checkpoint& checkpoint) { (void)checkpoint; }

  /// Asked where checkpoint_due() is: a non-empty reason ("interrupted by
  /// SIGINT") ends the run there, after one more on_checkpoint(), with
  /// Solution::completed false and the reason as its termination.
  virtual std::string stop_reason() { return {}; }
};

}  // namespace voltaic
