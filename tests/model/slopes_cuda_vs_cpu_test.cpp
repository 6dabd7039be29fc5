// The point functions the ageing cells' CPU program and GPU kernels share,
// bit for bit on a device and on the host: OKane2022's graphite OCP table
// (cubic and linear) with its slope, the guarded OCP and its slope (OKane2022,
// Chen2020 and Marquis2019 electrodes, at T_ref and away from it), the
// regularised exchange current and Butler-Volmer with their slopes, the
// implicit Butler-Volmer solve and the film's solve (film_reaction, with the
// SEI and plating constants of the CellProgramCuda ageing tests). Fresh
// random inputs each run, inside and at the edges of their physical ranges;
// the device's outputs poisoned with NaN first; the first differing row is
// printed with its inputs and both outputs in hex.
//
// The host side evaluates each row twice: from a plain function, which
// reaches the VOLTAIC_CPU_CALL functions through their ifunc as the CPU
// program's SideReactionT does (whichever copy the link kept: a test's copy
// built with -ffp-contract=fast once served the program, src/CMakeLists.txt),
// and from the flattened FMA clone of a VOLTAIC_FMA_CLONES function, as the
// program's entry points (cell_program_cpu.cpp) run the inline functions.
// On the CPU alone it skips.
#include "model/slopes_cuda_vs_cpu.hpp"

#include <gtest/gtest.h>

#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "cpu/fma_clones.hpp"
#include "solver/cell_program_setup.hpp"
#include "test_support.hpp"
#include "voltaic/config.hpp"
#include "voltaic/model/function_definition.hpp"
#include "voltaic/model/parameter_sets.hpp"

