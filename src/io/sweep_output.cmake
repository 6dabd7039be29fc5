# A sweep's files: summary.csv and curves.h5 (SweepOutput, a BatchObserver).
include(io/hdf5.cmake)
target_sources(voltaic_io PRIVATE io/sweep_output.cpp)
