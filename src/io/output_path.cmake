target_sources(voltaic_io PRIVATE io/output_path.cpp)
