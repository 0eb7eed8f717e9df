#include "mpi/comm.hpp"

#include <algorithm>

#include "kvtree/codec.hpp"

namespace scr::mpi {

Comm Comm::dup(MPI_Comm comm) {
  MPI_Comm out = MPI_COMM_NULL;
  MPI_Comm_dup(comm, &out);
  return Comm(out, true);
}

Comm& Comm::operator=(Comm&& o) noexcept {
  if (this != &o) {
    if (owned_ && comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
    comm_ = o.comm_;
    owned_ = o.owned_;
    o.comm_ = MPI_COMM_NULL;
  }
  return *this;
}

Comm::~Comm() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (owned_ && comm_ != MPI_COMM_NULL && !finalized) MPI_Comm_free(&comm_);
}

int Comm::rank() const {
  int r = 0;
  MPI_Comm_rank(comm_, &r);
  return r;
}

int Comm::size() const {
  int n = 0;
  MPI_Comm_size(comm_, &n);
  return n;
}

void Comm::barrier() const { MPI_Barrier(comm_); }

Comm Comm::split(int color, int key) const {
  MPI_Comm out = MPI_COMM_NULL;
  MPI_Comm_split(comm_, color, key, &out);
  return Comm(out, true);
}

std::vector<std::string> allgather_strings(const Comm& comm, const std::string& s) {
  int n = comm.size();
  int len = static_cast<int>(s.size());
  std::vector<int> lens(n), displs(n);
  MPI_Allgather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, comm.raw());
  int total = 0;
  for (int i = 0; i < n; ++i) {
    displs[i] = total;
    total += lens[i];
  }
  std::string all(static_cast<size_t>(total), '\0');
  MPI_Allgatherv(s.data(), len, MPI_CHAR, all.data(), lens.data(), displs.data(), MPI_CHAR,
                 comm.raw());
  std::vector<std::string> out(n);
  for (int i = 0; i < n; ++i) out[i] = all.substr(displs[i], lens[i]);
  return out;
}

// An allgather of names and a local sort is O(P) memory per process, which is
// fine for the job sizes we target; a distributed (e.g. bitonic) sort of the
// names is the scalable replacement should we ever need it.
Comm split_by_string(const Comm& comm, const std::string& s, int* group_id, int* num_groups) {
  auto names = allgather_strings(comm, s);
  std::vector<std::string> distinct = names;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  int id = static_cast<int>(std::lower_bound(distinct.begin(), distinct.end(), s) - distinct.begin());
  if (group_id) *group_id = id;
  if (num_groups) *num_groups = static_cast<int>(distinct.size());
  return comm.split(id, comm.rank());
}

bool all_true(const Comm& comm, bool flag) {
  int in = flag ? 1 : 0, out = 0;
  MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_LAND, comm.raw());
  return out != 0;
}

bool any_true(const Comm& comm, bool flag) {
  int in = flag ? 1 : 0, out = 0;
  MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_LOR, comm.raw());
  return out != 0;
}

namespace {
int64_t reduce_i64(const Comm& comm, int64_t v, MPI_Op op) {
  long long in = v, out = 0;
  MPI_Allreduce(&in, &out, 1, MPI_LONG_LONG, op, comm.raw());
  return out;
}
}  // namespace

int64_t sum(const Comm& comm, int64_t v) { return reduce_i64(comm, v, MPI_SUM); }
int64_t max(const Comm& comm, int64_t v) { return reduce_i64(comm, v, MPI_MAX); }
int64_t min(const Comm& comm, int64_t v) { return reduce_i64(comm, v, MPI_MIN); }
double max(const Comm& comm, double v) {
  double out = 0;
  MPI_Allreduce(&v, &out, 1, MPI_DOUBLE, MPI_MAX, comm.raw());
  return out;
}

void bcast_string(const Comm& comm, std::string& s, int root) {
  long long len = static_cast<long long>(s.size());
  MPI_Bcast(&len, 1, MPI_LONG_LONG, root, comm.raw());
  s.resize(static_cast<size_t>(len));
  if (len > 0) MPI_Bcast(s.data(), static_cast<int>(len), MPI_CHAR, root, comm.raw());
}

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
  const int tag = 7301;
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

Status agree(const Comm& comm, const Status& local) {
  int mine = local.ok() ? comm.size() : comm.rank();
  int first = 0;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm.raw());
  if (first == comm.size()) return Status::Ok();
  std::string msg = local.message();
  int code = static_cast<int>(local.code());
  MPI_Bcast(&code, 1, MPI_INT, first, comm.raw());
  bcast_string(comm, msg, first);
  return Error(static_cast<Errc>(code), "rank " + std::to_string(first) + ": " + msg);
}

}  // namespace scr::mpi
