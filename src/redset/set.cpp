#include "redset/set.hpp"

#include <algorithm>
#include <cstdio>

#include "common/log.hpp"
#include "common/strings.hpp"
#include "redset/shape.hpp"

namespace scr::redset {

int Set::tolerance() const {
  switch (params_.scheme) {
    case Scheme::single: return 0;
    case Scheme::partner: return params_.replicas;
    case Scheme::xor_code: return 1;
    case Scheme::rs: return params_.failures;
  }
  return 0;
}

// Shared tail of create() and from_desc(): learn members and number the sets
// by their lowest world rank, so ids are the same whoever computes them.
Status Set::finish(const mpi::Comm& parent) {
  parent_ = &parent;
  world_rank_ = parent.rank();
  world_ranks_ = parent.size();
  members_ = mpi::allgather_ints(comm_, world_rank_);
  // Sets are numbered in the order of their first members' ranks. The ranks,
  // zero-padded to one width, sort as text in the order they sort as
  // numbers; numbering them at rank 0 keeps every other process from
  // receiving every set's leader.
  char leader[16];
  std::snprintf(leader, sizeof leader, "%010d", members_.front());
  mpi::number_strings(parent, leader, &group_, &groups_);
  return Status::Ok();
}

Result<Set> Set::create(const mpi::Comm& parent, const std::string& failure_group,
                        const Params& params) {
  Set set;
  set.params_ = params;
  if (params.set_size < 1)
    return Error(Errc::invalid_argument, "SET_SIZE must be at least 1");

  // Index of this process within its failure group; processes with the same
  // index across groups ("across" communicator) are in distinct groups.
  int fg = 0, nfg = 0;
  mpi::Comm same_group = mpi::split_by_string(parent, failure_group, &fg, &nfg);
  int index = same_group.rank();
  mpi::Comm across = parent.split(index, fg);

  // Cut the across ring into sets of at least set_size, as even as possible.
  int n = across.size();
  int wanted = params.scheme == Scheme::single ? 1 : std::max(params.set_size, 2);
  int nsets = std::max(1, n / wanted);
  if (params.scheme == Scheme::single) nsets = n;
  int base = n / nsets, extra = n % nsets;
  int r = across.rank();
  // The first `extra` sets get one more member.
  int set_id = r < extra * (base + 1) ? r / (base + 1) : extra + (r - extra * (base + 1)) / base;
  set.comm_ = across.split(set_id, r);

  // Decide per set (all members see the same size) whether the scheme fits;
  // rank 0 of the parent reports what any set had to change.
  int size = set.comm_.size();
  bool to_single = params.scheme != Scheme::single && size < 2;
  if (to_single) set.params_.scheme = Scheme::single;
  bool fewer_k = set.params_.scheme == Scheme::rs && set.params_.failures >= size;
  if (fewer_k) set.params_.failures = size - 1;
  bool fewer_copies = set.params_.scheme == Scheme::partner && set.params_.replicas >= size;
  if (fewer_copies) set.params_.replicas = size - 1;
  bool warn_single = mpi::any_true(parent, to_single);
  bool warn_k = mpi::any_true(parent, fewer_k);
  bool warn_copies = mpi::any_true(parent, fewer_copies);
  if (parent.rank() == 0) {
    std::string name = scheme_name(params.scheme);
    if (warn_single)
      log::warn_once(name + " needs each set to span at least two failure groups (GROUP " +
                "names), but some processes have no process of another group to pair with "
                "(one node?); those fall back to SINGLE: their files survive process "
                "failures but not the loss of their node");
    if (warn_k)
      log::warn_once("RS SET_FAILURES=" + std::to_string(params.failures) +
                " does not fit some sets; using set size - 1 there");
    if (warn_copies)
      log::warn_once("PARTNER REPLICAS=" + std::to_string(params.replicas) +
                " does not fit some sets; using set size - 1 there");
  }
  Status local;
  if (set.params_.scheme == Scheme::rs && size + set.params_.failures > 256)
    local = Error(Errc::invalid_argument, "RS needs set size + SET_FAILURES <= 256, have " +
                                              std::to_string(size + set.params_.failures));
  if (set.params_.scheme == Scheme::rs && set.params_.failures < 1)
    local = Error(Errc::invalid_argument, "RS needs SET_FAILURES >= 1");
  if (set.params_.scheme == Scheme::partner && set.params_.replicas < 1)
    local = Error(Errc::invalid_argument, "PARTNER needs REPLICAS >= 1");
  SCR_TRY(mpi::agree(parent, local));
  SCR_TRY(set.finish(parent));
  return set;
}

kv::Tree Set::desc() const { return shape().desc(rank()); }

SetShape Set::shape() const {
  SetShape s;
  s.scheme = params_.scheme;
  s.failures = params_.failures;
  s.replicas = params_.replicas;
  s.group = group_;
  s.groups = groups_;
  s.members = members_;
  s.world_ranks = world_ranks_;
  return s;
}

Result<Set> Set::from_desc(const mpi::Comm& parent, const kv::Tree& desc, size_t piece_size) {
  Set set;
  set.params_.piece_size = piece_size;
  Status local;
  auto type = parse_scheme(desc.value_or("TYPE", ""));
  int group = static_cast<int>(desc.int_or("GROUP", -1));
  int rank = static_cast<int>(desc.int_or("RANK", -1));
  int ranks = static_cast<int>(desc.int_or("RANKS", -1));
  if (!type || group < 0 || rank < 0 || ranks < 1)
    local = Error(Errc::corrupt, "redundancy descriptor is missing or incomplete");
  else if (desc.int_or("WRANKS", -1) != parent.size())
    local = Error(Errc::invalid_argument,
                  "dataset was protected by a job of " + desc.value_or("WRANKS", "?") +
                      " processes; this job has " + std::to_string(parent.size()));
  else if (desc.int_or("WRANK", -1) != parent.rank())
    local = Error(Errc::corrupt, "redundancy descriptor belongs to rank " +
                                     desc.value_or("WRANK", "?"));
  SCR_TRY(mpi::agree(parent, local));

  set.params_.scheme = *type;
  set.params_.failures = static_cast<int>(desc.int_or("CKSUM", 1));
  set.params_.replicas = static_cast<int>(desc.int_or("REPLICAS", 1));
  set.params_.set_size = ranks;
  set.comm_ = parent.split(group, rank);
  if (set.comm_.size() != ranks || set.comm_.rank() != rank)
    local = Error(Errc::corrupt, "redundancy set " + std::to_string(group) +
                                     " does not match its descriptor (" +
                                     std::to_string(set.comm_.size()) + " members, expected " +
                                     std::to_string(ranks) + ")");
  SCR_TRY(mpi::agree(parent, local));
  SCR_TRY(set.finish(parent));
  return set;
}

}  // namespace scr::redset
