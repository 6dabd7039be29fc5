target_sources(voltaic_tests PRIVATE io/output_path_test.cpp)
