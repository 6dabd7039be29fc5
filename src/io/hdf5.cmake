# The HDF5 helpers shared by the output writers and checkpoints (RAII handles
# are header-only in hdf5_handle.hpp). Included by both; listed once.
include_guard(GLOBAL)
target_sources(voltaic_io PRIVATE io/hdf5_error.cpp io/hdf5_attributes.cpp io/hdf5_datasets.cpp io/hdf5_names.cpp)
