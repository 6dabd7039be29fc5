// voltaic-mpi-bench: what a pouch cell whose plane is cut over the MPI ranks
// sends per time step (ghost exchanges, canonical sums, maxima, whole-plane
// gathers) and how long its steps take, on the CPU backend, beside the same
// cell on one rank. Feeds the halo-exchange cost model of docs/performance.md.
//   mpirun -n 4 voltaic-mpi-bench --nx 64 --ny 64 --minutes 10
//   mpirun -n 2 voltaic-mpi-bench --latency [--backend cuda]   (MPI_Allreduce, exchange and,
//   on GPUs, device exchange and canonical dot times)
//   mpirun -n 4 voltaic-mpi-bench --plane-cycle --nx 520 --ny 520   (the 2D V-cycle cut over the
//   ranks, CutPlaneMultigrid, beside the whole plane gathered and run on every rank; --backend cuda
//   on the ranks' GPUs)
// Rank 0 prints one JSON object per line.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "voltaic/core/array.hpp"
#include "voltaic/core/device_activity.hpp"
#include "voltaic/linalg/cut_plane_multigrid.hpp"
#include "voltaic/model/parameter_sets.hpp"
#include "voltaic/mpi/block_decomposition.hpp"
#include "voltaic/solver/simulation.hpp"

namespace {

using namespace voltaic;

struct Measured {
  double wall_s = 0.0;
  int steps = 0;  ///< accepted and rejected
  mpi::BlockTraffic traffic;
  WorkCounts work;
  SubstepTimes substeps;    ///< with SimulationOptions::time_substeps only
  DeviceActivity activity;  ///< of the whole run
};

/// The run on `cut` (null: the plain Simulation, no decomposition, one process).
Measured run(const std::shared_ptr<const Executor>& exec, const std::shared_ptr<const mpi::BlockDecomposition>& cut,
             const SimulationOptions& o, const Experiment& experiment) {
  Simulation sim = cut ? Simulation(parameter_sets::marquis2019(), o, exec, cut)
                       : Simulation(parameter_sets::marquis2019(), o, exec);
  if (cut) {
    cut->reset_traffic();
    cut->communicator().barrier();
  }
  const DeviceActivity before = device_activity();
  const auto start = std::chrono::steady_clock::now();
  const Solution s = sim.run(experiment);
  exec->synchronize();
  if (cut) cut->communicator().barrier();
  Measured m;
  m.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  m.steps = s.steps_taken + s.steps_rejected;
  if (cut) m.traffic = cut->traffic();
  m.work = sim.work();
  m.substeps = sim.substep_times();
  m.activity = device_activity() - before;
  return m;
}

/// The executor of this rank: the CPU's, or the node's GPUs dealt round the node's ranks.
std::shared_ptr<const Executor> executor_for(const std::string& backend, const mpi::Communicator& world) {
  if (backend == "cpu") return CpuExecutor::create();
  MPI_Comm node;
  mpi::check(MPI_Comm_split_type(world.get(), MPI_COMM_TYPE_SHARED, world.rank(), MPI_INFO_NULL, &node),
             "MPI_Comm_split_type");
  int local = 0;
  MPI_Comm_rank(node, &local);
  MPI_Comm_free(&node);
  const int devices = CudaExecutor::device_count();
  if (devices == 0) throw BackendUnavailable("CUDA backend", "voltaic-mpi-bench", "no CUDA device visible");
  return CudaExecutor::create(local % devices, 3);  // the third stream: the exchanges'
}

/// The largest value of each counter over the ranks (the busiest rank).
mpi::BlockTraffic busiest(const mpi::Communicator& comm, const mpi::BlockTraffic& t) {
  long long v[8] = {t.exchanges, t.messages, t.exchange_bytes, t.sums,
                    t.sum_bytes, t.maxima,   t.gathers,        t.gather_bytes};
  mpi::check(MPI_Allreduce(MPI_IN_PLACE, v, 8, MPI_LONG_LONG, MPI_MAX, comm.get()), "MPI_Allreduce");
  return {v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]};
}

