// What a redundancy set's files depend on, without its communicator: the
// scheme, the members (world ranks by set rank) and where the set lies among
// the others. A Set (MPI) has one; the offline rebuild (offline.hpp) reads
// one back from the descriptor a redundancy header carries, so both build
// descriptors, file names and headers with the same code.
#pragma once

#include <string>
#include <vector>

#include "common/status.hpp"
#include "kvtree/tree.hpp"
#include "redset/set.hpp"

namespace scr::redset {

struct SetShape {
  Scheme scheme = Scheme::single;
  int failures = 1;  // RS: check chunks k (CKSUM)
  int replicas = 1;  // PARTNER
  int group = 0;     // set id, 0-based
  int groups = 1;
  std::vector<int> members;  // world ranks by set rank
  int world_ranks = 1;

  int ranks() const { return static_cast<int>(members.size()); }
  // Set rank at distance d to the left/right of `member` on the ring.
  int left(int member, int d) const { return ((member - d) % ranks() + ranks()) % ranks(); }
  int right(int member, int d) const { return (member + d) % ranks(); }
  // Left neighbours whose metadata a member's header carries: SINGLE 0,
  // XOR 1, RS k, PARTNER replicas.
  int width() const;
  // The descriptor of `member` (Set::desc() of that process): ENABLED,
  // GROUP, GROUPS, RANK, RANKS, TYPE, WRANK, WRANKS, CKSUM or REPLICAS,
  // MEMBERS/<i>.
  kv::Tree desc(int member) const;
  // reddesc.<wrank>.<scheme>.grp_<g>_of_<n>.mem_<r>_of_<s>.redset (1-based).
  std::string file_name(int member) const;

  // Parse a descriptor written by desc(). Errc::corrupt when a key is
  // missing or the geometry is impossible (RS k or PARTNER replicas outside
  // 1..set size - 1, a set of one member that is not SINGLE, ...).
  static Result<SetShape> from_desc(const kv::Tree& desc);
};

}  // namespace scr::redset
