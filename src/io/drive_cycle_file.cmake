# Drive-cycle tables from CSV files (the tables of "Run NAME (A)" steps).
target_sources(voltaic_io PRIVATE io/drive_cycle_file.cpp)