nlohmann::json per_step(const Measured& m, const mpi::BlockTraffic& t) {
  const double n = std::max(m.steps, 1);
  nlohmann::json j = {{"steps", m.steps},
                      {"ms_per_step", 1e3 * m.wall_s / n},
                      {"exchanges_per_step", t.exchanges / n},
                      {"messages_per_step", t.messages / n},
                      {"exchange_bytes_per_step", t.exchange_bytes / n},
                      {"sums_per_step", t.sums / n},
                      {"sum_bytes_per_step", t.sum_bytes / n},
                      {"maxima_per_step", t.maxima / n},
                      {"gathers_per_step", t.gathers / n},
                      {"gather_bytes_per_step", t.gather_bytes / n},
                      {"newton_per_step", m.work.newton_iterations / n},
                      {"krylov_per_step", m.work.linear_iterations / n},
                      {"heat_cg_per_step", m.work.heat_iterations / n},
                      {"electrolyte_cg_per_step", m.work.electrolyte_iterations / n},
                      {"launches_per_step", m.activity.kernel_launches / n},
                      {"host_waits_per_step", m.activity.host_waits / n}};
  const SubstepTimes& x = m.substeps;
  if (x.potential_s + x.thermal_s + x.concentration_s > 0.0)
    j["substep_ms_per_step"] = {{"concentration", 1e3 * x.concentration_s / n},
                                {"potential", 1e3 * x.potential_s / n},
                                {"thermal", 1e3 * x.thermal_s / n}};
  return j;
}

