// The stripe jobs of the RS scheme (see gather.hpp and layout.hpp).
#pragma once

#include <vector>

#include "common/status.hpp"
#include "redset/gather.hpp"

namespace scr::redset {

// Encoding: member s gathers the p-k data symbols of stripe s and computes its
// k check rows (Cauchy rows of the generator); it keeps row 0 and sends row j
// to member s+j.
std::vector<StripeJob> encode_jobs(int members, int checks);

// Rebuilding the `lost` members (set ranks, ascending, at most `checks`): the
// survivors take turns as gatherers, stripe s going to survivor s mod
// (p - m). The gatherer and the next p-k-1 survivors after it supply their
// symbols of the stripe, from which the lost symbols are solved.
Result<std::vector<StripeJob>> rebuild_jobs(int members, int checks, const std::vector<int>& lost);

}  // namespace scr::redset
