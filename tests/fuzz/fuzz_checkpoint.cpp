// Fuzz target: read_checkpoint on damaged checkpoint files. The seeds are
// real checkpoints (make_checkpoint_seed.cpp); the mutator below mostly
// flips bits and overwrites bytes in place, which keeps HDF5's offsets and
// sizes intact so that the damage reaches the structures behind them, and
// otherwise lets libFuzzer mutate as usual. A file either fails with
// FileError or reads, and every HDF5 object the reader opened is closed
// again. A crash inside libhdf5 is reported like any other: HDF5 1.10 does
// not check its own metadata, and the reader cannot yet tell a damaged file
// before it hands it to HDF5 (docs/fuzzing.md).
#include <hdf5.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <random>
#include <string>

#include "fuzz_support.hpp"
#include "voltaic/io/checkpoint_file.hpp"

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);

namespace {

/// The file the reader is given: in memory, at a path ("/proc/self/fd/N"),
/// rewritten for each input.
class MemoryFile {
 public:
  MemoryFile() : fd_(memfd_create("voltaic-fuzz-checkpoint", 0)) {
    if (fd_ < 0) voltaic::fuzz::finding("memfd_create failed; the harness cannot run");
  }
  std::string write(const std::uint8_t* data, std::size_t size) const {
    const bool ok = ftruncate(fd_, 0) == 0 && (size == 0 || pwrite(fd_, data, size, 0) == static_cast<ssize_t>(size));
    if (!ok) voltaic::fuzz::finding("cannot write the input to the memory file");
    return "/proc/self/fd/" + std::to_string(fd_);
  }

 private:
  int fd_;
};

}  // namespace

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                               unsigned int seed) {
  std::minstd_rand random(seed);
  if (size == 0 || random() % 4 == 0) return LLVMFuzzerMutate(data, size, max_size);
  const unsigned changes = 1 + random() % 8;
  for (unsigned i = 0; i < changes; ++i) {
    const std::size_t at = random() % size;
    if (random() % 2 == 0) {
      data[at] ^= static_cast<std::uint8_t>(1u << (random() % 8));
    } else {
      static const std::uint8_t extremes[] = {0x00, 0x01, 0x7f, 0x80, 0xfe, 0xff};
      data[at] = extremes[random() % sizeof extremes];
    }
  }
  return size;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const MemoryFile file;
  try {
    (void)voltaic::io::read_checkpoint(file.write(data, size));
  } catch (const voltaic::io::FileError&) {
    // the documented refusal
  }
  // A handle left open would also make HDF5 serve the next input from its cache.
  voltaic::fuzz::require(H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL) == 0, "an HDF5 object left open");
  return 0;
}
