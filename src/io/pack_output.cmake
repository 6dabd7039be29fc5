# A pack's files: pack.csv and pack.h5 (PackOutput), written when the pack has run.
include(io/hdf5.cmake)
target_sources(voltaic_io PRIVATE io/pack_output.cpp)
