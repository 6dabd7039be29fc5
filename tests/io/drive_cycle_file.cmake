# Tests of drive-cycle CSV files.
target_sources(voltaic_tests PRIVATE io/drive_cycle_file_test.cpp io/netlist_file_test.cpp)
