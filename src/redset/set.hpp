// Set formation: split a parent communicator into redundancy sets of at least
// `set_size` processes, never two from the same failure group, ordered as a
// ring (left = rank-1, right = rank+1, wrapping).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "kvtree/tree.hpp"
#include "mpi/comm.hpp"
#include "redset/params.hpp"

namespace scr::redset {

struct SetShape;

class Set {
 public:
  // Collective over parent. `failure_group` names this process's failure
  // group (its node name for GROUP=NODE). When no set of two or more distinct
  // failure groups can be formed, warns and falls back to SINGLE; RS `k` and
  // PARTNER replicas are reduced (with a warning) to fit small sets.
  static Result<Set> create(const mpi::Comm& parent, const std::string& failure_group,
                            const Params& params);
  // Collective over parent. Rebuild the set a dataset was written with from
  // this process's desc() of that time (obtained from the filemap or from a
  // neighbour's redundancy header). Fails on every process if any desc is
  // missing or inconsistent.
  static Result<Set> from_desc(const mpi::Comm& parent, const kv::Tree& desc, size_t piece_size);

  // DESC tree of redundancy headers (docs/formats/redset.md): ENABLED, GROUP, GROUPS, RANK, RANKS,
  // TYPE, WRANK, WRANKS, plus CKSUM (RS) / REPLICAS (PARTNER) and MEMBERS/<i>
  // = world rank of set rank i.
  kv::Tree desc() const;
  // The set without its communicator (shape.hpp).
  SetShape shape() const;

  Scheme scheme() const { return params_.scheme; }
  const Params& params() const { return params_; }
  int group() const { return group_; }    // set id, 0-based
  int groups() const { return groups_; }  // number of sets
  int rank() const { return comm_.rank(); }
  int ranks() const { return comm_.size(); }
  int world_rank() const { return world_rank_; }
  int world_ranks() const { return world_ranks_; }
  const std::vector<int>& members() const { return members_; }  // world ranks by set rank
  int left() const { return (rank() + ranks() - 1) % ranks(); }
  int right() const { return (rank() + 1) % ranks(); }
  // Set rank at distance d to the left/right on the ring.
  int left(int d) const { return ((rank() - d) % ranks() + ranks()) % ranks(); }
  int right(int d) const { return (rank() + d) % ranks(); }
  // Members per set that may be lost without losing data.
  int tolerance() const;
  const mpi::Comm& comm() const { return comm_; }
  const mpi::Comm& parent() const { return *parent_; }

 private:
  Params params_;
  mpi::Comm comm_;
  const mpi::Comm* parent_ = nullptr;
  int group_ = 0;
  int groups_ = 1;
  int world_rank_ = 0;
  int world_ranks_ = 1;
  std::vector<int> members_;
  Status finish(const mpi::Comm& parent);
};

}  // namespace scr::redset
