// The scheme configurations the loss tests run, and the ground truth of
// which losses each must survive -- written from the definitions, not from
// the code under test. Shared by the MPI (loss_test) and serial
// (offline_test) rebuild tests.
#pragma once

#include <bit>
#include <ostream>
#include <string>
#include <vector>

#include "redset/set.hpp"

namespace scr::redset::test {

struct LossCase {
  Scheme scheme;
  int checks = 1;    // RS k
  int replicas = 1;  // PARTNER
  std::string name;
};

inline void PrintTo(const LossCase& c, std::ostream* os) { *os << c.name; }

inline int tolerance(const LossCase& c) {
  return c.scheme == Scheme::partner ? c.replicas : c.scheme == Scheme::rs ? c.checks : 1;
}

// Can a set of n members rebuild the members in the bit mask `lost`? PARTNER
// needs, for every lost member, one of its `replicas` right neighbours.
inline bool recoverable(const LossCase& c, int n, unsigned lost) {
  if (c.scheme != Scheme::partner) return std::popcount(lost) <= tolerance(c);
  for (int e = 0; e < n; ++e) {
    if (!(lost & (1u << e))) continue;
    bool copy_survives = false;
    for (int d = 1; d <= c.replicas; ++d) copy_survives |= !(lost & (1u << ((e + d) % n)));
    if (!copy_survives) return false;
  }
  return true;
}

// Every scheme configuration the loss tests cover.
inline const std::vector<LossCase>& all_loss_cases() {
  static const std::vector<LossCase> cases = {
      {Scheme::xor_code, 1, 1, "xor"},     {Scheme::rs, 1, 1, "rs1"},
      {Scheme::rs, 2, 1, "rs2"},           {Scheme::rs, 3, 1, "rs3"},
      {Scheme::partner, 1, 1, "partner1"}, {Scheme::partner, 1, 2, "partner2"}};
  return cases;
}

}  // namespace scr::redset::test
