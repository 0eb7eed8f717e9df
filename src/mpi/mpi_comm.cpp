#include "mpi/mpi_comm.hpp"

#include <span>

#include "mpi/error.hpp"
#include "mpi/wait.hpp"

namespace scr::mpi {
namespace {

// SCR++'s null peer is MPI's null process.
int peer(int rank) { return rank == kNoPeer ? MPI_PROC_NULL : rank; }

MPI_Op mpi_op(ReduceOp op) {
  switch (op) {
    case ReduceOp::min: return MPI_MIN;
    case ReduceOp::max: return MPI_MAX;
    case ReduceOp::sum: return MPI_SUM;
    case ReduceOp::land: return MPI_LAND;
    case ReduceOp::lor: return MPI_LOR;
  }
  return MPI_OP_NULL;
}

// MPI_Request slots; the hot path of the redundancy pipelines, so a slot is
// the bare MPI_Request and a transfer is one MPI call.
class MpiRequestSlots final : public RequestSlots {
 public:
  explicit MpiRequestSlots(size_t n) : slots_(n, MPI_REQUEST_NULL) {}
  void isend(size_t slot, const CommImpl& comm, const void* data, int bytes, int dest,
             int tag) override {
    MPI_Isend(data, bytes, MPI_BYTE, peer(dest), tag, handle_of(comm), &slots_[slot]);
  }
  void irecv(size_t slot, const CommImpl& comm, void* data, int bytes, int source,
             int tag) override {
    MPI_Irecv(data, bytes, MPI_BYTE, peer(source), tag, handle_of(comm), &slots_[slot]);
  }
  void wait(size_t first, size_t count, Patience patience) override {
    wait_all(std::span(slots_).subspan(first, count), patience);
  }

 private:
  static MPI_Comm handle_of(const CommImpl& comm) {
    return static_cast<const MpiComm&>(comm).handle();
  }
  std::vector<MPI_Request> slots_;
};

}  // namespace

Comm dup(MPI_Comm comm) { return Comm(MpiComm(comm, false).duplicate()); }

Comm borrow(MPI_Comm comm) { return Comm(std::make_unique<MpiComm>(comm, false)); }

Comm world() { return borrow(MPI_COMM_WORLD); }

bool initialized() {
  int up = 0;
  MPI_Initialized(&up);
  return up != 0;
}

MPI_Comm raw(const Comm& comm) {
  const auto* over_mpi = dynamic_cast<const MpiComm*>(&comm.impl());
  return over_mpi ? over_mpi->handle() : MPI_COMM_NULL;
}

MpiComm::~MpiComm() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (owned_ && comm_ != MPI_COMM_NULL && !finalized) MPI_Comm_free(&comm_);
}

int MpiComm::rank() const {
  int r = 0;
  MPI_Comm_rank(comm_, &r);
  return r;
}

int MpiComm::size() const {
  int n = 0;
  MPI_Comm_size(comm_, &n);
  return n;
}

// A second thread in a process is allowed by the MPI standard only from
// MPI_THREAD_FUNNELED on (with MPI_THREAD_SINGLE "only one thread will
// execute"), even when that thread makes no MPI call.
bool MpiComm::threads_allowed() const {
  int provided = MPI_THREAD_SINGLE;
  MPI_Query_thread(&provided);
  return provided >= MPI_THREAD_FUNNELED;
}

std::unique_ptr<CommImpl> MpiComm::split(int color, int key) const {
  MPI_Comm out = MPI_COMM_NULL;
  MPI_Comm_split(comm_, color < 0 ? MPI_UNDEFINED : color, key, &out);
  if (out == MPI_COMM_NULL) return nullptr;
  return std::make_unique<MpiComm>(out, true);
}

std::unique_ptr<CommImpl> MpiComm::duplicate() const {
  MPI_Comm out = MPI_COMM_NULL;
  MPI_Comm_dup(comm_, &out);
  return std::make_unique<MpiComm>(out, true);
}

void MpiComm::barrier() const { MPI_Barrier(comm_); }

void MpiComm::shut_down() const { MPI_Finalize(); }

Status MpiComm::send(const void* data, size_t bytes, int dest, int tag) const {
  return status_of(MPI_Send(data, static_cast<int>(bytes), MPI_BYTE, peer(dest), tag, comm_), "MPI_Send");
}

Status MpiComm::sendrecv(const void* out, int out_bytes, int dest, void* in, int in_bytes,
                         int source, int tag) const {
  return status_of(MPI_Sendrecv(out, out_bytes, MPI_BYTE, peer(dest), tag, in, in_bytes,
                                MPI_BYTE, peer(source), tag, comm_, MPI_STATUS_IGNORE),
                   "MPI_Sendrecv");
}

