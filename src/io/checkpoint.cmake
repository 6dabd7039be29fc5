# Checkpoints in HDF5, with a CRC-32C header checked before HDF5 reads them.
include(io/hdf5.cmake)
target_sources(voltaic_io PRIVATE io/checkpoint_file.cpp io/checkpoint_pieces.cpp io/checkpoint_seal.cpp io/crc32c.cpp)
