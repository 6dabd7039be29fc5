# The output writers: timeseries.csv, fields.h5 + fields.xdmf.
include(io/hdf5.cmake)
target_sources(voltaic_io PRIVATE io/number_format.cpp io/csv_text.cpp io/timeseries_csv.cpp io/xdmf.cpp io/field_writer.cpp)