/// The median seconds of `repeats` calls of `call`, each started together on every rank.
double median_s(const mpi::Communicator& world, int repeats, const std::function<void()>& call) {
  std::vector<double> t;
  for (int r = 0; r < repeats; ++r) {
    world.barrier();
    const auto start = std::chrono::steady_clock::now();
    call();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::nth_element(t.begin(), t.begin() + t.size() / 2, t.end());
  return t[t.size() / 2];
}

/// Seconds per MPI_Allreduce of `count` doubles and per ghost exchange of
/// `side` values to each neighbour in host memory (BlockDecomposition's,
/// which packs every side into one buffer and fills the corners), the
/// medians of timed calls.
nlohmann::json latencies(const mpi::Communicator& world) {
  nlohmann::json j = {{"benchmark", "mpi_latency"}, {"ranks", world.size()}};
  for (int tiles : {16, 1024, 4096}) {
    std::vector<double> v(tiles, 1.0), out(tiles);
    j["allreduce_us"][std::to_string(tiles) + " tiles"] =
        1e6 * median_s(world, 200, [&] {
          mpi::check(MPI_Allreduce(v.data(), out.data(), tiles, MPI_DOUBLE, MPI_SUM, world.get()), "MPI_Allreduce");
        });
  }
  for (int columns : {64, 256, 1024}) {  // a block of columns x columns, 25 layers, exchanged whole
    const auto cut = mpi::BlockDecomposition::over(world, columns * 2, columns * 2, 16);
    std::vector<double> field(cut->shape().layer() * 25, 1.0);
    j["exchange_us"]["side of " + std::to_string(cut->block().nx()) + " x 25"] =
        1e6 * median_s(world, 50, [&] { cut->exchange(field.data(), 25); });
  }
  return j;
}

/// The same planes on a GPU rank: seconds per ghost exchange of a 25-layer
/// field in device memory (begin, end, the device synchronised) and per
/// canonical dot over its owned cells (tile partials, the all-reduce, the
/// sum back on the host), the two operations the cost model prices, by
/// `transport`; with NCCL also a dot left in device memory (no host wait,
/// timed over 50 queued in a row).
nlohmann::json device_latencies(const mpi::Communicator& world, const std::shared_ptr<const Executor>& exec,
                                mpi::GpuTransport transport) {
  nlohmann::json j;
  for (int columns : {64, 256, 1024}) {
    const auto cut = mpi::BlockDecomposition::over(world, columns * 2, columns * 2, 16, exec, transport);
    const GhostedBlock& g = cut->shape();
    auto field = Array<double>::from_host(
        exec, std::vector<double>(static_cast<std::size_t>(g.gx()) * static_cast<std::size_t>(g.gy()) * 25, 1.0));
    double* f = field.data();
    const std::string side = "side of " + std::to_string(cut->block().nx()) + " x 25";
    j["transport"] = mpi::to_string(cut->transport());
    j["exchange_us"][side] = 1e6 * median_s(world, 50, [&] {
                               cut->begin(f, 25);
                               cut->end(f, 25);
                               exec->synchronize();
                             });
    j["dot_us"][side] = 1e6 * median_s(world, 50, [&] { (void)cut->dot(f, f, 25); });
    if (cut->transport() != mpi::GpuTransport::nccl) continue;
    Array<double> result(exec, 1);
    const View<const double> v(f, field.size(), exec->memory_space());
    j["queued_dot_us"][side] = 1e6 / 50 * median_s(world, 10, [&] {
                                 for (int i = 0; i < 50; ++i) cut->space(25, 0.0).dot(*exec, v, v, result.view());
                                 exec->synchronize();
                               });
  }
  return j;
}

/// --plane-cycle: one V-cycle of the collectors' Schur complement (random
/// blocks of its form, a tab on one edge) on the nx x ny plane, in the
/// memory of `exec` (a CPU's, or this rank's GPU): cut over the ranks
/// (CutPlaneMultigrid) against the whole plane's V-cycle on every rank from
/// the gathered r (what PlaneCycle runs on one rank and on GPUs below
/// PlaneCycle::kCutOnDeviceCells). Both give the same bits, checked here.
void print_plane_cycle(const mpi::Communicator& world, int nx, int ny, const std::shared_ptr<const Executor>& exec) {
  const std::size_t n = static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny);
  std::vector<double> coverage(2 * static_cast<std::size_t>(nx + ny), 0.0), none(coverage.size(), 0.0);
  std::fill(coverage.begin(), coverage.begin() + ny / 4, 1.0);  // a tab on a quarter of x_lo
  std::array<std::vector<double>, 4> b;
  std::vector<double> r(2 * n);
  for (std::size_t c = 0; c < n; ++c) {  // the same on every rank: a fixed recipe
    const double g = 1.0 + 0.5 * std::sin(0.37 * static_cast<double>(c));
    b[0].push_back(g + 1e-3);
    b[1].push_back(-g);
    b[2].push_back(-g);
    b[3].push_back(g + 2e-3);
    r[c] = std::cos(0.11 * static_cast<double>(c));
    r[n + c] = std::sin(0.07 * static_cast<double>(c));
  }
  std::vector<Array<double>> kept;  // the executor's copies of host values
  auto view = [&](const std::vector<double>& v, std::size_t first, std::size_t count) {
    const auto begin = v.begin() + static_cast<std::ptrdiff_t>(first);
    kept.push_back(Array<double>::from_host(exec, std::vector<double>(begin, begin + count)));
    return kept.back().const_view();
  };
  auto edges = [&](const std::vector<double>& c) {
    const std::size_t x = ny, y = nx;
    return PlaneEdges<double>{view(c, 0, x), view(c, x, x), view(c, 2 * x, y), view(c, 2 * x + y, y)};
  };
  const PlaneSystem<double> system(PlaneGrid(nx, ny, 1e-3, 1e-3), exec, {1e3, 3e3}, edges(coverage), edges(none),
                                   {view(b[0], 0, n), view(b[1], 0, n), view(b[2], 0, n), view(b[3], 0, n)});
  PlaneMultigridOptions o;
  o.pre_smoothing = o.post_smoothing = 3;  // the collectors' Schur cycle
  const bool cpu = exec->backend() == Backend::cpu;
  const auto cut = mpi::BlockDecomposition::over(world, nx, ny, 16, cpu ? nullptr : exec);
  const std::size_t field = static_cast<std::size_t>(cut->ghosted_nx()) * static_cast<std::size_t>(cut->ghosted_ny());
  auto ghosted = [&](const std::vector<double>& whole, int layers) {
    std::vector<double> v(field * layers);
    cut->slice_host(whole.data(), layers, v.data());
    return view(v, 0, v.size());
  };
  std::array<View<const double>, 4> bg;
  for (int m = 0; m < 4; ++m) bg[m] = ghosted(b[m], 1);
  const View<const double> rg = ghosted(r, 2);
  Array<double> z_cut(exec, 2 * field), z_gathered(exec, 2 * field), r_whole(exec, 2 * n), z_whole(exec, 2 * n);

  CutPlaneMultigrid<double> split(system, cut, o);
  split.update(bg[0], bg[1], bg[2], bg[3]);
  const double cut_s = median_s(world, 20, [&] {
    split.apply(rg, z_cut.view());
    exec->synchronize();
  });
  const PlaneMultigrid<double> whole(system, o);
  const double gathered_s = median_s(world, 20, [&] {
    cut->gather(rg.data(), 2, r_whole.data());
    whole.apply(r_whole.const_view(), z_whole.view());
    cut->slice(z_whole.data(), 2, z_gathered.data());
    exec->synchronize();
  });
  std::vector<double> a(2 * field), g(2 * field);
  exec->copy(a.data(), MemorySpace::host(), z_cut.data(), z_cut.space(), a.size() * sizeof(double));
  exec->copy(g.data(), MemorySpace::host(), z_gathered.data(), z_gathered.space(), g.size() * sizeof(double));
  int differ = std::memcmp(a.data(), g.data(), a.size() * sizeof(double)) != 0 ? 1 : 0;
  mpi::check(MPI_Allreduce(MPI_IN_PLACE, &differ, 1, MPI_INT, MPI_MAX, world.get()), "MPI_Allreduce");
  if (world.rank() != 0) return;
  const nlohmann::json j = {
      {"benchmark", "plane_cycle"}, {"ranks", world.size()},           {"backend", exec->name()},
      {"plane", {nx, ny}},          {"levels", split.num_levels()},    {"cut_levels", split.cut_levels()},
      {"cut_ms", 1e3 * cut_s},      {"gathered_ms", 1e3 * gathered_s}, {"same_bits", differ == 0}};
  std::printf("%s\n", j.dump().c_str());
}

