// Metadata trees between processes: broadcasts, ring shifts and sparse
// all-to-all exchanges (declared in comm.hpp). Trees travel encoded.
#include "kvtree/codec.hpp"
#include "mpi/comm.hpp"
#include "mpi/requests.hpp"
#include "mpi/tags.hpp"

namespace scr::mpi {
namespace {

// Bytes produced by our own encoder in this job; a failure here is a bug.
kv::Tree decoded(const std::string& bytes) {
  auto t = kv::decode(bytes);
  return t ? std::move(t).value() : kv::Tree();
}

}  // namespace

void bcast_tree(const Comm& comm, kv::Tree& tree, int root) {
  std::string bytes;
  if (comm.rank() == root) bytes = kv::encode(tree);
  bcast_string(comm, bytes, root);
  if (comm.rank() != root) tree = decoded(bytes);
}

void send_tree(const Comm& comm, const kv::Tree& tree, int dest, int tag) {
  std::string bytes = kv::encode(tree);
  (void)comm.impl().send(bytes.data(), bytes.size(), dest, tag);
}

kv::Tree recv_tree(const Comm& comm, int source, int tag) {
  return decoded(comm.impl().recv_any_length(source, tag));
}

kv::Tree sendrecv_tree(const Comm& comm, const kv::Tree& send, int dest, int source, int tag) {
  std::string out = kv::encode(send);
  Requests sending(1);
  sending.isend(0, comm, out.data(), static_cast<int>(out.size()), dest, tag);
  kv::Tree in = recv_tree(comm, source, tag);
  sending.wait_all();
  return in;
}

std::map<int, kv::Tree> exchange_trees(const Comm& comm, const std::map<int, kv::Tree>& send) {
  const int tag = tags::kTreeExchange;
  int n = comm.size();
  std::vector<int> sendflags(static_cast<size_t>(n), 0), recvflags(static_cast<size_t>(n), 0);
  for (const auto& [dest, tree] : send) sendflags[static_cast<size_t>(dest)] = 1;
  comm.impl().alltoall(sendflags.data(), sizeof(int), recvflags.data());
  std::vector<std::string> bufs;
  bufs.reserve(send.size());
  Requests sending(send.size());
  for (const auto& [dest, tree] : send) {
    bufs.push_back(kv::encode(tree));
    sending.isend(bufs.size() - 1, comm, bufs.back().data(), static_cast<int>(bufs.back().size()),
                  dest, tag);
  }
  std::map<int, kv::Tree> out;
  for (int src = 0; src < n; ++src)
    if (recvflags[static_cast<size_t>(src)]) out[src] = recv_tree(comm, src, tag);
  sending.wait_all();
  return out;
}

}  // namespace scr::mpi
