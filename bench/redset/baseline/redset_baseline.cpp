// redset_baseline: ECP-VeloC redset (the engine SCR 3.1 uses) driven the way
// redset_bench drives SCR++'s, so the two can be compared side by side
// (scripts/bench.sh, ONLY=redset-vs). Each repetition, on simulated nodes
// (contiguous blocks of ranks, each with its own cache directory): write every
// rank's checkpoint with the same content as redset_bench's and fsync it, time
// redset_apply, delete every file (checkpoint and redundancy) of the ranks on
// the first `lose` nodes, one member of every set per node since a set never
// holds two ranks of one node, and time redset_recover; then check the
// rebuilt bytes (untimed). One JSON line reports the medians, in
// redset_bench's field names. Built only against a redset install
// (bench/redset/baseline/CMakeLists.txt); redset is not part of SCR++.
#include <fcntl.h>
#include <mpi.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "redset.h"  // declares itself extern "C"
#include "usage.hpp"

namespace {

struct Options {
  std::string scheme = "xor";
  int nodes = 0;
  int set_size = 8;
  int k = 2;
  int replicas = 1;
  int lose = 0;
  uint64_t bytes_per_rank = 64ull << 20;
  std::string dir = "/dev/shm/redset_baseline";
  int repeat = 5;
};

const char* const kUsage =
    "usage: mpirun -n P redset_baseline [options]\n"
    "redset 0.4.0's encode (redset_apply) and rebuild (redset_recover) on the same\n"
    "data, ranks and simulated nodes as redset_bench; one JSON line of medians.\n"
    "  --scheme S          partner, xor or rs (default xor)\n"
    "  --nodes N           simulated nodes (default: one per rank)\n"
    "  --set-size N        set size (default 8)\n"
    "  --k N               RS check chunks (default 2)\n"
    "  --replicas N        PARTNER copies (default 1)\n"
    "  --lose N            nodes whose files are deleted before the rebuild\n"
    "                      (default: as many as the scheme tolerates)\n"
    "  --bytes-per-rank B  e.g. 64MiB (default 64MiB)\n"
    "  --dir D             cache base directory (default /dev/shm/redset_baseline)\n"
    "  --repeat N          repetitions (default 5)\n";

bool parse_bytes(const char* s, uint64_t& out) {
  char* end = nullptr;
  errno = 0;
  unsigned long long v = std::strtoull(s, &end, 10);
  if (errno || end == s) return false;
  std::string unit(end);
  if (unit == "" || unit == "B") out = v;
  else if (unit == "KiB") out = v << 10;
  else if (unit == "MiB") out = v << 20;
  else if (unit == "GiB") out = v << 30;
  else return false;
  return out > 0;
}

bool parse(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--help" || i + 1 >= argc) return false;
    const char* v = argv[++i];
    int n = std::atoi(v);
    if (a == "--scheme") o.scheme = v;
    else if (a == "--nodes") o.nodes = n;
    else if (a == "--set-size") o.set_size = n;
    else if (a == "--k") o.k = n;
    else if (a == "--replicas") o.replicas = n;
    else if (a == "--lose") o.lose = n;
    else if (a == "--repeat") o.repeat = n;
    else if (a == "--dir") o.dir = v;
    else if (a == "--bytes-per-rank") { if (!parse_bytes(v, o.bytes_per_rank)) return false; }
    else return false;
    if (a != "--scheme" && a != "--dir" && a != "--bytes-per-rank" && n < 1) return false;
  }
  return o.scheme == "xor" || o.scheme == "partner" || o.scheme == "rs";
}

