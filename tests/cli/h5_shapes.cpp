// voltaic-h5-shapes FILE: what the CLI tests' cmake drivers check in an
// HDF5 file that voltaic wrote, without h5dump or h5py on the machine. One
// line per dataset, "dataset PATH DIM0 DIM1 ..." ("dataset /cells/current 12
// 4"), and per root attribute that is an integer or a string,
// "attribute NAME VALUE". Exit 1 when the file cannot be read.
#include <hdf5.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

herr_t print_dataset(hid_t group, const char* name, const H5L_info_t* /*info*/, void* /*data*/) {
  const hid_t object = H5Oopen(group, name, H5P_DEFAULT);
  if (object < 0) return -1;
  if (H5Iget_type(object) == H5I_DATASET) {
    const hid_t space = H5Dget_space(object);
    std::vector<hsize_t> dims(static_cast<std::size_t>(std::max(0, H5Sget_simple_extent_ndims(space))));
    H5Sget_simple_extent_dims(space, dims.data(), nullptr);
    std::printf("dataset /%s", name);
    for (const hsize_t d : dims) std::printf(" %llu", static_cast<unsigned long long>(d));
    std::printf("\n");
    H5Sclose(space);
  }
  H5Oclose(object);
  return 0;
}

herr_t print_attribute(hid_t object, const char* name, const H5A_info_t* /*info*/, void* /*data*/) {
  const hid_t attribute = H5Aopen(object, name, H5P_DEFAULT);
  if (attribute < 0) return -1;
  const hid_t type = H5Aget_type(attribute);
  const hid_t space = H5Aget_space(attribute);
  const bool scalar = H5Sget_simple_extent_ndims(space) == 0;
  if (scalar && H5Tget_class(type) == H5T_INTEGER) {
    std::int64_t value = 0;
    if (H5Aread(attribute, H5T_NATIVE_INT64, &value) >= 0)
      std::printf("attribute %s %lld\n", name, static_cast<long long>(value));
  } else if (scalar && H5Tget_class(type) == H5T_STRING && H5Tis_variable_str(type) > 0) {
    char* text = nullptr;
    if (H5Aread(attribute, type, &text) >= 0 && text) {
      std::printf("attribute %s %s\n", name, text);
      H5free_memory(text);
    }
  }
  H5Sclose(space);
  H5Tclose(type);
  H5Aclose(attribute);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: voltaic-h5-shapes FILE.h5\n");
    return 2;
  }
  const hid_t file = H5Fopen(argv[1], H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0) return 1;
  const bool ok = H5Lvisit(file, H5_INDEX_NAME, H5_ITER_INC, print_dataset, nullptr) >= 0 &&
                  H5Aiterate2(file, H5_INDEX_NAME, H5_ITER_INC, nullptr, print_attribute, nullptr) >= 0;
  H5Fclose(file);
  return ok ? 0 : 1;
}
