# Tests of a sweep's files (SweepOutput): summary.csv and curves.h5 read back.
include(io/hdf5.cmake)
target_sources(voltaic_tests PRIVATE io/sweep_output_test.cpp)
