# Tests of the output writers.
include(io/hdf5.cmake)
target_sources(voltaic_tests PRIVATE io/timeseries_csv_test.cpp)