namespace voltaic::test::slopes {

/// The rows on the host from a plain (not cloned) function.
void evaluate_on_host(const RowConstants& s, const std::vector<double>& in, std::vector<double>& out) {
  const std::size_t rows = in.size() / kInputs;
  for (std::size_t r = 0; r < rows; ++r) evaluate_row(s, in.data() + r * kInputs, out.data() + r * kOutputs);
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define VOLTAIC_TEST_FLATTEN __attribute__((flatten))
#else
#define VOLTAIC_TEST_FLATTEN
#endif

/// The same from the clone this CPU runs (its FMA clone where it has FMA),
/// flattened as the CPU program's entry points are (cell_program_cpu.cpp):
/// the inline functions compiled inside it.
VOLTAIC_FMA_CLONES VOLTAIC_TEST_FLATTEN void evaluate_on_host_clone(const RowConstants& s,
                                                                    const std::vector<double>& in,
                                                                    std::vector<double>& out) {
  const std::size_t rows = in.size() / kInputs;
  for (std::size_t r = 0; r < rows; ++r) evaluate_row(s, in.data() + r * kInputs, out.data() + r * kOutputs);
}

}  // namespace voltaic::test::slopes

namespace voltaic {
namespace {

using test::slopes::Case;
using test::slopes::kInputs;
using test::slopes::kOutputs;
using test::slopes::RowConstants;

/// The device's outputs start as this NaN: one it never computes.
double poison() {
  const std::uint64_t bits = 0x7ff4dead0000beefULL;
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

std::uint64_t bits_of(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

std::string hex(double x) {
  char s[64];
  std::snprintf(s, sizeof s, "0x%016" PRIx64 " (%.17g)", bits_of(x), x);
  return s;
}

/// The same bits, or NaN on both sides (a NaN's payload is the hardware's)
/// where the device wrote one.
bool same(double host, double device) {
  if (bits_of(host) == bits_of(device)) return true;
  return std::isnan(host) && std::isnan(device) && bits_of(device) != bits_of(poison());
}

/// Rows of inputs, each padded to kInputs.
struct Rows {
  std::vector<double> in;
  void add(std::initializer_list<double> v) {
    in.insert(in.end(), v.begin(), v.end());
    in.resize(in.size() + kInputs - v.size(), 0.0);
  }
  std::size_t count() const { return in.size() / kInputs; }
};

/// A ParameterSet's electrode with its custom functions' data on the device.
struct DeviceElectrode {
  Array<double> data;
  ElectrodeParameters e;
};

class SlopesCudaVsCpu : public ::testing::Test {
 protected:
  void SetUp() override {
    gpu_ = test::cuda_executor();
    if (!gpu_) GTEST_SKIP() << "no CUDA device visible: CUDA-versus-CPU test skipped";
#if !VOLTAIC_HAS_CUDA
    GTEST_SKIP() << "built without CUDA: CUDA-versus-CPU test skipped";
#endif
    seed_ = test::fresh_seed();
    rng_.seed(seed_);
  }

  double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng_); }
  /// One of `values`, or a uniform draw in [lo, hi] (half the time each).
  double edge_or(std::initializer_list<double> values, double lo, double hi) {
    if (std::uniform_int_distribution<int>(0, 1)(rng_) == 0) return uniform(lo, hi);
    const auto i = std::uniform_int_distribution<std::size_t>(0, values.size() - 1)(rng_);
    return *(values.begin() + i);
  }

  /// `e` with its custom functions pointing into a device copy of `p`'s data.
  DeviceElectrode on_device(const ParameterSet& p, const ElectrodeParameters& e) const {
    DeviceElectrode d{Array<double>(), e};
    const std::vector<double>& host = p.custom_function_data();
    if (host.empty()) return d;
    d.data = Array<double>::from_host(gpu_, host);
    for (CustomFunction* f : {&d.e.ocp_function, &d.e.entropic_function})
      if (f->data != nullptr) f->data = d.data.data() + (f->data - host.data());
    return d;
  }

  /// Evaluates `rows` on the device (`device`: what the kernel reads) and on
  /// the host (`host`), and expects the same bits in every output.
  void expect_same(const std::string& what, const RowConstants& host, const RowConstants& device, const Rows& rows) {
    ASSERT_EQ(host.what, device.what);
    const std::size_t n = rows.count();
    ASSERT_GT(n, 0u);
    const Array<double> in = Array<double>::from_host(gpu_, rows.in);
    Array<double> out = Array<double>::from_host(gpu_, std::vector<double>(n * kOutputs, poison()));
    gpu_->synchronize();
#if VOLTAIC_HAS_CUDA
    test::slopes::evaluate_on_device(device, in.data(), out.data(), static_cast<int>(n));
#endif
    const std::vector<double> d = out.to_host();
    std::vector<double> plain(n * kOutputs, std::numeric_limits<double>::quiet_NaN()), cloned = plain;
    test::slopes::evaluate_on_host(host, rows.in, plain);
    test::slopes::evaluate_on_host_clone(host, rows.in, cloned);
    const int outputs = test::slopes::outputs_of(host.what), inputs = test::slopes::inputs_of(host.what);
    const struct {
      const char* name;
      const std::vector<double>& h;
    } sides[] = {{"host (plain caller)", plain}, {"host (FMA-clone caller)", cloned}};
    for (const auto& side : sides) {
      std::size_t differing = 0, first = n;
      int first_output = 0;
      for (std::size_t r = 0; r < n; ++r) {
        bool row_differs = false;
        for (int k = 0; k < outputs; ++k) {
          if (same(side.h[r * kOutputs + k], d[r * kOutputs + k])) continue;
          if (!row_differs && first == n) {
            first = r;
            first_output = k;
          }
          row_differs = true;
        }
        differing += row_differs;
      }
      if (differing == 0) continue;
      std::ostringstream m;
      m << what << ": " << differing << " of " << n << " rows differ between the device and the " << side.name
        << "; seed " << seed_ << "\n  first: row " << first << ", output " << first_output << "\n  inputs:";
      for (int k = 0; k < inputs; ++k) m << "\n    in[" << k << "] = " << hex(rows.in[first * kInputs + k]);
      m << "\n  outputs (host | device):";
      for (int k = 0; k < outputs; ++k) {
        const double a = side.h[first * kOutputs + k], b = d[first * kOutputs + k];
        m << "\n    out[" << k << "] = " << hex(a) << " | " << hex(b) << (same(a, b) ? "" : "  <-- differs");
      }
      ADD_FAILURE() << m.str();
    }
  }

  /// Stoichiometries inside [0, 1], at its ends and past them, near the
  /// barriers' onsets (0.0095, 0.9905) and at OKane2022's table nodes.
  double stoichiometry(const double* nodes = nullptr, int n = 0) {
    const int pick = std::uniform_int_distribution<int>(0, 9)(rng_);
    if (pick < 5) return uniform(0.0, 1.0);
    if (pick == 5) return uniform(-0.02, 1.02);
    if (pick == 6 && nodes) return nodes[std::uniform_int_distribution<int>(0, n - 1)(rng_)];
    if (pick == 7) return edge_or({0.0, 1e-10, 1e-6, 5e-4, 1e-3}, 0.0, 0.012);
    if (pick == 8) return edge_or({1.0, 1.0 - 1e-10, 1.0 - 1e-6, 0.9995, 0.999}, 0.988, 1.0);
    return edge_or({0.0095, 0.0094, 0.9905, 0.9906, 0.5}, 0.005, 0.02);
  }

  /// A temperature: T_ref itself half the time, else around the ageing tests' (268.15 K to a warm cell).
  double temperature(double t_ref) { return edge_or({t_ref, t_ref, t_ref, 268.15}, 250.0, 330.0); }

  std::shared_ptr<const CudaExecutor> gpu_;
  std::uint64_t seed_ = 0;
  std::mt19937_64 rng_;
};

/// The electrodes the ageing tests run: OKane2022's (its graphite a cubic
/// table) and Chen2020's (fits), and Marquis2019's (fits with an entropic term).
struct NamedSet {
  const char* name;
  ParameterSet p;
};
std::vector<NamedSet> sets() {
  return {{"OKane2022", parameter_sets::okane2022()},
          {"Chen2020", parameter_sets::chen2020()},
          {"Marquis2019", parameter_sets::marquis2019()}};
}

TEST_F(SlopesCudaVsCpu, OKane2022GraphiteTablesMatchBitwise) {
  const ParameterSet p = parameter_sets::okane2022();
  const CustomFunction& cubic = p.custom_function(FunctionSlot::negative_ocp);
  ASSERT_EQ(cubic.kind, FunctionKind::cubic_table);
  const int n = cubic.size;
  const std::vector<double> x(cubic.data, cubic.data + n), y(cubic.data + n, cubic.data + 2 * n);
  const FunctionDefinition linear_table = FunctionDefinition::table(x, y);
  const CustomFunction linear = linear_table.handle();
  // Every node, a hair either side of it, each segment's middle, random
  // points over the table and past both ends.
  Rows rows;
  for (int i = 0; i < n; ++i) {
    rows.add({x[i]});
    rows.add({std::nextafter(x[i], -INFINITY)});
    rows.add({std::nextafter(x[i], INFINITY)});
    if (i + 1 < n) rows.add({0.5 * (x[i] + x[i + 1])});
  }
  for (int i = 0; i < 3000; ++i) rows.add({uniform(x[0] - 0.05, x[n - 1] + 0.05)});
  for (const auto& [kind, f] : {std::pair<Case, const CustomFunction*>{Case::cubic_table, &cubic},
                                std::pair<Case, const CustomFunction*>{Case::linear_table, &linear}}) {
    const Array<double> data = Array<double>::from_host(gpu_, std::vector<double>(f->data, f->data + f->data_size()));
    RowConstants host;
    host.what = kind;
    host.table = f->data;
    host.table_size = f->size;
    RowConstants device = host;
    device.table = data.data();
    expect_same(kind == Case::cubic_table ? "interpolate_cubic_table_slope" : "interpolate_table_slope", host, device,
                rows);
  }
}

TEST_F(SlopesCudaVsCpu, GuardedOcpMatchesBitwise) {
  for (const NamedSet& s : sets()) {
    const double t_ref = s.p.thermal.reference_temperature;
    for (const ElectrodeParameters* e : {&s.p.negative_electrode, &s.p.positive_electrode}) {
      const DeviceElectrode d = on_device(s.p, *e);
      const CustomFunction& f = e->ocp_function;
      const bool table = e->ocp == OcpModel::custom && f.kind == FunctionKind::cubic_table;
      Rows rows;
      for (int i = 0; i < 3000; ++i)
        rows.add({stoichiometry(table ? f.data : nullptr, table ? f.size : 0), temperature(t_ref)});
      RowConstants host;
      host.what = Case::guarded_ocp;
      host.e = *e;
      host.t_ref = t_ref;
      RowConstants device = host;
      device.e = d.e;
      expect_same(std::string("guarded_open_circuit_potential_slope, ") + s.name +
                      (e == &s.p.negative_electrode ? " negative" : " positive"),
                  host, device, rows);
    }
  }
}

TEST_F(SlopesCudaVsCpu, ExchangeCurrentAndButlerVolmerSlopesMatchBitwise) {
  for (const NamedSet& s : sets()) {
    const double t_ref = s.p.thermal.reference_temperature, c_e0 = s.p.electrolyte.initial_concentration;
    for (const ElectrodeParameters* e : {&s.p.negative_electrode, &s.p.positive_electrode}) {
      const std::string where = std::string(s.name) + (e == &s.p.negative_electrode ? " negative" : " positive");
      const DeviceElectrode d = on_device(s.p, *e);
      const double c_max = e->maximum_concentration;
      Rows j0, bv;
      for (int i = 0; i < 3000; ++i) {
        const double c_e = edge_or({0.0, -1e-3, c_e0, 1e-6}, 0.0, 2.5 * c_e0);
        const double c_s = stoichiometry() * c_max, T = temperature(t_ref);
        j0.add({c_e, c_s, T});
        const double u = material::guarded_open_circuit_potential(*e, c_s / c_max, T, t_ref);
        bv.add({u + edge_or({0.0, 0.01, -0.01}, -0.3, 0.3), c_e, c_s, T});
      }
      RowConstants host;
      host.e = *e;
      host.t_ref = t_ref;
      host.c_e_scale = c_e0;
      RowConstants device = host;
      device.e = d.e;
      host.what = device.what = Case::exchange_current;
      expect_same("regularised_exchange_current_density_slope, " + where, host, device, j0);
      host.what = device.what = Case::butler_volmer_slope;
      expect_same("butler_volmer_slope, " + where, host, device, bv);
    }
  }
}

TEST_F(SlopesCudaVsCpu, ImplicitButlerVolmerMatchesBitwise) {
  for (const NamedSet& s : sets()) {
    const double t_ref = s.p.thermal.reference_temperature, c_e0 = s.p.electrolyte.initial_concentration;
    for (const ElectrodeParameters* e : {&s.p.negative_electrode, &s.p.positive_electrode}) {
      const std::string where = std::string(s.name) + (e == &s.p.negative_electrode ? " negative" : " positive");
      const DeviceElectrode d = on_device(s.p, *e);
      const double c_max = e->maximum_concentration;
      Rows rows;
      for (int i = 0; i < 3000; ++i) {
        const double sto = edge_or({0.005, 0.02, 0.98, 0.995}, 0.01, 0.99), T = temperature(t_ref);
        const double phi_e = uniform(-0.3, 0.1), c_e = edge_or({c_e0, 0.0, 1.0}, 0.0, 2.5 * c_e0);
        const double u = material::guarded_open_circuit_potential(*e, sto, T, t_ref);
        const double phi_s = phi_e + u + edge_or({0.0, 1e-4, -1e-4}, -0.25, 0.25);
        // The surface's response to j (0: fixed, the explicit form), the
        // particle's flux [mol/m^2/s], the last solve's j [A/m^2].
        const double slope = edge_or({0.0, -2e4}, -5e4, -10.0), flux = edge_or({0.0}, -2e-4, 2e-4);
        rows.add({phi_s, phi_e, c_e, sto * c_max, slope, flux, T, edge_or({0.0}, -40.0, 40.0)});
      }
      RowConstants host;
      host.what = Case::implicit_reaction;
      host.e = *e;
      host.t_ref = t_ref;
      host.c_e_scale = c_e0;
      RowConstants device = host;
      device.e = d.e;
      expect_same("butler_volmer_implicit, " + where, host, device, rows);
    }
  }
}

/// The film's solve at a negative node, with the SEI and plating constants
/// that tests/solver/cell_program_cuda_test.cpp's ageing cells run.
TEST_F(SlopesCudaVsCpu, FilmReactionMatchesBitwise) {
  struct FilmCase {
    std::string name;
    ParameterSet p;
    DegradationOptions d;
  };
  std::vector<FilmCase> cases;
  {
    ParameterSet p = parameter_sets::chen2020();  // CellProgramCuda.SeiGrowthMatchesTheCpu
    p.sei.exchange_current_density *= 100.0;
    p.sei.activation_energy = 37000.0;
    for (SeiModel m :
         {SeiModel::reaction_limited, SeiModel::ec_reaction_limited, SeiModel::solvent_diffusion_limited}) {
      DegradationOptions d;
      d.sei = m;
      cases.push_back({std::string("SEI growth, ") + to_string(m), p, d});
    }
  }
  {
    ParameterSet p = parameter_sets::okane2022();  // CellProgramCuda.LithiumPlatingMatchesTheCpu
    p.thermal.ambient_temperature = p.thermal.initial_temperature = 268.15;
    for (PlatingModel m : {PlatingModel::reversible, PlatingModel::partially_reversible, PlatingModel::irreversible}) {
      DegradationOptions d;
      d.lithium_plating = m;
      if (m == PlatingModel::partially_reversible) d.sei = SeiModel::reaction_limited;
      cases.push_back({std::string("lithium plating, ") + to_string(m), p, d});
    }
  }
  {
    ParameterSet p = parameter_sets::okane2022();  // CellProgramCuda.LossOfActiveMaterialMatchesTheCpu
    p.negative_lam.reaction_factor = 1.5e-4;
    DegradationOptions d;
    d.sei = SeiModel::reaction_limited;
    d.loss_of_active_material[0] = LamModel::stress_and_reaction_driven;
    cases.push_back({"loss of active material under a film", p, d});
  }
  {
    ParameterSet p = parameter_sets::chen2020();  // CellProgramCuda.AgeingCellsEndTheirCyclingAsTheCpu
    p.sei.exchange_current_density = 3e-4;
    DegradationOptions d;
    d.sei = SeiModel::reaction_limited;
    cases.push_back({"ageing cells, SEI reaction limited", p, d});
  }
  for (const FilmCase& f : cases) {
    const ElectrodeParameters& e = f.p.negative_electrode;
    const double t_ref = f.p.thermal.reference_temperature, c_e0 = f.p.electrolyte.initial_concentration;
    const double t0 = f.p.thermal.initial_temperature, c_max = e.maximum_concentration;
    const double area = 3.0 * e.active_material_volume_fraction / e.particle_radius;
    const DeviceElectrode d = on_device(f.p, e);
    RowConstants host;
    host.what = Case::film_reaction;
    host.e = e;
    host.t_ref = t_ref;
    host.c_e_scale = c_e0;
    host.sei = program::sei_constants(f.d, f.p, area);
    host.plating = program::plating_constants(f.d, f.p, area);
    RowConstants device = host;
    device.e = d.e;
    const double l0 = f.p.sei.initial_thickness;
    Rows rows;
    for (int i = 0; i < 2000; ++i) {
      const double sto = edge_or({0.02, 0.9, 0.98}, 0.02, 0.98);
      const double T = edge_or({t0, t_ref, 268.15}, t0 - 5.0, t0 + 25.0);
      const double phi_e = uniform(-0.3, 0.0), c_e = edge_or({c_e0, 0.0}, 0.0, 2.0 * c_e0);
      const double u = material::guarded_open_circuit_potential(e, sto, T, t_ref);
      // From a deep charge (plating) to a discharge.
      const double phi_s = phi_e + u + edge_or({0.0, -0.05}, -0.2, 0.1);
      const double slope = edge_or({0.0, -2e4}, -5e4, -10.0), flux = edge_or({0.0}, -2e-4, 2e-4);
      const double L = edge_or({l0, 0.0}, l0, 20.0 * l0), c_pl = edge_or({0.0}, 0.0, 2000.0);
      const double guess_tot = edge_or({0.0}, -20.0, 20.0), guess_main = edge_or({0.0, guess_tot}, -20.0, 20.0);
      rows.add({phi_s, phi_e, c_e, sto * c_max, slope, flux, T, L, c_pl, guess_tot, guess_main});
    }
    expect_same("film_reaction, " + f.name, host, device, rows);
  }
}

}  // namespace
}  // namespace voltaic