/// What the command line asks for.
struct Options {
  int nx = 64, ny = 64;
  double minutes = 10.0;
  bool alone = true, latency = false, split = false, plane_cycle = false;
  std::string backend = "cpu", transport = "auto";
};

/// --latency: the unit costs, on the host and (with --backend cuda) on each rank's GPU.
void print_latencies(const mpi::Communicator& world, const Options& a) {
  nlohmann::json j = latencies(world);
  if (a.backend == "cuda") {
    const auto exec = executor_for(a.backend, world);
    j["device"] = exec->name();
    j["host_staged"] = device_latencies(world, exec, mpi::GpuTransport::host_staged);
    if (mpi::mpi_is_cuda_aware()) j["device_direct"] = device_latencies(world, exec, mpi::GpuTransport::device_direct);
    if (mpi::nccl_is_built()) j["nccl"] = device_latencies(world, exec, mpi::GpuTransport::nccl);
  }
  if (world.rank() == 0) std::printf("%s\n", j.dump().c_str());
}

/// The pouch cut over the ranks, then (on rank 0) alone in one block and uncut.
void print_traffic(const mpi::Communicator& world, const mpi::Communicator& self, const Options& a) {
  const int nx = a.nx, ny = a.ny;
  SimulationOptions o;
  o.grid = {10, 5, 10, 10, nx, ny, CurrentCollectorModel::potential_pair};
  o.thermal = ThermalModel::conduction;
  o.time_substeps = a.split;
  const Experiment experiment({"Discharge at 1C for " + std::to_string(a.minutes) + " minutes"});
  const auto exec = executor_for(a.backend, world);
  const mpi::GpuTransport way = a.transport == "host"     ? mpi::GpuTransport::host_staged
                                : a.transport == "device" ? mpi::GpuTransport::device_direct
                                : a.transport == "nccl"   ? mpi::GpuTransport::nccl
                                                          : mpi::GpuTransport::automatic;
  const auto cut = mpi::BlockDecomposition::over(world, nx, ny, 16, exec, way);
  const Measured many = run(exec, cut, o, experiment);
  const mpi::BlockTraffic most = busiest(world, many.traffic);
  const PlaneBlock& b = cut->block();
  int largest[2] = {b.nx(), b.ny()};
  mpi::check(MPI_Allreduce(MPI_IN_PLACE, largest, 2, MPI_INT, MPI_MAX, world.get()), "MPI_Allreduce");
  if (world.rank() == 0) {
    nlohmann::json j = per_step(many, most);
    j["benchmark"] = "mpi_traffic";
    j["ranks"] = world.size();
    j["plane"] = {nx, ny};
    j["layers"] = 25;
    j["largest_block"] = {largest[0], largest[1]};
    j["tiles"] = cut->partition().num_tiles();
    j["device"] = exec->name();
    j["transport"] = mpi::to_string(cut->transport());
    j["mpi_cuda_aware"] = mpi::mpi_is_cuda_aware();
    std::printf("%s\n", j.dump().c_str());
  }
  if (a.alone && world.rank() == 0) {  // the same cell on one rank, for the ratio: cut in one block, and not cut
    const auto one = std::make_shared<const mpi::BlockDecomposition>(self, PlanePartition(nx, ny, 1, 1), exec);
    for (const auto& d : {one, std::shared_ptr<const mpi::BlockDecomposition>()}) {
      const Measured m = run(exec, d, o, experiment);
      nlohmann::json j = per_step(m, m.traffic);
      j["benchmark"] = "mpi_traffic";
      j["ranks"] = 1;
      j["decomposed"] = d != nullptr;
      if (d) j["transport"] = mpi::to_string(d->transport());
      j["plane"] = {nx, ny};
      j["device"] = exec->name();
      std::printf("%s\n", j.dump().c_str());
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  mpi::Session session(argc, argv);
  const mpi::Communicator world, self(MPI_COMM_SELF);
  CLI::App app{"voltaic-mpi-bench: traffic and step time of a pouch cell cut over the MPI ranks"};
  Options a;
  app.add_option("--nx", a.nx, "columns along the electrode height");
  app.add_option("--ny", a.ny, "columns along the electrode width");
  app.add_option("--minutes", a.minutes, "of a 1C discharge");
  app.add_option("--backend", a.backend, "where each rank runs its block")->check(CLI::IsMember({"cpu", "cuda"}));
  app.add_flag("!--no-alone", a.alone, "skip the one-rank run beside it");
  app.add_option("--transport", a.transport,
                 "a GPU's exchanges, sums and gathers: auto (NCCL where built, else device memory where MPI is "
                 "CUDA-aware), host, device, nccl")
      ->check(CLI::IsMember({"auto", "host", "device", "nccl"}));
  app.add_flag("--split", a.split, "time the sub-steps (the device synchronised around each: for profiling)");
  app.add_flag("--latency", a.latency, "time MPI_Allreduce and ghost exchanges instead");
  app.add_flag("--plane-cycle", a.plane_cycle,
               "time the 2D V-cycle cut over the ranks against the gathered one instead");
  CLI11_PARSE(app, argc, argv);
  try {
    if (a.plane_cycle) {
      print_plane_cycle(world, a.nx, a.ny, executor_for(a.backend, world));
    } else {
      a.latency ? print_latencies(world, a) : print_traffic(world, self, a);
    }
  } catch (const std::exception& e) {  // every rank meets most errors; abort so that none waits for the others
    std::fprintf(stderr, "voltaic-mpi-bench (rank %d): %s\n", world.rank(), e.what());
    MPI_Abort(world.get(), 2);
  }
  return 0;
}
