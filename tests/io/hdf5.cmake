# The output and checkpoint tests read files back with the HDF5 C API and use
# voltaic's RAII handles (src/io/hdf5_handle.hpp, header-only) to do it.
include_guard(GLOBAL)
find_package(HDF5 REQUIRED COMPONENTS C)
target_include_directories(voltaic_tests PRIVATE ${HDF5_C_INCLUDE_DIRS} ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(voltaic_tests PRIVATE ${HDF5_C_LIBRARIES})
