# TOML run configs: good configs, the corpus of malformed ones, docs/config.md.
target_sources(voltaic_tests PRIVATE io/config_test.cpp)
target_compile_definitions(voltaic_tests PRIVATE VOLTAIC_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
