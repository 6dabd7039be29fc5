#pragma once
// Input files (configs, BPX files, drive-cycle tables, checkpoints) opened
// so that nothing the user names can hang or exhaust the process: only a
// regular file is opened, without blocking, and only up to a size cap.

#include <cstdint>
#include <string>

namespace voltaic::io::detail {

/// Why `path` must not be opened as an input ("is a FIFO (a named pipe)",
/// "does not exist", "is a symbolic link loop", ...), or "" for a regular file.
std::string not_regular_file(const std::string& path);

/// A regular file opened for reading. The type is checked before the open
/// (a FIFO would block it) and again on the open descriptor (O_NONBLOCK, so
/// a path swapped for a FIFO in between cannot block either).
class InputFile {
 public:
  /// @param where names the reader in FileErrors; `allowed` ends their why()
  /// @throws FileError (what_failed(): "'PATH'") for anything but a regular
  ///         file of at most `max_bytes`, or one that cannot be opened
  InputFile(const std::string& path, std::uintmax_t max_bytes, std::string where, std::string allowed);
  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  std::uintmax_t size() const { return size_; }
  /// Up to `n` bytes into `buffer`; 0 at the end of the file.
  /// @throws FileError when the read fails or the file grows past the cap
  std::size_t read(char* buffer, std::size_t n);
  /// The rest of the file.
  std::string read_all();
  /// A FileError naming this file: `why`, then "; allowed: ..." .
  [[noreturn]] void fail(const std::string& why) const;

 private:
  std::string path_, where_, allowed_;
  std::uintmax_t max_bytes_, size_ = 0, read_ = 0;
  int fd_ = -1;
};

/// The whole of a regular file of at most `max_bytes` (InputFile).
std::string read_input_file(const std::string& path, std::uintmax_t max_bytes, const std::string& where,
                            const std::string& allowed);

/// "N MiB" (whole MiB, rounded down) for messages.
std::string mebibytes(std::uintmax_t bytes);

}  // namespace voltaic::io::detail
