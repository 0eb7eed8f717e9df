// SCRPP_Init_comm from C++: scr::Library on a communicator. The processes
// of the launch split by parity into jobs A and B, each working in its own
// prefix (argv[1] for A, argv[2] for B). Each job restarts from what SCR++
// offers (checking the bytes of its rank's file), then writes checkpoint
// "<job>.step.<n>" (n = argv[3]) and prints what it did, as comm_jobs.c.
#include <mpi.h>
#include <unistd.h>

#include <fstream>
#include <iostream>
#include <iterator>
#include <string>

#include "scr/scr.hpp"

namespace {

std::string content(char job, int rank, const std::string& name) {
  std::string s;
  while (s.size() < 3000) s += std::string(1, job) + " " + std::to_string(rank) + " " + name + ";";
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int world_rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  if (argc != 4) {
    std::cerr << "usage: comm_jobs_cpp PREFIX_A PREFIX_B STEP\n";
    MPI_Abort(MPI_COMM_WORLD, 64);
  }
  int color = world_rank % 2;
  char job = static_cast<char>('A' + color);
  MPI_Comm comm;
  MPI_Comm_split(MPI_COMM_WORLD, color, world_rank, &comm);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  int rc = 0;
  try {
    if (chdir(argv[1 + color]) != 0) throw scr::Exception(std::string("cannot enter ") + argv[1 + color]);
    scr::Library::config(std::string("SCR_PREFIX=") + argv[1 + color]);
    scr::Library lib(comm);
    std::string file = "rank_" + std::to_string(rank) + ".dat";
    if (auto name = lib.restart_name()) {
      scr::Restart r(lib);
      std::ifstream in(r.route(*name + "/" + file), std::ios::binary);
      std::string got((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      bool valid = got == content(job, rank, *name);
      r.commit(valid);
      std::cout << "job " << job << " rank " << rank << " resumed " << *name << std::endl;
    } else {
      std::cout << "job " << job << " rank " << rank << " fresh" << std::endl;
    }
    std::string name = std::string(1, job) + ".step." + argv[3];
    scr::Output c(lib, name, scr::Flags::checkpoint);
    std::ofstream(c.route(name + "/" + file), std::ios::binary) << content(job, rank, name);
    c.commit(true);
    lib.finalize();
  } catch (const scr::Exception& e) {
    std::cerr << "comm_jobs_cpp: " << e.what() << "\n";
    rc = 2;
  }
  MPI_Comm_free(&comm);
  MPI_Finalize();
  return rc;
}
