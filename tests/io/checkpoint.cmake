# Tests of checkpoint files.
include(io/hdf5.cmake)
target_sources(voltaic_tests PRIVATE io/checkpoint_file_test.cpp io/checkpoint_pieces_test.cpp)
