# Input files opened without blocking and read up to a cap (configs, BPX
# files, drive-cycle tables, checkpoints).
target_sources(voltaic_io PRIVATE io/input_file.cpp)
