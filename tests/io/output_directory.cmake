target_sources(voltaic_tests PRIVATE io/output_directory_test.cpp)
