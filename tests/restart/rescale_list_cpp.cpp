// rescale_list_cpp: the C++ form of the listing API. Takes the checkpoint
// offered and prints, on rank 0, what scr::Restart says of it in the lines
// rescale_probe prints ("WRITERS <n> FILES <count>", "FILE <name> <rank>
// <size>"), so rescale_listing.sh can compare both with the prefix.
#include <mpi.h>

#include <cstdio>

#include "scr/scr.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int rc = 0;
  try {
    scr::Library lib;
    if (auto name = lib.restart_name()) {
      scr::Restart restart(lib);
      auto files = restart.files();
      if (rank == 0) {
        std::printf("WRITERS %d FILES %zu\n", restart.ranks(), files.size());
        for (const auto& f : files)
          std::printf("FILE %s %d %llu\n", f.name.c_str(), f.rank, static_cast<unsigned long long>(f.size));
      }
      restart.commit(true);
    }
    lib.finalize();
  } catch (const scr::Exception& e) {
    std::fprintf(stderr, "rescale_list_cpp rank %d: %s\n", rank, e.what());
    rc = 1;
  }
  MPI_Finalize();
  return rc;
}
