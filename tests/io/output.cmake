# Tests of the output writers.
include(io/hdf5.cmake)
target_sources(voltaic_tests PRIVATE io/timeseries_csv_test.cpp io/xdmf_test.cpp io/field_writer_test.cpp)
