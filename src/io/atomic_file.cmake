target_sources(voltaic_io PRIVATE io/atomic_file.cpp)