std::string MpiComm::recv_any_length(int source, int tag) const {
  MPI_Status status;
  MPI_Probe(peer(source), tag, comm_, &status);
  int count = 0;
  MPI_Get_count(&status, MPI_BYTE, &count);
  std::string bytes(static_cast<size_t>(count), '\0');
  MPI_Recv(bytes.data(), count, MPI_BYTE, status.MPI_SOURCE, tag, comm_, MPI_STATUS_IGNORE);
  return bytes;
}

std::unique_ptr<RequestSlots> MpiComm::make_requests(size_t slots) const {
  return std::make_unique<MpiRequestSlots>(slots);
}

int64_t MpiComm::allreduce(int64_t v, ReduceOp op) const {
  long long in = v, out = 0;
  MPI_Allreduce(&in, &out, 1, MPI_LONG_LONG, mpi_op(op), comm_);
  return out;
}

double MpiComm::allreduce(double v, ReduceOp op) const {
  double out = 0;
  MPI_Allreduce(&v, &out, 1, MPI_DOUBLE, mpi_op(op), comm_);
  return out;
}

int MpiComm::min_without_spinning(int v) const {
  int out = 0;
  MPI_Request req = MPI_REQUEST_NULL;
  MPI_Iallreduce(&v, &out, 1, MPI_INT, MPI_MIN, comm_, &req);
  wait_one(req);
  return out;
}

void MpiComm::allgather(const void* mine, size_t bytes, void* all) const {
  int n = static_cast<int>(bytes);
  MPI_Allgather(mine, n, MPI_BYTE, all, n, MPI_BYTE, comm_);
}

std::vector<std::string> MpiComm::allgather_strings(std::string_view mine) const {
  int n = size();
  int len = static_cast<int>(mine.size());
  std::vector<int> lens(static_cast<size_t>(n)), displs(static_cast<size_t>(n));
  MPI_Allgather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, comm_);
  int total = 0;
  for (size_t i = 0; i < lens.size(); ++i) {
    displs[i] = total;
    total += lens[i];
  }
  std::string all(static_cast<size_t>(total), '\0');
  MPI_Allgatherv(mine.data(), len, MPI_CHAR, all.data(), lens.data(), displs.data(), MPI_CHAR,
                 comm_);
  std::vector<std::string> out(static_cast<size_t>(n));
  for (size_t i = 0; i < out.size(); ++i)
    out[i] = all.substr(static_cast<size_t>(displs[i]), static_cast<size_t>(lens[i]));
  return out;
}

void MpiComm::alltoall(const void* out, size_t bytes, void* in) const {
  int n = static_cast<int>(bytes);
  MPI_Alltoall(out, n, MPI_BYTE, in, n, MPI_BYTE, comm_);
}

void MpiComm::bcast(void* data, size_t bytes, int root) const {
  MPI_Bcast(data, static_cast<int>(bytes), MPI_BYTE, root, comm_);
}

std::vector<std::string> MpiComm::gather_strings(std::string_view mine, int root) const {
  int n = size(), me = rank();
  int len = static_cast<int>(mine.size());
  std::vector<int> lens(me == root ? static_cast<size_t>(n) : 0), displs(lens.size());
  MPI_Gather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, root, comm_);
  int total = 0;
  for (size_t i = 0; i < lens.size(); ++i) {
    displs[i] = total;
    total += lens[i];
  }
  std::string all(static_cast<size_t>(total), '\0');
  MPI_Gatherv(mine.data(), len, MPI_CHAR, all.data(), lens.data(), displs.data(), MPI_CHAR, root,
              comm_);
  std::vector<std::string> out(lens.size());
  for (size_t i = 0; i < out.size(); ++i)
    out[i] = all.substr(static_cast<size_t>(displs[i]), static_cast<size_t>(lens[i]));
  return out;
}

std::string MpiComm::scatter_strings(std::vector<std::string> parts, int root) const {
  int me = rank();
  std::vector<int> lens, displs;
  std::string all;
  if (me == root) {
    for (const auto& p : parts) {
      displs.push_back(static_cast<int>(all.size()));
      lens.push_back(static_cast<int>(p.size()));
      all += p;
    }
  }
  int len = 0;
  MPI_Scatter(lens.data(), 1, MPI_INT, &len, 1, MPI_INT, root, comm_);
  std::string mine(static_cast<size_t>(len), '\0');
  MPI_Scatterv(all.data(), lens.data(), displs.data(), MPI_CHAR, mine.data(), len, MPI_CHAR, root,
               comm_);
  return mine;
}

}  // namespace scr::mpi
