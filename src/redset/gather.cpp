#include "redset/gather.hpp"

#include <algorithm>

#include "mpi/requests.hpp"
#include "mpi/tags.hpp"
#include "redset/buffer.hpp"

namespace scr::redset {
namespace {

// A member owns at most one symbol per stripe, so (peer, stripe) names a
// message within a phase; MPI keeps messages of one (peer, tag) in order
// across phases.
constexpr int kSourceTag = mpi::tags::kGatherSource;
constexpr int kOutputTag = mpi::tags::kGatherOutput;

struct Send {
  int stripe;
  Symbol symbol;
  int to;
};

struct Receipt {
  int stripe;
  Symbol symbol;
  int from;
};

// One member's share of the jobs.
struct Share {
  std::vector<Send> sends;
  std::vector<int> gathers;  // stripes
  std::vector<Receipt> receipts;
  size_t buffers = 0;  // piece buffers per phase
};

Share share_of(int member, const std::vector<StripeJob>& jobs) {
  Share sh;
  for (size_t s = 0; s < jobs.size(); ++s) {
    const StripeJob& job = jobs[s];
    int stripe = static_cast<int>(s);
    if (job.gatherer == member) {
      sh.gathers.push_back(stripe);
      sh.buffers += job.sources.size() + job.outputs.size();
      continue;
    }
    for (const Located& src : job.sources)
      if (src.member == member) sh.sends.push_back({stripe, src.symbol, job.gatherer});
    for (const Located& out : job.outputs)
      if (out.member == member) sh.receipts.push_back({stripe, out.symbol, job.gatherer});
  }
  sh.buffers += sh.sends.size() + sh.receipts.size();
  return sh;
}

// Same on every member (message sizes must match): the largest share decides.
size_t piece_within_budget(const std::vector<StripeJob>& jobs, int members, size_t requested) {
  size_t most = 1;
  for (int m = 0; m < members; ++m) most = std::max(most, share_of(m, jobs).buffers);
  return std::min(requested, kGatherMemory / (2 * most));
}

// Buffers and requests of one phase; two sets alternate.
struct PhaseBuffers {
  std::vector<AlignedBuffer> send, in, out, receipt;
  std::vector<ViewHold> send_views;  // source pieces sent in place, until sent
  mpi::Requests send_req, in_req, out_req, receipt_req;

  static std::vector<AlignedBuffer> make(size_t n, size_t piece) {
    std::vector<AlignedBuffer> v;
    for (size_t i = 0; i < n; ++i) v.emplace_back(piece);
    return v;
  }
};

class Gatherer {
 public:
  Gatherer(const mpi::Comm& comm, SymbolStore& store, const Pieces& pieces,
           const std::vector<StripeJob>& jobs, mpi::Patience on_path)
      : comm_(comm),
        me_(comm.rank()),
        on_path_(on_path),
        store_(store),
        pieces_(pieces),
        jobs_(jobs),
        share_(share_of(me_, jobs)) {
    size_t ins = 0, outs = 0;
    for (int s : share_.gathers) {
      in_start_.push_back(ins);
      out_start_.push_back(outs);
      ins += jobs_[s].sources.size();
      outs += jobs_[s].outputs.size();
    }
    for (PhaseBuffers& b : sets_) {
      b.send = PhaseBuffers::make(share_.sends.size(), pieces.size());
      b.in = PhaseBuffers::make(ins, pieces.size());
      b.out = PhaseBuffers::make(outs, pieces.size());
      b.receipt = PhaseBuffers::make(share_.receipts.size(), pieces.size());
      b.send_views.resize(share_.sends.size());
      b.send_req = mpi::Requests(share_.sends.size());
      b.in_req = mpi::Requests(ins);
      b.out_req = mpi::Requests(outs);
      b.receipt_req = mpi::Requests(share_.receipts.size());
    }
  }

  void run() {
    if (pieces_.count() > 0) post_receives(0);
    for (uint64_t q = 0; q < pieces_.count(); ++q) phase(q);
    for (PhaseBuffers& b : sets_) {
      b.send_req.wait_all(on_path_);
      b.out_req.wait_all(on_path_);
    }
  }

