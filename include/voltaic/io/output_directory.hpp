#pragma once
/// @file output_directory.hpp
/// @brief OutputDirectory: a run's hold on its output directory. An exclusive
/// lock (one run per directory), a staging directory beside the files the run
/// replaces, where it writes them, and publish(), which makes them the
/// directory's files as one set: a reader or a crash sees the earlier set or
/// the new one, never a mix.

#include <string>
#include <vector>

#include "voltaic/io/atomic_file.hpp"

namespace voltaic::io {

/// The output directory is locked by another process; why() names its pid.
class OutputLocked : public FileError {
  using FileError::FileError;
};

class OutputDirectory {
 public:
  /// The lock file in the directory: it holds the pid of the run holding it.
  static constexpr const char* kLockName = ".voltaic.lock";
  /// Staging directories are named kStagingPrefix + a name unique to the run.
  static constexpr const char* kStagingPrefix = ".voltaic-run-";

  /// Creates `dir` if missing, locks it (flock on kLockName, released when
  /// the process ends however it ends) and creates an empty staging directory.
  /// @throws OutputLocked when another run holds the lock
  /// @throws FileError when the directory, the lock or the staging directory cannot be made
  explicit OutputDirectory(std::string dir);
  /// Removes the staging directory unless publish() moved it or kept it,
  /// and the lock file (a finished run leaves none behind).
  ~OutputDirectory();
  OutputDirectory(const OutputDirectory&) = delete;
  OutputDirectory& operator=(const OutputDirectory&) = delete;

  const std::string& path() const { return dir_; }
  const std::string& staging_path() const { return staging_; }
  /// Where the run writes the file `name` until publish().
  std::string staged(const std::string& name) const;
  /// Staging directories of earlier runs that ended without publishing (killed, crashed):
  /// they may hold a checkpoint to continue from.
  const std::vector<std::string>& leftovers() const { return leftovers_; }

  /// Makes the staged files `names` the directory's set, replacing those of
  /// `set` (every name a run may write) that are there: each staged file is
  /// flushed to disk, every target checked, then the files are renamed into
  /// place, files of `set` not in `names` removed, and the directory synced.
  /// @throws FileError when a target cannot be replaced (a directory of that
  /// name, say) or a staged file cannot be synced: then nothing in the
  /// directory has changed and the staged files are kept where the message says
  void publish(const std::vector<std::string>& names, const std::vector<std::string>& set);
  /// Removes the staging directory with whatever it holds.
  void abandon() noexcept;

 private:
  std::string dir_, staging_;
  std::vector<std::string> leftovers_;
  int lock_fd_ = -1;
  bool keep_staging_ = false;
};

}  // namespace voltaic::io
