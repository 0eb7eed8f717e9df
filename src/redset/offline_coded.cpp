// XOR and RS, offline: for every piece offset and every stripe, read the
// surviving symbols the decoding needs and compute the lost ones, with the
// stripe layout (layout.hpp) and kernels of the MPI rebuild: XOR sums the
// other p-1 symbols of the stripe (kernels::xor_gen, as ring.cpp), RS solves
// from p-k survivors with the coefficients of rs_jobs.hpp (GfTables::encode,
// as gather.cpp).
#include <algorithm>
#include <map>
#include <vector>

#include "redset/buffer.hpp"
#include "redset/coded_layout.hpp"
#include "redset/gather.hpp"
#include "redset/kernels/xor.hpp"
#include "redset/offline_set.hpp"
#include "redset/rs_jobs.hpp"
#include "redset/symbols.hpp"

namespace scr::redset::offline::detail {
namespace {

// Member `root`'s symbol of each stripe is the XOR of everybody else's (no
// coefficients: XOR sums).
std::vector<StripeJob> xor_jobs(const StripeLayout& layout, int root) {
  std::vector<StripeJob> jobs;
  for (int s = 0; s < layout.members(); ++s) {
    StripeJob job{root, {}, {{root, layout.symbol_of(root, s)}}, kernels::GfTables({})};
    for (int m = 0; m < layout.members(); ++m)
      if (m != root) job.sources.push_back({m, layout.symbol_of(m, s)});
    jobs.push_back(std::move(job));
  }
  return jobs;
}

// Every member's symbols: intact members' read from their files, lost
// members' written to their new ones.
class Symbols {
 public:
  Status open(io::Env& env, const Survey& survey, const SetState& set, const Target& target) {
    uint64_t chunk = set.loss.chunk;
    for (int m = 0; m < set.shape.ranks(); ++m) {
      if (set.loss.contains(m)) {
        kv::Tree header = coded_header(set.shape, m, header_entries(set, m), chunk);
        SCR_ASSIGN_OR_RETURN(auto lost, open_lost(env, set, m, target, header));
        stores_.emplace(m, SymbolStore(lost->data->logical(), lost->redundancy->file(),
                                       lost->redundancy->data_offset(), chunk));
        lost_.push_back(std::move(lost));
        continue;
      }
      SCR_ASSIGN_OR_RETURN(auto intact, open_intact(env, survey, set, m));
      stores_.emplace(m,
                      SymbolStore(intact->data, *intact->redundancy, intact->data_offset, chunk));
      intact_.push_back(std::move(intact));
    }
    return Status::Ok();
  }

  SymbolStore& operator[](int member) { return stores_.at(member); }
  const std::vector<std::unique_ptr<LostFiles>>& lost() const { return lost_; }
  // The first read or write error of any member.
  Status status() const {
    for (const auto& [m, store] : stores_) SCR_TRY(store.status());
    return Status::Ok();
  }

 private:
  std::vector<std::unique_ptr<IntactFiles>> intact_;
  std::vector<std::unique_ptr<LostFiles>> lost_;
  std::map<int, SymbolStore> stores_;  // refer to the files above
};

// One pass over the chunks, piece offset by piece offset, every stripe in
// turn. The piece shrinks for large sets so that the buffers stay within
// the MPI gather's budget (kGatherMemory).
void decode(Symbols& symbols, const std::vector<StripeJob>& jobs, bool xor_sum, uint64_t chunk,
            const Options& options) {
  size_t widest_in = 0, widest_out = 0;
  for (const StripeJob& job : jobs) {
    widest_in = std::max(widest_in, job.sources.size());
    widest_out = std::max(widest_out, job.outputs.size());
  }
  Pieces pieces(chunk, std::min(options.piece_size, kGatherMemory / (widest_in + widest_out)));
  std::vector<AlignedBuffer> in, out;
  for (size_t i = 0; i < widest_in; ++i) in.emplace_back(pieces.size());
  for (size_t i = 0; i < widest_out; ++i) out.emplace_back(pieces.size());
  std::vector<ViewHold> holds(widest_in);
  for (uint64_t q = 0; q < pieces.count(); ++q) {
    uint64_t written = 0;
    size_t n = pieces.length(q);
    uint64_t offset = pieces.offset(q);
    for (const StripeJob& job : jobs) {
      std::vector<const uint8_t*> srcs;
      for (size_t i = 0; i < job.sources.size(); ++i)
        srcs.push_back(symbols[job.sources[i].member].view(job.sources[i].symbol, offset, n,
                                                           in[i].data(), holds[i]));
      std::vector<uint8_t*> outs;
      for (size_t r = 0; r < job.outputs.size(); ++r) outs.push_back(out[r].data());
      if (xor_sum)
        kernels::xor_gen(outs.front(), srcs, n);
      else
        job.coefficients.encode(srcs, outs, n);
      for (size_t r = 0; r < job.outputs.size(); ++r)
        symbols[job.outputs[r].member].write(job.outputs[r].symbol, offset, outs[r], n);
      written += n * job.outputs.size();
    }
    if (options.progress) options.progress(written);
  }
}

}  // namespace

Status rebuild_coded(io::Env& env, const Survey& survey, const SetState& set, const Target& target,
                     const Options& options, std::vector<RebuiltRank>* out) {
  bool xor_sum = set.shape.scheme == Scheme::xor_code;
  int checks = xor_sum ? 1 : set.shape.failures;
  std::vector<StripeJob> jobs;
  if (xor_sum) {
    jobs = xor_jobs(StripeLayout(set.shape.ranks(), 1), set.loss.lost.front());
  } else {
    SCR_ASSIGN_OR_RETURN(jobs, rebuild_jobs(set.shape.ranks(), checks, set.loss.lost));
  }
  Symbols symbols;
  SCR_TRY(symbols.open(env, survey, set, target));
  decode(symbols, jobs, xor_sum, set.loss.chunk, options);
  SCR_TRY(symbols.status());
  return commit_lost(symbols.lost(), options, out);
}

}  // namespace scr::redset::offline::detail
