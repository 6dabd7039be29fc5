# TOML run configs: the public load_config/parse_config, the text and name
# checks, one reader per group of sections, and the nearest-name helper.
target_sources(voltaic_io PRIVATE
  io/config.cpp
  io/config_cell.cpp
  io/config_error.cpp
  io/config_experiment.cpp
  io/config_output.cpp
  io/config_schema.cpp
  io/config_section.cpp
  io/config_simulation.cpp
  io/config_text.cpp
  io/nearest_name.cpp
)
# [sweep]: the cells of `voltaic sweep`, read, checked and sampled (and cut to
# some of them: --cells).
target_sources(voltaic_io PRIVATE
  io/cell_selection.cpp
  io/sweep_config.cpp
  io/sweep_sampling.cpp
  io/sweep_table.cpp
)
# [pack]: the cells of `voltaic pack`, wired in parallel and in series (their
# parameters from [sweep] when it is there).
target_sources(voltaic_io PRIVATE io/pack_config.cpp io/netlist_file.cpp)
