// Metadata trees between processes: broadcasts, ring shifts and sparse
// all-to-all exchanges (declared in comm.hpp). Trees travel encoded.
#include <cstring>

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

// Who sends to whom goes up a tree to rank 0, and each process's list of
// senders comes back down: O(log P) messages a process and O(P + messages)
// bytes at rank 0, where an all-to-all of flags would cost every process P
// messages and the job P^2.
std::map<int, kv::Tree> exchange_trees(const Comm& comm, const std::map<int, kv::Tree>& send) {
  const int tag = tags::kTreeExchange;
  std::string dests;
  for (const auto& [dest, tree] : send) dests.append(reinterpret_cast<const char*>(&dest), sizeof dest);
  auto all_dests = comm.impl().gather_strings(dests, 0);
  std::vector<std::string> senders;
  if (comm.rank() == 0) {
    senders.resize(all_dests.size());
    for (size_t src = 0; src < all_dests.size(); ++src) {
      int source = static_cast<int>(src);
      for (size_t at = 0; at + sizeof(int) <= all_dests[src].size(); at += sizeof(int)) {
        int dest = 0;
        std::memcpy(&dest, all_dests[src].data() + at, sizeof dest);
        senders.at(static_cast<size_t>(dest)).append(reinterpret_cast<const char*>(&source), sizeof source);
      }
    }
  }
  std::string from = comm.impl().scatter_strings(std::move(senders), 0);
  std::vector<std::string> bufs;
  bufs.reserve(send.size());
  Requests sending(send.size());
  for (const auto& [dest, tree] : send) {
    bufs.push_back(kv::encode(tree));
    sending.isend(bufs.size() - 1, comm, bufs.back().data(), static_cast<int>(bufs.back().size()),
                  dest, tag);
  }
  std::map<int, kv::Tree> out;
  for (size_t at = 0; at + sizeof(int) <= from.size(); at += sizeof(int)) {
    int src = 0;
    std::memcpy(&src, from.data() + at, sizeof src);
    out[src] = recv_tree(comm, src, tag);
  }
  sending.wait_all();
  return out;
}

std::map<int, kv::Tree> gather_trees(const Comm& comm, const kv::Tree& tree, int root) {
  auto parts = comm.impl().gather_strings(kv::encode(tree), root);
  std::map<int, kv::Tree> out;
  for (size_t r = 0; r < parts.size(); ++r) out[static_cast<int>(r)] = decoded(parts[r]);
  return out;
}

kv::Tree scatter_trees(const Comm& comm, const std::vector<kv::Tree>& trees, int root) {
  std::vector<std::string> parts;
  if (comm.rank() == root) {
    parts.reserve(trees.size());
    for (const auto& t : trees) parts.push_back(kv::encode(t));
  }
  return decoded(comm.impl().scatter_strings(std::move(parts), root));
}

}  // namespace scr::mpi
