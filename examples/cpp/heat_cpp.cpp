// heat_cpp: a 1-D heat rod split across MPI ranks, checkpointed through the
// C++ API (include/scr/scr.hpp): scr::Library for SCR_Init/SCR_Finalize, RAII
// phases (scr::Checkpoint, scr::Output, scr::Restart) and scr::Exception for
// errors.
//
//   heat_cpp [-n steps] [-c every] [-o every] [--cells n] [--crash-at step]
//            [--crash-rank r] [--invalid-restart-rank r] [--quiet]
//
// -c every   checkpoint every N steps (0: ask SCR with need_checkpoint())
// -o every   write an output dataset every N steps (rod_output/rod.<step>.rank_<r>.txt)
// --crash-at step: after that step (and its checkpoint), rank --crash-rank
//            (default 0) kills itself with SIGKILL.
// --invalid-restart-rank r: on restart, rank r reports the first checkpoint
//            offered as unusable; SCR then offers the next older one.
//
// Every checkpoint writes the same file name, rod/rank_<r>.dat, holding the
// step it was taken at, as many SCR applications do: SCR keeps each cached
// checkpoint apart, and restart reads whichever checkpoint SCR offers.
// Rank 0 ends with "RESULT steps=<n> checksum=<hex>", identical for an
// interrupted-and-restarted run and an uninterrupted one.
#include <mpi.h>

#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "scr/scr.hpp"

namespace {

struct Options {
  int steps = 60, every = 10, out_every = 0, cells = 1024;
  int crash_at = -1, crash_rank = 0, bad_restart_rank = -1;
  bool quiet = false;
};

int g_rank = 0, g_ranks = 1;

template <class... Args>
void say(const Options& o, const char* fmt, Args... args) {
  if (g_rank != 0 || o.quiet) return;
  std::printf("[heat_cpp] ");
  std::printf(fmt, args...);
  std::printf("\n");
  std::fflush(stdout);
}

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "[heat_cpp] rank %d: %s\n", g_rank, what.c_str());
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 2);
  std::abort();
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    bool more = i + 1 < argc;
    if (a == "-n" && more) o.steps = std::atoi(argv[++i]);
    else if (a == "-c" && more) o.every = std::atoi(argv[++i]);
    else if (a == "-o" && more) o.out_every = std::atoi(argv[++i]);
    else if (a == "--cells" && more) o.cells = std::atoi(argv[++i]);
    else if (a == "--crash-at" && more) o.crash_at = std::atoi(argv[++i]);
    else if (a == "--crash-rank" && more) o.crash_rank = std::atoi(argv[++i]);
    else if (a == "--invalid-restart-rank" && more) o.bad_restart_rank = std::atoi(argv[++i]);
    else if (a == "--quiet") o.quiet = true;
    else die("unknown argument '" + a + "'");
  }
  if (o.cells <= 0 || o.cells % g_ranks != 0) die("--cells must be a positive multiple of the rank count");
  return o;
}

// This rank's part of the rod, with one halo cell at each end.
struct Rod {
  int first = 0;             // global index of cell 1
  std::vector<double> cur;   // local + 2
  std::vector<double> next;
};

Rod make_rod(const Options& o) {
  int local = o.cells / g_ranks;
  Rod rod;
  rod.first = g_rank * local;
  rod.cur.assign(local + 2, 0.0);
  for (int i = 1; i <= local; ++i) {
    int g = rod.first + i - 1;
    // Hot middle third, cold elsewhere.
    rod.cur[i] = (g >= o.cells / 3 && g < 2 * o.cells / 3) ? 100.0 : 0.0;
  }
  rod.next = rod.cur;
  return rod;
}

