#pragma once
// The backend loops behind ghost_columns.hpp. The front end
// (ghost_columns.cpp) has checked the arguments; these trust them.

#include "voltaic/linalg/ghost_columns.hpp"

namespace voltaic::cpu::ghost_columns {

template <class T>
void pack(const GhostedBlock& b, int layers, const T* field, T* edges);
template <class T>
void unpack(const GhostedBlock& b, int layers, const T* edges, T* field);
template <class T>
void fill(const GhostedBlock& b, int layers, T* field, T value);
template <class T>
void tile_partials(const GhostedBlock& b, int layers, int tile, const T* const* xs, int count, const T* y,
                   double* partials, std::size_t stride, TileSlots slots);
template <class T>
void sum_partials(const double* partials, std::size_t count, int sums, int roots, T* out);
double max_abs(const GhostedBlock& b, int layers, const double* x);
void slice(const GhostedBlock& b, int layers, int plane_nx, int plane_ny, int first_i, int first_j, const double* whole,
           double* field);

void owned(const GhostedBlock& b, int layers, const double* field, double* owned);
void place(int bx, int by, int layers, int plane_nx, int plane_ny, int i0, int j0, const double* block, double* whole);

}  // namespace voltaic::cpu::ghost_columns

namespace voltaic::cuda::ghost_columns {

template <class T>
void pack(const CudaExecutor& exec, const GhostedBlock& b, int layers, const T* field, T* edges, int stream);
template <class T>
void unpack(const CudaExecutor& exec, const GhostedBlock& b, int layers, const T* edges, T* field, int stream);
template <class T>
void fill(const CudaExecutor& exec, const GhostedBlock& b, int layers, T* field, T value);
template <class T>
void tile_partials(const CudaExecutor& exec, const GhostedBlock& b, int layers, int tile, const T* const* xs, int count,
                   const T* y, double* partials, std::size_t stride, TileSlots slots);
template <class T>
void sum_partials(const CudaExecutor& exec, const double* partials, std::size_t count, int sums, int roots, T* out,
                  int stream);
double max_abs(const CudaExecutor& exec, const GhostedBlock& b, int layers, const double* x);
void slice(const CudaExecutor& exec, const GhostedBlock& b, int layers, int plane_nx, int plane_ny, int first_i,
           int first_j, const double* whole, double* field);

void owned(const CudaExecutor& exec, const GhostedBlock& b, int layers, const double* field, double* owned);
void place(const CudaExecutor& exec, int bx, int by, int layers, int plane_nx, int plane_ny, int i0, int j0,
           const double* block, double* whole);

}  // namespace voltaic::cuda::ghost_columns
