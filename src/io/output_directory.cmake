# The output directory checked before a run starts.
target_sources(voltaic_io PRIVATE io/output_directory.cpp)
