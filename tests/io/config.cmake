# TOML run configs: good configs and the corpus of malformed ones.
target_sources(voltaic_tests PRIVATE io/config_test.cpp)