// redset_bench's checkpoint (bench/redset/checkpoint.cpp): one 4 MiB random
// block seeded by the rank, each piece stamped with its offset.
class Checkpoint {
 public:
  static constexpr size_t kBlock = size_t{4} << 20;
  Checkpoint(int rank, uint64_t bytes) : bytes_(bytes), block_(kBlock) {
    std::mt19937_64 rng(static_cast<uint64_t>(rank) * 0x9e3779b97f4a7c15ull + 1);
    for (size_t i = 0; i < kBlock; i += 8) {
      uint64_t v = rng();
      std::memcpy(&block_[i], &v, 8);
    }
  }
  const uint8_t* piece(uint64_t offset) {
    std::memcpy(block_.data(), &offset, sizeof offset);
    return block_.data();
  }
  bool write(const std::string& path) {
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) return false;
    bool ok = true;
    for (uint64_t off = 0; ok && off < bytes_; off += kBlock) {
      size_t n = static_cast<size_t>(std::min<uint64_t>(kBlock, bytes_ - off));
      ok = ::pwrite(fd, piece(off), n, static_cast<off_t>(off)) == static_cast<ssize_t>(n);
    }
    ok = ok && ::fsync(fd) == 0;
    return ::close(fd) == 0 && ok;
  }
  // The file at path holds exactly this checkpoint.
  bool matches(const std::string& path) {
    int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0) return false;
    std::vector<uint8_t> buf(kBlock);
    bool ok = true;
    for (uint64_t off = 0; ok && off < bytes_; off += kBlock) {
      size_t n = static_cast<size_t>(std::min<uint64_t>(kBlock, bytes_ - off));
      ok = ::pread(fd, buf.data(), n, static_cast<off_t>(off)) == static_cast<ssize_t>(n) &&
           std::memcmp(buf.data(), piece(off), n) == 0;
    }
    uint8_t extra;
    ok = ok && ::pread(fd, &extra, 1, static_cast<off_t>(bytes_)) == 0;
    ::close(fd);
    return ok;
  }

 private:
  uint64_t bytes_;
  std::vector<uint8_t> block_;
};

// A barrier whose waiters sleep, as redset_bench's: ranks done early must not
// take the CPU from those still working.
void barrier() {
  MPI_Request req;
  MPI_Ibarrier(MPI_COMM_WORLD, &req);
  for (int done = 0;;) {
    MPI_Test(&req, &done, MPI_STATUS_IGNORE);
    if (done) return;
    usleep(50);
  }
}

struct Timing {
  double wall_s = 0, cpu_s = 0;
};

