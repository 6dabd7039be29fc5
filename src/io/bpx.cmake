target_sources(voltaic_io PRIVATE io/bpx.cpp)
