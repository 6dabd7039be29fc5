# TOML run configs: the public load_config/parse_config, the text and name
# checks, one reader per group of sections, and the nearest-name helper.
target_sources(voltaic_io PRIVATE
  io/config_error.cpp
  io/nearest_name.cpp
)
