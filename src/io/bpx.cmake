# BPX import: the file and its header (bpx.cpp), typed field reads
# (bpx_node.cpp), the mapping to a ParameterSet (bpx_mapping.cpp).
target_sources(voltaic_io PRIVATE
  io/bpx.cpp
  io/bpx_node.cpp
  io/bpx_mapping.cpp
)
