// An exception on one process inside a phase of the C++ API must not hang
// the job (include/scr/scr.hpp). Rank 2 throws while the others are in a
// collective of the application's own (an MPI_Allreduce inside the phase, as
// a collective write would be): the phase object destroyed by the exception
// must not enter a collective of SCR++, so rank 2 reaches its handler, which
// ends the job with MPI_Abort(.., kAbortCode).
//
//   cpp_api_unwind write            all ranks: checkpoint ckpt.1 (exit 0)
//   cpp_api_unwind throw-output     rank 2 throws inside Checkpoint ckpt.2
//   cpp_api_unwind throw-restart    rank 2 throws inside the Restart of ckpt.1
//   cpp_api_unwind throw-between    rank 2 throws outside any phase, while
//                                   the others ask need_checkpoint()
//   cpp_api_unwind check            restart from ckpt.1, every rank's file
//                                   as written (exit 0, else kWrongRestart)
//
// In the throw-* modes rank 2's handler writes unwind.<mode>.rank2 in the
// working directory: "bad_state" when a further SCR++ call failed at once
// with ErrorKind::bad_state (no collective), else what happened.
#include <mpi.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <exception>
#include <stdexcept>
#include <string>

#include "scr/scr.hpp"

namespace {

constexpr int kAbortCode = 42;     // rank 2's handler: MPI_Abort
constexpr int kWrongRestart = 3;   // check: not ckpt.1, or a file differs
constexpr int kThrower = 2;

int rank = 0;

// The application's failure (not a std::runtime_error, which scr::Exception is).
struct AppFailure : std::exception {
  const char* what() const noexcept override { return "application failure on rank 2"; }
};

std::string content() { return "ckpt.1 rank " + std::to_string(rank) + "\n"; }
std::string file_name(const std::string& dataset) { return dataset + "/rank_" + std::to_string(rank) + ".dat"; }

// The application's own collective inside a phase: rank 2 never gets here.
void application_collective() {
  int one = 1, all = 0;
  MPI_Allreduce(&one, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
}

void fail_on_thrower() {
  if (rank == kThrower) throw AppFailure();
}

void throw_output(scr::Library& lib) {
  scr::Output out(lib, "ckpt.2", scr::Flags::checkpoint);
  std::ofstream(out.route(file_name("ckpt.2"))) << "ckpt.2 rank " << rank << "\n";
  fail_on_thrower();
  application_collective();
  out.commit(true);
}

void throw_restart(scr::Library& lib) {
  if (!lib.restart_name()) throw std::logic_error("no checkpoint offered");
  scr::Restart r(lib);
  (void)r.route(file_name("ckpt.1"));
  fail_on_thrower();
  application_collective();
  r.commit(true);
}

void throw_between(scr::Library& lib) {
  fail_on_thrower();
  (void)lib.need_checkpoint();
  application_collective();
}

// Rank 2, in its handler, while its Library still exists: what a further
// call of SCR++ does.
std::string further_call(scr::Library& lib) {
  try {
    (void)lib.need_checkpoint();
    return "no exception";
  } catch (const scr::Exception& e) {
    return e.kind() == scr::ErrorKind::bad_state ? "bad_state" : std::string("another kind: ") + e.what();
  }
}

int check(scr::Library& lib) {
  auto name = lib.restart_name();
  if (!name || *name != "ckpt.1") return kWrongRestart;
  scr::Restart r(lib);
  std::ifstream in(r.route(file_name("ckpt.1")));
  std::string got((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  bool same = got == content();
  r.commit(same);
  return same ? 0 : kWrongRestart;
}

int run(const std::string& mode) {
  scr::Library lib;
  if (mode == "write") {
    scr::Output c(lib, "ckpt.1", scr::Flags::checkpoint);
    std::ofstream(c.route(file_name("ckpt.1"))) << content();
    c.commit(true);
    return 0;
  }
  if (mode == "check") return check(lib);
  try {
    if (mode == "throw-output") throw_output(lib);
    else if (mode == "throw-restart") throw_restart(lib);
    else if (mode == "throw-between") throw_between(lib);
    else throw std::invalid_argument("unknown mode " + mode);
  } catch (const AppFailure&) {
    // Only the phase modes ask: in throw-between nothing was left open.
    std::string what = mode == "throw-between" ? "handled" : further_call(lib);
    std::ofstream("unwind." + mode + ".rank2") << what << "\n";
    throw;  // on through ~Library, to main's handler
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int rc = 0;
  try {
    rc = run(argc > 1 ? argv[1] : "");
  } catch (const AppFailure& e) {
    std::fprintf(stderr, "cpp_api_unwind rank %d: %s; aborting the job\n", rank, e.what());
    MPI_Abort(MPI_COMM_WORLD, kAbortCode);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cpp_api_unwind rank %d: %s\n", rank, e.what());
    rc = 1;
  }
  MPI_Finalize();
  return rc;
}
