// cpp_regions: memory regions through the C++ registry (scr/regions.hpp).
// Every rank protects its step (one int64) and a grid of 100 + 7*rank
// doubles; tests/regions/lang_regions.sh runs the modes:
//   write     checkpoints steps 1 and 2 (a second write of step 2's phase
//             refused), prints "WROTE step.2", aborts
//   mismatch  a grid one element longer: restore() throws, nothing touched
//   restore   restore() gives step.2, every byte checked
//   rescale   at another size: every writer's grid and step through
//             stored() and restore_from(), spread over the ranks
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "scr/regions.hpp"

namespace {

int rank = 0, ranks = 1;

std::size_t grid_len(int writer) { return 100 + 7 * static_cast<std::size_t>(writer); }
double value(int writer, std::int64_t step, std::size_t i) { return writer * 1000.0 + step + i * 0.25; }

bool matches(const std::vector<double>& grid, std::int64_t step, int writer, std::int64_t want) {
  if (step != want || grid.size() != grid_len(writer)) return false;
  for (std::size_t i = 0; i < grid.size(); ++i)
    if (grid[i] != value(writer, want, i)) return false;
  return true;
}

// Rank 0 prints `line` when every rank's `ok` holds.
bool all_say(bool ok, const char* line) {
  int mine = ok ? 1 : 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (all && rank == 0) std::printf("%s\n", line);
  std::fflush(stdout);
  return all != 0;
}

bool run(const std::string& mode, scr::Library& lib) {
  std::int64_t step = 0;
  std::vector<double> grid(grid_len(rank) + (mode == "mismatch" ? 1 : 0), -1.0);
  scr::Regions regions;
  regions.protect(0, std::span(&step, 1));
  regions.protect(1, std::span(grid));
  if (mode == "write") {
    auto fill = [&](std::int64_t s) {
      step = s;
      for (std::size_t i = 0; i < grid.size(); ++i) grid[i] = value(rank, s, i);
    };
    fill(1);
    regions.checkpoint("step.1");
    // Step 2 in a phase of its own, written twice: the second write is
    // refused (bad_state) and the first copy, which restore checks, stays.
    fill(2);
    bool refused = false;
    {
      scr::Output out(lib, "step.2", scr::Flags::checkpoint);
      regions.write(out);
      fill(3);
      try {
        regions.write(out);
      } catch (const scr::Exception& e) {
        refused = e.kind() == scr::ErrorKind::bad_state;
      }
      fill(2);
      out.commit();
    }
    all_say(refused, "WROTE step.2");
    MPI_Barrier(MPI_COMM_WORLD);  // rank 0 has printed before any rank aborts
    MPI_Abort(MPI_COMM_WORLD, 9);  // a crash: no SCR_Finalize
  }
  if (mode == "mismatch") {
    step = -5;
    std::vector<double> before = grid;
    bool threw = false;
    try {
      regions.restore();
    } catch (const scr::Exception& e) {
      threw = e.kind() == scr::ErrorKind::invalid_argument;
    }
    return all_say(threw && step == -5 && std::memcmp(before.data(), grid.data(), grid.size() * sizeof(double)) == 0,
                   "REFUSED UNTOUCHED");
  }
  if (mode == "restore") {
    auto name = regions.restore();
    return all_say(name && *name == "step.2" && matches(grid, step, rank, 2), "RESTORED step.2");
  }
  if (mode == "rescale") {
    scr::Restart restart(lib);
    int writers = restart.ranks();
    bool ok = writers > ranks;
    for (int w = rank; w < writers; w += ranks) {
      scr::StoredRegion stored = regions.stored(restart, w, 1);
      std::vector<double> theirs(stored.count);
      std::int64_t their_step = 0;
      regions.restore_from(restart, w, 1, std::span(theirs));
      regions.restore_from(restart, w, 0, std::span(&their_step, 1));
      ok = ok && stored.elem_size == sizeof(double) && matches(theirs, their_step, w, 2);
    }
    restart.commit(true);
    return all_say(ok, ("RESCALED " + std::to_string(writers) + " onto " + std::to_string(ranks)).c_str());
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  bool ok = false;
  try {
    scr::Library lib;
    ok = run(argc > 1 ? argv[1] : "", lib);
    lib.finalize();
  } catch (const scr::Exception& e) {
    std::fprintf(stderr, "rank %d: %s\n", rank, e.what());
  }
  MPI_Finalize();
  return ok ? 0 : 1;
}
