// A member's survey facts (survey.hpp's MemberFacts) as a kvtree, so that
// they can be read where the member's files are and judged by
// offline::survey_facts elsewhere: by scr_scavenge's node agents, through
// their standard output, and by the job's salvage of a cached checkpoint of
// another size, gathered to rank 0.
#pragma once

#include "common/status.hpp"
#include "kvtree/tree.hpp"
#include "redset/survey.hpp"

namespace scr::redset {

kv::Tree facts_tree(const MemberFacts& facts);
// Errc::corrupt when `tree` is not one facts_tree made.
Result<MemberFacts> facts_from_tree(const kv::Tree& tree);

}  // namespace scr::redset
