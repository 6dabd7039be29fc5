target_sources(voltaic_tests PRIVATE io/bpx_test.cpp)
