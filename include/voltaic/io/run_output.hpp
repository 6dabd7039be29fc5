#pragma once
/// @file run_output.hpp
/// @brief RunOutput: the RunObserver that leaves a run's files in its output
/// directory: timeseries.csv, fields.h5 + fields.xdmf (when fields are asked
/// for) and checkpoint.h5 (every checkpoint period). They are written in a
/// staging directory (OutputDirectory) and published together by commit().
/// A plane cut over ranks writes per rank (RankShare): fields.rank-R.h5 and
/// checkpoint pieces, joined by one fields.xdmf and one checkpoint manifest.

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "voltaic/core/plane_partition.hpp"
#include "voltaic/io/config.hpp"
#include "voltaic/io/output_directory.hpp"
#include "voltaic/io/output_writers.hpp"
#include "voltaic/solver/cell_layout.hpp"
#include "voltaic/solver/run_observer.hpp"

namespace voltaic::io {

/// The time-series columns of timeseries.csv, in order: Solution's, with the
/// volume-averaged temperature under the name "Cell temperature [K]".
std::vector<std::string> timeseries_columns();

/// This rank's part in the output of a run whose plane is cut over several
/// ranks (the Simulation's observer then takes blocks): each rank writes its
/// owned block's fields (fields.rank-R.h5) and checkpoint piece into rank 0's
/// staging directory; rank 0 also the time series, fields.xdmf joining the
/// field pieces, the checkpoint manifest, and publishes the set. No rank
/// holds a whole field.
struct RankShare {
  int rank = 0;
  std::vector<PlaneBlock> blocks;  ///< every rank's owned block, in rank order
  std::string staging;             ///< rank 0's staging directory (ranks other than 0 write there)
};

class RunOutput : public RunObserver {
 public:
  /// Every file a run on one rank may leave, in the order files() lists them.
  static const std::vector<std::string>& file_names();
  /// The field piece of rank `rank`: "fields.rank-R.h5".
  static std::string field_piece_name(int rank);

  /// Locks `output.directory` (creating it) and creates the files in its
  /// staging directory. After a restart, `start_time` is the checkpoint's time
  /// (the next checkpoint is a period later). With `share` of a rank other
  /// than 0, only that rank's pieces, in share->staging (no lock).
  /// @throws OutputLocked when another run writes to the directory
  /// @throws FileError when the directory or a file cannot be created
  RunOutput(const OutputConfig& output, const CellLayout& layout, double start_time = 0.0,
            std::optional<RankShare> share = std::nullopt);
  ~RunOutput() override;

  bool takes_blocks() const override { return share_.has_value(); }

  void on_row(const Solution& solution) override;
  std::vector<std::string> streamed_fields() const override;
  void on_fields(double time, const std::vector<const double*>& fields) override;
  bool checkpoint_due(double time) override;
  /// On a cut plane, writes this rank's piece; seal_checkpoint() completes it.
  void on_checkpoint(const Checkpoint& checkpoint) override;
  /// On a cut plane, once every rank's piece of the last checkpoint is
  /// written: rank 0 writes the manifest naming them (every rank calls it).
  void seal_checkpoint();

  /// The checkpoint this run continues (`--restart`): where it is this
  /// directory's checkpoint and the run writes none of its own, publishing
  /// keeps it (and its pieces) instead of removing it with the earlier set.
  void restarted_from(std::string checkpoint) { restarted_from_ = std::move(checkpoint); }

  /// Writes the rows not yet written and, when the run finished cycles,
  /// cycles.csv (one row per cycle: Solution::cycles), then commit().
  void finish(const Solution& solution);
  /// Closes the files and publishes them as one set, replacing the earlier
  /// run's. Call it after a run that stopped early too: every complete row
  /// and frame up to then is kept.
  /// @throws FileError when a file cannot be closed or published (the
  /// directory then keeps the earlier set; see OutputDirectory::publish)
  void commit();
  /// commit()'s two halves for a cut plane: every rank closes its files,
  /// then (once all have) rank 0 publishes the set.
  void close();
  void publish();
  /// False once writing a file failed: the files are incomplete, and commit() refuses them.
  bool intact() const { return intact_; }
  /// Removes the staged files; the directory keeps the earlier set.
  void abandon();
  /// The final paths of the files written so far (after commit()).
  std::vector<std::string> files() const;
  std::string checkpoint_path() const;
  /// Rank 0's (the one of a run on one rank).
  const OutputDirectory& directory() const { return *directory_; }

 private:
  void write_cycles(const Solution& solution);
  /// Runs `write`; a failure marks the output as not intact and propagates.
  template <class Write>
  void guarded(Write&& write);

  std::string staged(const std::string& name) const;
  bool root() const { return !share_ || share_->rank == 0; }
  /// Rewrites fields.xdmf joining every rank's field piece (rank 0).
  void write_joined_xdmf() const;
  /// The files of a set this run replaces in the directory: file_names() and
  /// the pieces an earlier run on any number of ranks left.
  std::vector<std::string> replaced_set() const;

  OutputConfig config_;
  std::optional<RankShare> share_;
  std::unique_ptr<OutputDirectory> directory_;  // before the writers: destroyed after they closed their files
  std::string staging_;
  int plane_nx_ = 0, plane_ny_ = 0;
  std::vector<std::string> fields_;
  std::unique_ptr<TimeseriesCsvWriter> csv_;
  std::unique_ptr<FieldWriter> field_writer_;
  std::size_t rows_written_ = 0;
  double last_checkpoint_ = 0.0;
  bool wrote_checkpoint_ = false;
  bool wrote_cycles_ = false;
  std::string restarted_from_;            // restarted_from()
  int generation_ = 0;                    // of the next checkpoint's pieces (a cut plane's)
  int sealed_ = -1;                       // of the last complete checkpoint's pieces
  std::unique_ptr<Checkpoint> unsealed_;  // rank 0's last piece, without its state, until sealed
  std::atomic<bool> intact_{true};        // on_fields runs on the run's output thread
};

/// Keeps HDF5 from closing files at process exit (H5dont_atexit). A file
/// whose close failed (its last write-back hit a full disk) stays registered
/// in HDF5, whose exit-time cleanup then crashes on it; voltaic closes every
/// file it opens itself. A program calls it first, before any HDF5 call.
void skip_hdf5_exit_cleanup();

/// The cell grid as FieldWriter describes it.
FieldGrid field_grid(const CellLayout& layout);

}  // namespace voltaic::io
