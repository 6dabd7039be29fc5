# Sources of the model layer: parameter sets and material functions.
target_sources(voltaic PRIVATE
  model/parameter_set.cpp
  model/parameter_set_functions.cpp
  model/function_definition.cpp
  model/expression.cpp
  model/parameter_table.cpp
  model/parameter_sets.cpp
  model/chen2020.cpp
  model/marquis2019.cpp
  model/okane2022.cpp
)
