target_sources(voltaic_tests PRIVATE io/run_output_test.cpp io/output_directory_test.cpp)
