# Tests of a pack's files (PackOutput): pack.csv and pack.h5 read back.
include(io/hdf5.cmake)
target_sources(voltaic_tests PRIVATE io/pack_output_test.cpp)
