// The C++ API's promises about errors and lifetimes (include/scr/scr.hpp):
//  - every scr::Exception says what kind of failure it is;
//  - a phase object left open completes its phase as invalid (the dataset is
//    discarded, SCR stays usable);
//  - a phase object outliving finalize() is destroyed quietly: no throw, no
//    collective (a hang or std::terminate would fail the job).
// Prints "cpp_api_lifetimes: ALL" on rank 0 when every check held.
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "scr/scr.hpp"

namespace {

int rank = 0;
int failures = 0;

void check(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "cpp_api_lifetimes rank %d: FAILED %s\n", rank, what);
  ++failures;
}

template <class Call>
scr::ErrorKind kind_thrown(Call call) {
  try {
    call();
  } catch (const scr::Exception& e) {
    return e.kind();
  }
  return scr::ErrorKind::other;
}

void write_checkpoint(scr::Library& lib, bool valid) {
  scr::Checkpoint c(lib);
  std::ofstream(c.route("ckpt/rank_" + std::to_string(rank) + ".dat")) << "rank " << rank << "\n";
  c.commit(valid);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);

  check(kind_thrown([] { scr::Library::config("SCR_FLUSH=abc"); }) == scr::ErrorKind::invalid_argument,
        "a malformed value is invalid_argument");
  {
    scr::Library lib;
    check(kind_thrown([&] { scr::Restart r(lib); }) == scr::ErrorKind::bad_state,
          "a restart with none offered is bad_state");
    {
      scr::Checkpoint c(lib);
      check(kind_thrown([&] { c.route("/elsewhere/x.dat"); }) == scr::ErrorKind::invalid_argument,
            "a file outside the prefix is invalid_argument");
      // Left open: its destructor completes it as invalid.
    }
    write_checkpoint(lib, true);  // SCR is still usable
    check(kind_thrown([&] { write_checkpoint(lib, false); }) == scr::ErrorKind::invalid_argument,
          "an invalid checkpoint is invalid_argument");
    scr::Checkpoint late(lib);
    late.route("late/rank_" + std::to_string(rank) + ".dat");
    // finalize() with `late` still open discards that dataset, and says so.
    check(kind_thrown([&] { lib.finalize(); }) == scr::ErrorKind::invalid_argument,
          "finalize inside a phase reports the discarded dataset");
    // `late` and then `lib` are destroyed after finalize: quietly.
  }
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && all == 0) std::printf("cpp_api_lifetimes: ALL\n");
  MPI_Finalize();
  return all == 0 ? 0 : 1;
}
