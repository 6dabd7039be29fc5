#pragma once
/// @file run_output.hpp
/// @brief RunOutput: the RunObserver that leaves a run's files in its output
/// directory: timeseries.csv, fields.h5 + fields.xdmf (when fields are asked
/// for) and checkpoint.h5 (every checkpoint period). They are written in a
/// staging directory (OutputDirectory) and published together by commit().

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "voltaic/io/config.hpp"
#include "voltaic/io/output_directory.hpp"
#include "voltaic/io/output_writers.hpp"
#include "voltaic/solver/cell_layout.hpp"
#include "voltaic/solver/run_observer.hpp"

namespace voltaic::io {

/// The time-series columns of timeseries.csv, in order: Solution's, with the
/// volume-averaged temperature under the name "Cell temperature [K]".
std::vector<std::string> timeseries_columns();

class RunOutput : public RunObserver {
 public:
  /// Every file a run may leave, in the order files() lists them.
  static const std::vector<std::string>& file_names();

  /// Locks `output.directory` (creating it) and creates the files in its
  /// staging directory. After a restart, `start_time` is the checkpoint's time
  /// (the next checkpoint is a period later).
  /// @throws OutputLocked when another run writes to the directory
  /// @throws FileError when the directory or a file cannot be created
  RunOutput(const OutputConfig& output, const CellLayout& layout, double start_time = 0.0);
  ~RunOutput() override;

  void on_row(const Solution& solution) override;
  std::vector<std::string> streamed_fields() const override;
  void on_fields(double time, const std::vector<const double*>& fields) override;
  bool checkpoint_due(double time) override;
  void on_checkpoint(const Checkpoint& checkpoint) override;

  /// Writes the rows not yet written, then commit().
  void finish(const Solution& solution);
  /// Closes the files and publishes them as one set, replacing the earlier
  /// run's. Call it after a run that stopped early too: every complete row
  /// and frame up to then is kept.
  /// @throws FileError when a file cannot be closed or published (the
  /// directory then keeps the earlier set; see OutputDirectory::publish)
  void commit();
  /// False once writing a file failed: the files are incomplete, and commit() refuses them.
  bool intact() const { return intact_; }
  /// Removes the staged files; the directory keeps the earlier set.
  void abandon();
  /// The final paths of the files written so far (after commit()).
  std::vector<std::string> files() const;
  std::string checkpoint_path() const;
  const OutputDirectory& directory() const { return directory_; }

 private:
  /// Runs `write`; a failure marks the output as not intact and propagates.
  template <class Write>
  void guarded(Write&& write);

  OutputConfig config_;
  OutputDirectory directory_;  // before the writers: destroyed after they closed their files
  std::vector<std::string> fields_;
  std::unique_ptr<TimeseriesCsvWriter> csv_;
  std::unique_ptr<FieldWriter> field_writer_;
  std::size_t rows_written_ = 0;
  double last_checkpoint_ = 0.0;
  bool wrote_checkpoint_ = false;
  std::atomic<bool> intact_{true};  // on_fields runs on the run's output thread
};

/// Keeps HDF5 from closing files at process exit (H5dont_atexit). A file
/// whose close failed (its last write-back hit a full disk) stays registered
/// in HDF5, whose exit-time cleanup then crashes on it; voltaic closes every
/// file it opens itself. A program calls it first, before any HDF5 call.
void skip_hdf5_exit_cleanup();

/// The cell grid as FieldWriter describes it.
FieldGrid field_grid(const CellLayout& layout);

}  // namespace voltaic::io
