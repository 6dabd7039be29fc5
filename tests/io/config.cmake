# TOML run configs: good configs, the corpus of malformed ones, docs/config.md;
# sweep configs, their sampling (whose functions are internal: src/ included)
# and the cells --cells keeps;
# pack configs.
target_sources(voltaic_tests PRIVATE io/cell_selection_test.cpp io/config_test.cpp io/sweep_config_test.cpp
                                     io/sweep_sampling_test.cpp io/pack_config_test.cpp)
target_compile_definitions(voltaic_tests PRIVATE VOLTAIC_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
target_include_directories(voltaic_tests PRIVATE ${PROJECT_SOURCE_DIR}/src)
