// Compiles every material function and dispatcher for the device: a kernel
// takes the whole ParameterSet by value and calls them, as the model's
// kernels will. Built, never launched (the CUDA-vs-CPU tests come with the
// kernels that use these functions).
#include "voltaic/model/material_functions.hpp"

namespace voltaic::test {

__global__ void material_functions_on_device(ParameterSet p, const double* x, double* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const double sto = x[i], T = 298.15 + 20.0 * sto, c_e = 1000.0 * (0.5 + sto);
  const double T_ref = p.thermal.reference_temperature;
  double sum = 0.0;
  const ElectrodeParameters* electrodes[2] = {&p.negative_electrode, &p.positive_electrode};
  for (const ElectrodeParameters* e : electrodes) {
    sum += material::open_circuit_potential(*e, sto, T, T_ref);
    sum += material::entropic_change(e->entropic, sto);
    sum += material::exchange_current_density(*e, c_e, sto * e->maximum_concentration, T);
    sum += material::particle_diffusivity(*e, sto, T);
  }
  sum += material::electrolyte_conductivity(p.electrolyte, c_e, T);
  sum += material::electrolyte_diffusivity(p.electrolyte, c_e, T);
  out[i] = sum;
}

}  // namespace voltaic::test
