target_sources(voltaic_tests PRIVATE io/atomic_file_test.cpp)
