#pragma once
/// @file sweep_output.hpp
/// @brief SweepOutput: the BatchObserver that leaves a sweep's files in its
/// output directory: summary.csv (one row per cell) and curves.h5 (every
/// cell's time series). They are written in a staging directory
/// (OutputDirectory) and published together by finish().

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "voltaic/io/output_directory.hpp"
#include "voltaic/io/sweep_config.hpp"
#include "voltaic/solver/batch_simulation.hpp"

namespace voltaic::io {

/// What a sweep was, kept as root attributes of curves.h5 (with the voltaic
/// version, which SweepOutput adds itself).
struct SweepOutputInfo {
  std::string parameter_set;            ///< the base parameter set: a built-in name or a BPX file
  std::vector<std::string> experiment;  ///< the experiment's steps, as the config gives them
  std::string method;                   ///< how the cells' values were chosen ("grid", "random", ...)
  std::optional<std::int64_t> seed;     ///< the random generator's seed, when the method uses one
  std::string note;                     ///< free text kept as it is
  /// Each cell's number in the whole sweep (SweepConfig::numbers: the cells
  /// `--cells` kept), written as summary.csv's and cycles.csv's `cell` and as
  /// curves.h5's /cell; empty: cell i is number i.
  std::vector<std::size_t> numbers;
};

/// What a sweep config says about itself: its cell, experiment (and cycles
/// in the note, when more than one), method and seed (random and
/// latin_hypercube only), and the numbers of the cells it kept (in the note
/// too, when it kept only some).
SweepOutputInfo sweep_output_info(const SweepRunConfig& config);

/// The columns of summary.csv after `cell` and the varied parameters, in order.
const std::vector<std::string>& sweep_summary_columns();

class SweepOutput : public BatchObserver {
 public:
  /// The files a sweep leaves, in the order files() lists them.
  static const std::vector<std::string>& file_names();

  /// Locks `directory` (creating it) and creates curves.h5 in its staging
  /// directory, with the root attributes and the parameter matrix.
  /// `cells` gives the varied parameters' names and values written for every cell.
  /// @throws InvalidArgument for no cells or a value count that is not a whole number of cells
  /// @throws OutputLocked when another run writes to the directory
  /// @throws FileError when the directory or a file cannot be created
  SweepOutput(const std::string& directory, const CellParameters& cells, const SweepOutputInfo& info);
  ~SweepOutput() override;
  SweepOutput(const SweepOutput&) = delete;
  SweepOutput& operator=(const SweepOutput&) = delete;

  /// Streams the cell's curves into curves.h5 (buffered: they are written in
  /// chunks of many cells). Cells may come in any order, each once.
  /// @throws InvalidArgument for an index outside the cells or one seen before
  /// @throws SizeMismatch for curves of different lengths
  /// @throws FileError when writing fails (then intact() is false)
  void on_cell(std::size_t index, const BatchCellResult& result) override;
  /// Writes the curves of any cell on_cell did not see, the per-cell datasets
  /// of curves.h5 and summary.csv (every cell in index order, not_run ones
  /// included), then publishes both files as one set, replacing the earlier
  /// sweep's. `results` are BatchSimulation::run's, one per cell.
  /// @throws SizeMismatch for a result count that is not the cell count
  /// @throws FileError when a file cannot be written, closed or published
  /// (the directory then keeps its earlier set; see OutputDirectory::publish)
  void finish(const std::vector<BatchCellResult>& results);
  /// Removes the staged files; the directory keeps its earlier set.
  void abandon();
  /// False once writing a file failed: the files are incomplete, and finish() refuses them.
  bool intact() const { return intact_; }
  /// The final paths of the files (there after finish()).
  std::vector<std::string> files() const;
  const OutputDirectory& directory() const { return directory_; }

 private:
  struct Curves;

  /// The curves writer while it takes data; FileError once abandoned or finished.
  Curves& writer(const char* where);
  /// Runs `write`; a failure marks the output as not intact and propagates.
  template <class Write>
  void guarded(Write&& write);

  CellParameters cells_;
  std::vector<std::size_t> numbers_;  // SweepOutputInfo::numbers, one per cell
  OutputDirectory directory_;         // before the writer: destroyed after it closed its file
  std::unique_ptr<Curves> curves_;
  bool intact_ = true;
};

}  // namespace voltaic::io
