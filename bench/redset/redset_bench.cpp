// redset_bench: what redundancy costs next to simply writing the checkpoint.
// Each repetition, on simulated nodes (contiguous blocks of ranks, each with
// its own cache directory): write every rank's checkpoint and fsync (the
// SINGLE baseline), apply the scheme, delete the files of as many members per
// set as the scheme tolerates, and rebuild them (verified by CRC); then time
// the floor's parts (floor.hpp), so that the encode is read against what this
// machine can do at best in the same run. One JSON line reports the medians.
// Run under mpirun; see --help.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "checkpoint.hpp"
#include "floor.hpp"
#include "io/files.hpp"
#include "mpi/comm.hpp"
#include "mpi/mpi_comm.hpp"
#include "options.hpp"
#include "timing.hpp"
#include "usage.hpp"
#include "redset/redset.hpp"

namespace {

using namespace scr;

using bench::barrier;
using bench::timed;
using bench::Timing;

struct Sample {
  Timing write, encode, rebuild;
  bench::FloorParts parts;
  bench::Floor floor;          // the scheme's floor on this machine, from `parts` and `write`
  bench::Floor rebuild_floor;  // the same for the rebuild after `lose` lost members per set
  double peak_rss_mib = 0;  // this process's, through the write, encode and rebuild
  bool peak_rss_reset = true;  // false: later peaks include the floor's buffers
  bool verified = true;
};

Status check(const mpi::Comm& world, const Status& local, const char* what) {
  Status st = mpi::agree(world, local);
  if (!st.ok()) st.context(what);
  return st;
}

int k_of(const redset::Set& set) {
  switch (set.scheme()) {
    case redset::Scheme::rs: return set.params().failures;
    case redset::Scheme::xor_code: return 1;
    case redset::Scheme::partner: return set.params().replicas;
    case redset::Scheme::single: return 0;
  }
  return 0;
}

Result<Sample> run_once(const mpi::Comm& world, const redset::Set& set, const std::string& dir,
                        bench::Checkpoint& ckpt, uint32_t crc, int lose) {
  io::Env& env = io::Env::posix();
  std::string file = "rank" + std::to_string(world.rank()) + ".ckpt";
  std::string path = dir + "/" + file;
  SCR_TRY(check(world, io::make_dirs(env, dir), "create the cache directory"));
  Sample s;
  Status st;
  s.write = timed(world, [&] { st = ckpt.write(env, path); });
  SCR_TRY(check(world, st, "write the checkpoint"));
  bench::usage::perf_phase(world.rank(), "encode", true);
  s.encode = timed(world, [&] { st = redset::apply(env, set, dir, {file}); });
  bench::usage::perf_phase(world.rank(), "encode", false);
  SCR_TRY(check(world, st, "apply"));

  bool lost = set.rank() < lose;
  if (lost) {
    SCR_TRY(io::remove_file(env, path));
    SCR_TRY(redset::unapply(env, set, dir));
  }
  Result<std::vector<std::string>> got = Status(Errc::unsupported, "not run");
  bench::usage::perf_phase(world.rank(), "rebuild", true);
  s.rebuild = timed(world, [&] { got = redset::recover(env, set, dir); });
  bench::usage::perf_phase(world.rank(), "rebuild", false);
  SCR_TRY(check(world, got.status(), "recover"));
  if (lost) {
    auto rebuilt = io::file_crc32c(env, path);
    s.verified = rebuilt.ok() && *rebuilt == crc;
  }
  s.verified = mpi::all_true(world, s.verified);
  // The floor's parts last, on the checkpoint as it now is in cache; their
  // buffers must not count in the engine's peak.
  s.peak_rss_mib = bench::peak_rss_mib();
  auto parts = bench::measure_floor(world, set, env, path, ckpt.bytes(), set.params().piece_size, k_of(set));
  SCR_TRY(check(world, parts.status(), "measure the floor"));
  s.parts = *parts;
  s.floor = bench::encode_floor(set, k_of(set), s.parts, s.write);
  s.rebuild_floor = bench::rebuild_floor(set, k_of(set), lose, s.parts, s.write);
  s.peak_rss_reset = bench::reset_peak_rss();

  SCR_TRY(io::remove_file(env, path));
  SCR_TRY(redset::unapply(env, set, dir));
  return s;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void report(const bench::Options& o, const mpi::Comm& world, int nodes, const redset::Set& set, int lose,
            const std::vector<Sample>& samples) {
  std::vector<double> write, encode, rebuild, enc_ratio, reb_ratio, write_cpu, encode_cpu,
      rebuild_cpu, floor, floor_ratio, over_floor, rebuild_floor, rebuild_over_floor, floor_path, rebuild_path, view, read, send, xor_, crc, code, check, receive_alone, write_alone;
  bool verified = true;
  for (const Sample& s : samples) {
    write.push_back(s.write.wall_s);
    encode.push_back(s.encode.wall_s);
    rebuild.push_back(s.rebuild.wall_s);
    write_cpu.push_back(s.write.cpu_s);
    encode_cpu.push_back(s.encode.cpu_s);
    rebuild_cpu.push_back(s.rebuild.cpu_s);
    // Ratios per repetition, so that load from elsewhere cancels out.
    enc_ratio.push_back(s.encode.wall_s / s.write.wall_s);
    reb_ratio.push_back(s.rebuild.wall_s / s.encode.wall_s);
    floor.push_back(s.floor.seconds);
    floor_ratio.push_back(s.floor.seconds / s.write.wall_s);
    over_floor.push_back(s.encode.wall_s / s.floor.seconds);
    rebuild_floor.push_back(s.rebuild_floor.seconds);
    rebuild_over_floor.push_back(s.rebuild.wall_s / s.rebuild_floor.seconds);
    floor_path.push_back(s.floor.path);
    rebuild_path.push_back(s.rebuild_floor.path);
    receive_alone.push_back(s.parts.receive_alone.wall_s);
    write_alone.push_back(s.parts.write_alone.wall_s);
    view.push_back(s.parts.view.wall_s);
    read.push_back(s.parts.read.wall_s);
    send.push_back(s.parts.send.wall_s);
    xor_.push_back(s.parts.xor_.wall_s);
    crc.push_back(s.parts.crc.wall_s);
    code.push_back(s.parts.code.wall_s);
    check.push_back(s.parts.check.wall_s);
    verified = verified && s.verified;
  }
  int set_size = static_cast<int>(mpi::max(world, int64_t{set.ranks()}));
  double rss = 0;
  bool reset = true;
  for (const Sample& s : samples) {
    rss = std::max(rss, s.peak_rss_mib);
    reset = reset && s.peak_rss_reset;
  }
  rss = mpi::max(world, rss);
  reset = mpi::all_true(world, reset);
  if (!reset && world.rank() == 0 && samples.size() > 1)
    std::fprintf(stderr, "redset_bench: cannot reset the peak RSS (/proc/self/clear_refs): "
                         "the peak reported includes the floor's buffers\n");
  if (world.rank() != 0) return;
  double protected_bps = static_cast<double>(o.bytes_per_rank) * world.size() / median(encode);
  std::printf(
      "{\"scheme\":\"%s\",\"ranks\":%d,\"nodes\":%d,\"set_size\":%d,\"k\":%d,\"lost\":%d,"
      "\"bytes_per_rank\":%llu,\"piece_size\":%zu,\"repeat\":%d,\"write_s\":%.4f,"
      "\"encode_s\":%.4f,\"rebuild_s\":%.4f,\"protected_bytes_per_s\":%.4g,"
      "\"encode_over_write\":%.3f,\"rebuild_over_encode\":%.3f,\"peak_rss_mib\":%.1f,"
      "\"write_cpu_s\":%.3f,\"encode_cpu_s\":%.3f,\"rebuild_cpu_s\":%.3f,"
      "\"floor_s\":%.6f,\"floor_over_write\":%.3f,\"encode_over_floor\":%.3f,"
      "\"rebuild_floor_s\":%.6f,\"rebuild_over_floor\":%.3f,"
      "\"floor_path_s\":%.6f,\"rebuild_floor_path_s\":%.6f,"
      "\"floor_parts_s\":{\"view\":%.6f,\"read\":%.6f,\"send\":%.6f,\"xor\":%.6f,\"crc\":%.6f,"
      "\"code\":%.6f,\"check\":%.6f,\"receive_alone\":%.6f,\"write_alone\":%.6f},\"verified\":%s}\n",
      redset::scheme_name(set.scheme()), world.size(), nodes, set_size, k_of(set), lose,
      static_cast<unsigned long long>(o.bytes_per_rank), o.piece_size, o.repeat, median(write),
      median(encode), median(rebuild), protected_bps, median(enc_ratio), median(reb_ratio), rss,
      median(write_cpu), median(encode_cpu), median(rebuild_cpu), median(floor), median(floor_ratio),
      median(over_floor), median(rebuild_floor), median(rebuild_over_floor), median(floor_path),
      median(rebuild_path), median(view), median(read), median(send), median(xor_), median(crc),
      median(code), median(check), median(receive_alone), median(write_alone), verified ? "true" : "false");
  std::fflush(stdout);
}

int run(const bench::Options& o, const mpi::Comm& world) {
  int nodes = o.nodes > 0 ? o.nodes : world.size();
  if (world.size() % nodes != 0) {
    if (world.rank() == 0)
      std::fprintf(stderr, "redset_bench: %d ranks do not split evenly into %d nodes\n",
                   world.size(), nodes);
    return 2;
  }
  int node = world.rank() / (world.size() / nodes);
  std::string node_name = "node" + std::to_string(node);
  redset::Params params{o.scheme, o.set_size, o.k, o.replicas, o.piece_size};
  auto set = redset::Set::create(world, node_name, params);
  if (!set.ok()) {
    if (world.rank() == 0)
      std::fprintf(stderr, "redset_bench: %s\n", set.status().to_string().c_str());
    return 1;
  }
  int lose = o.lose > 0 ? o.lose : set->tolerance();
  if (lose > set->tolerance()) {
    if (world.rank() == 0)
      std::fprintf(stderr, "redset_bench: --lose %d: the scheme tolerates at most %d lost member(s) per set\n", lose,
                   set->tolerance());
    return 2;
  }
  bench::Checkpoint ckpt(world.rank(), o.bytes_per_rank);
  uint32_t crc = ckpt.crc();
  std::vector<Sample> samples;
  // The first rank of each node clears the node's directory when all are done.
  bool node_leader = world.rank() % (world.size() / nodes) == 0;
  std::string node_dir = o.dir + "/" + node_name;
  for (int rep = 0; rep < o.repeat; ++rep) {
    std::string dir = node_dir + "/dataset" + std::to_string(rep);
    auto s = run_once(world, *set, dir, ckpt, crc, lose);
    barrier(world);
    if (node_leader) (void)io::remove_tree(io::Env::posix(), dir);
    if (!s.ok()) {
      if (world.rank() == 0)
        std::fprintf(stderr, "redset_bench: %s\n", s.status().to_string().c_str());
      return 1;
    }
    samples.push_back(*s);
  }
  barrier(world);
  if (node_leader) (void)io::remove_tree(io::Env::posix(), node_dir);
  report(o, world, nodes, *set, lose, samples);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int code = 0;
  {
    mpi::Comm world = mpi::borrow(MPI_COMM_WORLD);
    auto options = bench::parse_options(argc, argv);
    if (!options.ok() || options->help) {
      if (world.rank() == 0)
        std::fprintf(options.ok() ? stdout : stderr, "%s%s",
                     options.ok() ? "" : (options.status().to_string() + "\n").c_str(),
                     bench::kUsage);
      code = options.ok() ? 0 : 2;
    } else {
      code = run(*options, world);
    }
  }
  MPI_Finalize();
  return code;
}
