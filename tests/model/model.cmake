# Tests of the model layer.
target_sources(voltaic_tests PRIVATE
  model/parameter_validation_test.cpp
  model/material_functions_test.cpp
)

if(VOLTAIC_HAS_CUDA)
  # Kernels call the material functions: they must compile for the device.
  add_library(voltaic_model_device_check OBJECT model/material_functions_device_check.cu)
  target_link_libraries(voltaic_model_device_check PRIVATE voltaic::voltaic)
  target_compile_options(voltaic_model_device_check PRIVATE
    -Xcompiler=-Wall,-Wextra $<$<BOOL:${VOLTAIC_WERROR}>:--Werror=all-warnings -Xcompiler=-Werror>)
endif()
