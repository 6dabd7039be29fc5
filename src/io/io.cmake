# voltaic::io: what a user's files go through. TOML run configs, BPX
# parameter files, CSV/HDF5/XDMF output and checkpoints. A separate library so
# that a program using only the solver needs none of HDF5, toml++ or JSON.
enable_language(C)  # FindHDF5 probes with a C compiler
find_package(HDF5 REQUIRED COMPONENTS C)
find_package(nlohmann_json 3 REQUIRED)
find_package(tomlplusplus 3 REQUIRED)

add_library(voltaic_io)
add_library(voltaic::io ALIAS voltaic_io)
set_target_properties(voltaic_io PROPERTIES EXPORT_NAME io POSITION_INDEPENDENT_CODE ON VERSION ${PROJECT_VERSION})
target_link_libraries(voltaic_io
  PUBLIC voltaic::voltaic
  PRIVATE ${HDF5_C_LIBRARIES} nlohmann_json::nlohmann_json tomlplusplus::tomlplusplus)
target_include_directories(voltaic_io PRIVATE ${HDF5_C_INCLUDE_DIRS} ${PROJECT_SOURCE_DIR}/src)
target_compile_options(voltaic_io PRIVATE -ffp-contract=off -Wall -Wextra -Wpedantic $<$<BOOL:${VOLTAIC_WERROR}>:-Werror>)

# Each part lists its own sources.
include(io/atomic_file.cmake)
include(io/input_file.cmake)
include(io/output_path.cmake)
include(io/drive_cycle_file.cmake)
include(io/bpx.cmake OPTIONAL)
include(io/config.cmake OPTIONAL)
include(io/output.cmake OPTIONAL)
include(io/checkpoint.cmake OPTIONAL)
include(io/run_output.cmake)
include(io/sweep_output.cmake)
include(io/pack_output.cmake)