 private:
  const mpi::Comm& comm_;
  int me_;
  mpi::Patience on_path_;
  SymbolStore& store_;
  const Pieces& pieces_;
  const std::vector<StripeJob>& jobs_;
  Share share_;
  std::vector<size_t> in_start_, out_start_;  // per gathered stripe
  PhaseBuffers sets_[2];

  void phase(uint64_t q) {
    PhaseBuffers& b = sets_[q % 2];
    int len = static_cast<int>(pieces_.length(q));
    uint64_t offset = pieces_.offset(q);
    // Our source pieces go out first: gatherers wait for them, we wait for nobody.
    b.send_req.wait_all(on_path_);
    for (size_t i = 0; i < share_.sends.size(); ++i) {
      const Send& s = share_.sends[i];
      const uint8_t* piece = store_.view(s.symbol, offset, static_cast<size_t>(len),
                                         b.send[i].data(), b.send_views[i]);
      b.send_req.isend(i, comm_, piece, len, s.to, kSourceTag + s.stripe);
    }
    if (q + 1 < pieces_.count()) post_receives(q + 1);
    for (size_t g = 0; g < share_.gathers.size(); ++g) gather(g, b, offset, len);
    b.receipt_req.wait_all(on_path_);
    for (size_t i = 0; i < share_.receipts.size(); ++i)
      store_.write(share_.receipts[i].symbol, offset, b.receipt[i].data(),
                   static_cast<size_t>(len));
  }

  void post_receives(uint64_t q) {
    PhaseBuffers& b = sets_[q % 2];
    int len = static_cast<int>(pieces_.length(q));
    for (size_t g = 0; g < share_.gathers.size(); ++g) {
      int stripe = share_.gathers[g];
      const auto& sources = jobs_[stripe].sources;
      for (size_t c = 0; c < sources.size(); ++c) {
        if (sources[c].member == me_) continue;
        size_t i = in_start_[g] + c;
        b.in_req.irecv(i, comm_, b.in[i].data(), len, sources[c].member, kSourceTag + stripe);
      }
    }
    for (size_t i = 0; i < share_.receipts.size(); ++i) {
      const Receipt& r = share_.receipts[i];
      b.receipt_req.irecv(i, comm_, b.receipt[i].data(), len, r.from, kOutputTag + r.stripe);
    }
  }

  void gather(size_t g, PhaseBuffers& b, uint64_t offset, int len) {
    int stripe = share_.gathers[g];
    const StripeJob& job = jobs_[stripe];
    size_t n = static_cast<size_t>(len);
    std::vector<const uint8_t*> srcs;
    ViewHold local;  // a gatherer supplies at most one source itself
    for (size_t c = 0; c < job.sources.size(); ++c) {
      size_t i = in_start_[g] + c;
      bool mine = job.sources[c].member == me_;
      srcs.push_back(mine ? store_.view(job.sources[c].symbol, offset, n, b.in[i].data(), local)
                          : b.in[i].data());
    }
    b.in_req.wait(in_start_[g], job.sources.size(), on_path_);
    // Output buffers of this set may still be on their way from two phases ago.
    b.out_req.wait(out_start_[g], job.outputs.size(), on_path_);
    std::vector<uint8_t*> outs;
    for (size_t r = 0; r < job.outputs.size(); ++r) outs.push_back(b.out[out_start_[g] + r].data());
    job.coefficients.encode(srcs, outs, n);
    for (size_t r = 0; r < job.outputs.size(); ++r) {
      const Located& o = job.outputs[r];
      if (o.member == me_)
        store_.write(o.symbol, offset, outs[r], n);
      else
        b.out_req.isend(out_start_[g] + r, comm_, outs[r], len, o.member, kOutputTag + stripe);
    }
  }
};

}  // namespace

Status run_gather(const mpi::Comm& comm, SymbolStore& store, uint64_t chunk, size_t piece_size,
                  const std::vector<StripeJob>& jobs, mpi::Patience on_path) {
  Pieces pieces(chunk, piece_within_budget(jobs, comm.size(), piece_size));
  Gatherer(comm, store, pieces, jobs, on_path).run();
  return store.status();
}

}  // namespace scr::redset
