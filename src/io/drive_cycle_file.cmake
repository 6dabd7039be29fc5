# Drive-cycle tables from CSV files (the tables of "Run NAME (A)" steps), and
# the CSV helpers they share with the cell tables of [sweep].
target_sources(voltaic_io PRIVATE io/csv_text.cpp io/drive_cycle_file.cpp)
