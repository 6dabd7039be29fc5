# Tests of voltaic::io; each part lists its own test sources.
target_link_libraries(voltaic_tests PRIVATE voltaic::io)
include(io/atomic_file.cmake)
include(io/drive_cycle_file.cmake)
include(io/bpx.cmake OPTIONAL)
include(io/config.cmake OPTIONAL)
include(io/output.cmake OPTIONAL)
include(io/checkpoint.cmake OPTIONAL)
include(io/run_output.cmake)
