# Tests of the model layer.
target_sources(voltaic_tests PRIVATE
  model/parameter_validation_test.cpp
)