void step(Rod& rod, const Options& o) {
  int local = static_cast<int>(rod.cur.size()) - 2;
  int left = g_rank > 0 ? g_rank - 1 : MPI_PROC_NULL;
  int right = g_rank < g_ranks - 1 ? g_rank + 1 : MPI_PROC_NULL;
  MPI_Sendrecv(&rod.cur[1], 1, MPI_DOUBLE, left, 0, &rod.cur[local + 1], 1, MPI_DOUBLE, right, 0,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Sendrecv(&rod.cur[local], 1, MPI_DOUBLE, right, 1, &rod.cur[0], 1, MPI_DOUBLE, left, 1,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  for (int i = 1; i <= local; ++i) {
    int g = rod.first + i - 1;
    if (g == 0 || g == o.cells - 1) rod.next[i] = rod.cur[i];  // fixed ends
    else rod.next[i] = rod.cur[i] + 0.25 * (rod.cur[i - 1] - 2 * rod.cur[i] + rod.cur[i + 1]);
  }
  std::swap(rod.cur, rod.next);
}

// FNV-1a of every rank's cells, combined in rank order at rank 0.
uint64_t checksum(const Rod& rod) {
  uint64_t h = 1469598103934665603ull;
  auto* p = reinterpret_cast<const unsigned char*>(rod.cur.data() + 1);
  for (size_t i = 0; i < (rod.cur.size() - 2) * sizeof(double); ++i) h = (h ^ p[i]) * 1099511628211ull;
  std::vector<uint64_t> all(g_rank == 0 ? g_ranks : 0);
  MPI_Gather(&h, 1, MPI_UINT64_T, all.data(), 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  uint64_t total = 1469598103934665603ull;
  for (uint64_t x : all) total = (total ^ x) * 1099511628211ull;
  return total;
}

std::string ckpt_file() { return "rod/rank_" + std::to_string(g_rank) + ".dat"; }

struct Header {
  int32_t step, cells, ranks, first;
};

bool write_state(const std::filesystem::path& path, const Rod& rod, int at, const Options& o) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  Header h{at, o.cells, g_ranks, rod.first};
  f.write(reinterpret_cast<const char*>(&h), sizeof h);
  f.write(reinterpret_cast<const char*>(rod.cur.data() + 1),
          static_cast<std::streamsize>((rod.cur.size() - 2) * sizeof(double)));
  f.close();
  return static_cast<bool>(f);
}

// Reads into `into` (not the live rod, so a rejected checkpoint leaves no trace).
bool read_state(const std::filesystem::path& path, Rod& into, int* at, const Options& o) {
  std::ifstream f(path, std::ios::binary);
  Header h{};
  if (!f.read(reinterpret_cast<char*>(&h), sizeof h)) return false;
  if (h.cells != o.cells || h.ranks != g_ranks || h.first != into.first) return false;
  if (!f.read(reinterpret_cast<char*>(into.cur.data() + 1),
              static_cast<std::streamsize>((into.cur.size() - 2) * sizeof(double))))
    return false;
  *at = h.step;
  return true;
}

// Load the newest usable checkpoint; returns the step to continue from.
int restart(scr::Library& scr, Rod& rod, const Options& o) {
  bool offered = false;
  while (auto name = scr.restart_name()) {
    Rod loaded = rod;
    int at = 0;
    try {
      scr::Restart r(scr);
      // A file this process cannot route or read makes the checkpoint
      // invalid here; caught inside the phase, so that every process still
      // meets in commit() (an exception leaving the phase would stop SCR++
      // on this process instead).
      bool ok = false;
      try {
        ok = read_state(r.route(ckpt_file()), loaded, &at, o);
      } catch (const scr::Exception& e) {
        std::fprintf(stderr, "[heat_cpp] rank %d: %s\n", g_rank, e.what());
      }
      if (g_rank == o.bad_restart_rank && !offered) ok = false;
      offered = true;
      r.commit(ok);  // throws unless every rank could use it
    } catch (const scr::Exception& e) {
      say(o, "checkpoint '%s' could not be used (%s); asking SCR for an older one", name->c_str(), e.what());
      continue;
    }
    rod = loaded;
    say(o, "resumed from checkpoint '%s' (step %d): the steps before it are not recomputed", name->c_str(), at);
    return at;
  }
  return 0;
}

void checkpoint(scr::Library& scr, const Rod& rod, int at, const Options& o) {
  scr::Checkpoint c(scr);  // a generated name
  c.commit(write_state(c.route(ckpt_file()), rod, at, o));
  say(o, "step %d: checkpoint saved", at);
}

void output(scr::Library& scr, const Rod& rod, int at, const Options& o) {
  std::string name = "rod." + std::to_string(at);
  scr::Output out(scr, name, scr::Flags::output);
  double heat = 0;
  for (size_t i = 1; i + 1 < rod.cur.size(); ++i) heat += rod.cur[i];
  std::filesystem::path path =
      out.route("rod_output/rod." + std::to_string(at) + ".rank_" + std::to_string(g_rank) + ".txt");
  std::ofstream f(path, std::ios::trunc);
  f << "step " << at << " rank " << g_rank << " heat " << std::to_string(heat) << "\n";
  f.close();
  out.commit(static_cast<bool>(f));
  say(o, "step %d: output dataset '%s' written to the prefix", at, name.c_str());
}

int run(const Options& o) {
  Rod rod = make_rod(o);
  scr::Library scr;
  say(o, "SCR++ %s", scr::Library::version().c_str());
  int start = restart(scr, rod, o);
  if (start == 0) say(o, "no checkpoint found: starting from step 0");
  for (int s = start + 1; s <= o.steps; ++s) {
    step(rod, o);
    bool need = o.every > 0 ? s % o.every == 0 : scr.need_checkpoint();
    if (need) checkpoint(scr, rod, s, o);
    if (o.out_every > 0 && s % o.out_every == 0) output(scr, rod, s, o);
    // The barrier lets rank 0 finish reporting this step before a SIGKILL
    // elsewhere makes mpiexec kill it.
    if (s == o.crash_at) MPI_Barrier(MPI_COMM_WORLD);
    if (s == o.crash_at && g_rank == o.crash_rank) {
      std::fprintf(stderr, "[heat_cpp] rank %d: simulating a failure at step %d (SIGKILL)\n", g_rank, s);
      std::fflush(stderr);
      std::raise(SIGKILL);
    }
    if (scr.should_exit()) {
      say(o, "step %d: SCR asks the job to stop; exiting cleanly", s);
      break;
    }
  }
  uint64_t sum = checksum(rod);
  scr.finalize();
  if (g_rank == 0) {
    std::printf("RESULT steps=%d checksum=%016llx\n", o.steps, static_cast<unsigned long long>(sum));
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_ranks);
  Options o = parse(argc, argv);
  int rc = 0;
  try {
    rc = run(o);
  } catch (const scr::Exception& e) {
    die(std::string("SCR error: ") + e.what());
  }
  MPI_Finalize();
  return rc;
}
