target_sources(voltaic_tests PRIVATE io/run_output_test.cpp)
