// Writes the seed checkpoints of fuzz_checkpoint (tests/data/fuzz/checkpoint):
// small, with every kind of value read_checkpoint reads. Not a fuzzer; run by
// hand when the checkpoint format changes: make_checkpoint_seed DIR.
#include <cstdio>
#include <string>

#include "voltaic/io/checkpoint_file.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  voltaic::Checkpoint full;
  full.arrays["state/c_e"] = {1000.0, 1001.5, 999.25};
  full.arrays["empty"] = {};
  full.scalars["time"] = 12.5;
  full.integers["step"] = 42;
  full.texts["experiment"] = "Discharge at 1C until 2.5 V";
  full.texts["with nul"] = std::string("a\0b", 3);
  voltaic::io::write_checkpoint(dir + "/small.h5", full);
  voltaic::io::write_checkpoint(dir + "/empty.h5", voltaic::Checkpoint{});
  voltaic::Checkpoint one;
  one.arrays["x"] = {1.0};
  voltaic::io::write_checkpoint(dir + "/one_array.h5", one);
  return 0;
}
