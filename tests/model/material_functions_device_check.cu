// Compiles every material function and dispatcher for the device: kernels
// take the parameter groups by value (as the DFN kernels take DfnConstants)
// and call them, custom functions (constants, linear and cubic tables,
// expressions) included.
// Built, never launched (the CUDA-vs-CPU tests come with the kernels that
// use these functions).
#include "voltaic/model/kinetics.hpp"
#include "voltaic/model/material_function.hpp"
#include "voltaic/model/material_functions.hpp"

namespace voltaic::test {

/// What the kernels read of a ParameterSet (which is itself not trivially copyable).
struct DeviceParameters {
  ElectrodeParameters electrode[2];
  ElectrolyteParameters electrolyte;
  double reference_temperature;
};

__global__ void material_functions_on_device(DeviceParameters p, const double* x, double* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const double sto = x[i], T = 298.15 + 20.0 * sto, c_e = 1000.0 * (0.5 + sto);
  const double T_ref = p.reference_temperature;
  double sum = 0.0;
  for (const ElectrodeParameters& e : p.electrode) {
    sum += material::open_circuit_potential(e, sto, T, T_ref);
    sum += material::reference_open_circuit_potential(e, sto);
    sum += material::open_circuit_potential(e.ocp, sto);
    sum += material::entropic_change(e, sto);
    sum += material::entropic_change(e.entropic, sto);
    sum += material::exchange_current_density(e, c_e, sto * e.maximum_concentration, T);
    sum += material::particle_diffusivity(e, sto, T);
    sum += kinetics::butler_volmer(e, T_ref, 0.1, 0.0, c_e, sto * e.maximum_concentration, T, 1000.0).j;
  }
  sum += material::electrolyte_conductivity(p.electrolyte, c_e, T);
  sum += material::electrolyte_diffusivity(p.electrolyte, c_e, T);
  out[i] = sum;
}

/// Each kind of custom function on its own, by value, as a kernel argument.
__global__ void custom_functions_on_device(CustomFunction constant, CustomFunction table, CustomFunction cubic,
                                           CustomFunction expression, const double* x, double* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = constant(x[i]) + table(x[i]) + cubic(x[i]) + expression(x[i]) +
           detail::evaluate_expression(expression.data, expression.size, x[i]) +
           detail::interpolate_table(table.data, table.size, x[i]) +
           detail::interpolate_cubic_table(cubic.data, cubic.size, x[i]) + cubic.data_size();
}

}  // namespace voltaic::test
