# Tests of the model layer.
find_package(nlohmann_json 3 REQUIRED)
target_sources(voltaic_tests PRIVATE
  model/parameter_validation_test.cpp
  model/material_functions_test.cpp
  model/material_function_test.cpp
  model/cubic_table_test.cpp
  model/slope_test.cpp
  model/slopes_cuda_vs_cpu_test.cpp
  model/portable_exp_test.cpp
  model/portable_log_test.cpp
  model/kinetics_lanes_test.cpp
  model/pybamm_values_test.cpp
  model/pybamm_functions_test.cpp
)
target_link_libraries(voltaic_tests PRIVATE nlohmann_json::nlohmann_json)
# PyBaMM reference data written by tools/pybamm_parameter_reference.py.
target_compile_definitions(voltaic_tests PRIVATE VOLTAIC_TEST_DATA_DIR="${PROJECT_SOURCE_DIR}/tests/data")

if(VOLTAIC_HAS_CUDA)
  # Kernels call the material functions: they must compile for the device.
  add_library(voltaic_model_device_check OBJECT model/material_functions_device_check.cu)
  target_link_libraries(voltaic_model_device_check PRIVATE voltaic::voltaic)
  target_compile_options(voltaic_model_device_check PRIVATE
    -Xcompiler=-Wall,-Wextra $<$<BOOL:${VOLTAIC_WERROR}>:--Werror=all-warnings -Xcompiler=-Werror>)

  # The device side of slopes_cuda_vs_cpu_test.cpp, rounding as the cell
  # program's kernels do (--fmad=false, kernels/ and src/solver/solver.cmake).
  add_library(voltaic_slopes_cuda OBJECT model/slopes_cuda_kernels.cu)
  target_include_directories(voltaic_slopes_cuda PRIVATE ${CMAKE_CURRENT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(voltaic_slopes_cuda PRIVATE voltaic::voltaic)
  target_compile_options(voltaic_slopes_cuda PRIVATE --fmad=false --expt-relaxed-constexpr
    -Xcompiler=-Wall,-Wextra $<$<BOOL:${VOLTAIC_WERROR}>:--Werror=all-warnings -Xcompiler=-Werror>)
  target_link_libraries(voltaic_tests PRIVATE voltaic_slopes_cuda)
endif()
