#pragma once
/// @file pack_output.hpp
/// @brief PackOutput: a pack's files in its output directory. pack.csv holds
/// the pack's time series (time, voltage, current), pack.h5 the pack's and
/// every cell's (docs/getting_started.md, "Packs"). Both are written in a
/// staging directory and published together (OutputDirectory).

#include <string>
#include <vector>

#include "voltaic/io/output_directory.hpp"
#include "voltaic/io/pack_config.hpp"
#include "voltaic/solver/pack.hpp"

namespace voltaic::io {

class PackOutput {
 public:
  /// The files a pack leaves, in the order files() lists them: pack.csv, pack.h5.
  static const std::vector<std::string>& file_names();

  /// Locks `directory` (creating it) and makes its staging directory; the
  /// pack runs after this, so that a directory in use is refused up front.
  /// @throws OutputLocked when another run writes to the directory
  /// @throws FileError when the directory cannot be created
  explicit PackOutput(const std::string& directory);
  PackOutput(const PackOutput&) = delete;
  PackOutput& operator=(const PackOutput&) = delete;

  /// Writes pack.csv and pack.h5 of `solution`, the run of `config`, and
  /// publishes them as one set, replacing the earlier pack's. A solution
  /// that stopped early or was interrupted is written as it is (its
  /// termination says why; pack.h5's `completed` and `interrupted` say which).
  /// @throws SizeMismatch for a solution whose cell values are not one per
  ///         cell (config.layout) and row
  /// @throws FileError when a file cannot be written or published (the
  ///         directory then keeps its earlier set)
  void write(const PackRunConfig& config, const PackSolution& solution);
  /// Removes the staged files; the directory keeps its earlier set.
  void abandon() noexcept { directory_.abandon(); }
  /// The final paths of the files (there after write()).
  std::vector<std::string> files() const;
  const OutputDirectory& directory() const { return directory_; }

 private:
  OutputDirectory directory_;
};

}  // namespace voltaic::io
