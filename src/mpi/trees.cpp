// Metadata trees between processes: broadcasts, ring shifts and sparse
// all-to-all exchanges (declared in comm.hpp). Trees travel encoded.
#include "kvtree/codec.hpp"
#include "mpi/comm.hpp"
#include "mpi/tags.hpp"

namespace scr::mpi {

void bcast_tree(const Comm& comm, kv::Tree& tree, int root) {
  std::string bytes;
  if (comm.rank() == root) bytes = kv::encode(tree);
  bcast_string(comm, bytes, root);
  if (comm.rank() != root) {
    // Bytes produced by our own encoder in this job; a failure here is a bug.
    auto t = kv::decode(bytes);
    tree = t ? std::move(t).value() : kv::Tree();
  }
}

void send_tree(const Comm& comm, const kv::Tree& tree, int dest, int tag) {
  std::string bytes = kv::encode(tree);
  MPI_Send(bytes.data(), static_cast<int>(bytes.size()), MPI_CHAR, dest, tag, comm.raw());
}

namespace {
kv::Tree recv_tree_probe(const Comm& comm, int source, int tag) {
  MPI_Status status;
  MPI_Probe(source, tag, comm.raw(), &status);
  int count = 0;
  MPI_Get_count(&status, MPI_CHAR, &count);
  std::string bytes(static_cast<size_t>(count), '\0');
  MPI_Recv(bytes.data(), count, MPI_CHAR, status.MPI_SOURCE, tag, comm.raw(), MPI_STATUS_IGNORE);
  auto t = kv::decode(bytes);
  return t ? std::move(t).value() : kv::Tree();
}
}  // namespace

kv::Tree recv_tree(const Comm& comm, int source, int tag) { return recv_tree_probe(comm, source, tag); }

kv::Tree sendrecv_tree(const Comm& comm, const kv::Tree& send, int dest, int source, int tag) {
  std::string out = kv::encode(send);
  MPI_Request req;
  MPI_Isend(out.data(), static_cast<int>(out.size()), MPI_CHAR, dest, tag, comm.raw(), &req);
  kv::Tree in = recv_tree_probe(comm, source, tag);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  return in;
}

std::map<int, kv::Tree> exchange_trees(const Comm& comm, const std::map<int, kv::Tree>& send) {
  const int tag = tags::kTreeExchange;
  int n = comm.size();
  std::vector<int> sendflags(n, 0), recvflags(n, 0);
  for (const auto& [dest, tree] : send) sendflags[dest] = 1;
  MPI_Alltoall(sendflags.data(), 1, MPI_INT, recvflags.data(), 1, MPI_INT, comm.raw());
  std::vector<std::string> bufs;
  bufs.reserve(send.size());
  std::vector<MPI_Request> reqs;
  for (const auto& [dest, tree] : send) {
    bufs.push_back(kv::encode(tree));
    reqs.emplace_back();
    MPI_Isend(bufs.back().data(), static_cast<int>(bufs.back().size()), MPI_CHAR, dest, tag,
              comm.raw(), &reqs.back());
  }
  std::map<int, kv::Tree> out;
  for (int src = 0; src < n; ++src)
    if (recvflags[src]) out[src] = recv_tree_probe(comm, src, tag);
  MPI_Waitall(static_cast<int>(reqs.size()), reqs.data(), MPI_STATUSES_IGNORE);
  return out;
}

}  // namespace scr::mpi
