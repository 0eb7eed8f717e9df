// Moving files between processes over MPI, streamed in pieces (never whole
// files in memory), with their metadata (mode, times). Used when ranks moved
// to other nodes and their cached files must follow them.
#pragma once

#include <string>
#include <vector>

#include "common/status.hpp"
#include "io/env.hpp"
#include "kvtree/tree.hpp"
#include "mpi/comm.hpp"

namespace scr::rt {

struct FileBundle {
  std::string dir;                  // directory the names are relative to
  std::vector<std::string> names;   // relative names
  kv::Tree extra;                   // small metadata travelling with them
};

// Send `out` to dest while receiving a bundle from src into in->dir (either
// rank may be mpi::kNoPeer). Both sides must call it in the same round.
// in->names and in->extra are filled from what the sender sent. Errors are
// local (the protocol always runs to completion, so peers never hang).
Status swap_files(io::Env& env, const mpi::Comm& comm, int dest, const FileBundle& out, int src,
                  FileBundle* in, size_t piece_size);

}  // namespace scr::rt
