# Checkpoints in HDF5.
include(io/hdf5.cmake)
target_sources(voltaic_io PRIVATE io/checkpoint_file.cpp)