template <class F>
Timing timed(F&& step) {
  barrier();
  double t0 = MPI_Wtime(), c0 = scr::bench::usage::cpu_seconds();
  step();
  double cpu = scr::bench::usage::cpu_seconds() - c0;
  barrier();
  Timing t;
  t.wall_s = MPI_Wtime() - t0;
  MPI_Allreduce(&cpu, &t.cpu_s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return t;
}

bool all_true(bool b) {
  int in = b ? 1 : 0, out = 0;
  MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  return out != 0;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int fail(int rank, const char* what) {
  if (rank == 0) std::fprintf(stderr, "redset_baseline: %s failed\n", what);
  return 1;
}

int run(const Options& o, int rank, int size) {
  int nodes = o.nodes > 0 ? o.nodes : size;
  if (size % nodes != 0) return fail(rank, "splitting the ranks evenly into nodes");
  int node = rank / (size / nodes);
  std::string node_name = "node" + std::to_string(node);
  int tolerance = o.scheme == "rs" ? o.k : o.scheme == "partner" ? o.replicas : 1;
  int lose = o.lose > 0 ? o.lose : tolerance;
  if (lose > tolerance || lose >= nodes) return fail(rank, "--lose: more nodes than the scheme tolerates");

  redset d;
  int rc = o.scheme == "xor"       ? redset_create_xor(MPI_COMM_WORLD, node_name.c_str(), o.set_size, &d)
           : o.scheme == "partner" ? redset_create_partner(MPI_COMM_WORLD, node_name.c_str(), o.set_size,
                                                           o.replicas, &d)
                                   : redset_create_rs(MPI_COMM_WORLD, node_name.c_str(), o.set_size, o.k, &d);
  if (!all_true(rc == REDSET_SUCCESS)) return fail(rank, "redset_create");

  Checkpoint ckpt(rank, o.bytes_per_rank);
  std::string node_dir = o.dir + "/" + node_name;
  bool node_leader = rank % (size / nodes) == 0;
  std::vector<double> write, encode, rebuild, enc_ratio, reb_ratio, write_cpu, encode_cpu, rebuild_cpu;
  double rss = 0;
  bool verified = true;
  for (int rep = 0; rep < o.repeat; ++rep) {
    std::string dir = node_dir + "/dataset" + std::to_string(rep);
    if (node_leader) {
      ::mkdir(o.dir.c_str(), 0700);
      ::mkdir(node_dir.c_str(), 0700);
      ::mkdir(dir.c_str(), 0700);
    }
    barrier();
    std::string path = dir + "/rank" + std::to_string(rank) + ".ckpt";
    std::string name = dir + "/redset";  // prefix of redset's own files
    const char* files[] = {path.c_str()};
    bool ok = true;
    Timing w = timed([&] { ok = ckpt.write(path); });
    if (!all_true(ok)) return fail(rank, "writing the checkpoint");
    scr::bench::usage::perf_phase(rank, "encode", true);
    Timing e = timed([&] { rc = redset_apply(1, files, name.c_str(), d); });
    scr::bench::usage::perf_phase(rank, "encode", false);
    if (!all_true(rc == REDSET_SUCCESS)) return fail(rank, "redset_apply");

    bool lost = node < lose;
    if (lost) {
      redset_filelist enc = redset_filelist_enc_get(name.c_str(), d);
      for (int i = 0; i < redset_filelist_count(enc); ++i) ::unlink(redset_filelist_file(enc, i));
      redset_filelist_release(&enc);
      ::unlink(path.c_str());
    }
    redset r = nullptr;
    scr::bench::usage::perf_phase(rank, "rebuild", true);
    Timing b = timed([&] { rc = redset_recover(MPI_COMM_WORLD, name.c_str(), &r); });
    scr::bench::usage::perf_phase(rank, "rebuild", false);
    if (!all_true(rc == REDSET_SUCCESS)) return fail(rank, "redset_recover");
    if (lost) verified = verified && ckpt.matches(path);
    rss = std::max(rss, scr::bench::usage::peak_rss_mib());
    rc = redset_unapply(name.c_str(), r);
    redset_delete(&r);
    ::unlink(path.c_str());
    barrier();
    if (node_leader) {
      std::string cmd = "rm -rf '" + dir + "'";
      if (std::system(cmd.c_str()) != 0) return fail(rank, "removing the dataset directory");
    }
    write.push_back(w.wall_s);
    encode.push_back(e.wall_s);
    rebuild.push_back(b.wall_s);
    write_cpu.push_back(w.cpu_s);
    encode_cpu.push_back(e.cpu_s);
    rebuild_cpu.push_back(b.cpu_s);
    enc_ratio.push_back(e.wall_s / w.wall_s);
    reb_ratio.push_back(b.wall_s / e.wall_s);
  }
  barrier();
  if (node_leader) ::rmdir(node_dir.c_str());
  redset_delete(&d);
  verified = all_true(verified);
  double peak = 0;
  MPI_Allreduce(&rss, &peak, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0) {
    std::printf(
        "{\"engine\":\"redset %s\",\"scheme\":\"%s\",\"ranks\":%d,\"nodes\":%d,\"set_size\":%d,\"k\":%d,"
        "\"lost\":%d,\"bytes_per_rank\":%llu,\"repeat\":%d,\"write_s\":%.4f,\"encode_s\":%.4f,"
        "\"rebuild_s\":%.4f,\"encode_over_write\":%.3f,\"rebuild_over_encode\":%.3f,"
        "\"peak_rss_mib\":%.1f,\"write_cpu_s\":%.3f,\"encode_cpu_s\":%.3f,\"rebuild_cpu_s\":%.3f,"
        "\"verified\":%s}\n",
        REDSET_VERSION, o.scheme.c_str(), size, nodes, std::min(o.set_size, nodes), tolerance, lose,
        static_cast<unsigned long long>(o.bytes_per_rank), o.repeat, median(write), median(encode),
        median(rebuild), median(enc_ratio), median(reb_ratio), peak, median(write_cpu),
        median(encode_cpu), median(rebuild_cpu), verified ? "true" : "false");
    std::fflush(stdout);
  }
  return verified ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Options o;
  int code;
  if (!parse(argc, argv, o)) {
    if (rank == 0) std::fputs(kUsage, stderr);
    code = 2;
  } else {
    redset_init();
    code = run(o, rank, size);
    redset_finalize();
  }
  MPI_Finalize();
  return code;
}
