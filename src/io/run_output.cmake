target_sources(voltaic_io PRIVATE io/run_output.cpp io/output_directory.cpp)
