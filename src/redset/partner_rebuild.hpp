// The write half of a PARTNER recovery (schemes.hpp): every lost member gets
// its own files and the replicas its redundancy file keeps, streamed from
// the intact members that hold them.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "io/env.hpp"
#include "kvtree/tree.hpp"
#include "redset/schemes.hpp"
#include "redset/set.hpp"
#include "redset/survey.hpp"

namespace scr::redset::detail {

// `entries` are the DESC entries fetch_lost_entries() gave this member.
std::unique_ptr<Rebuild> partner_rebuild(io::Env& env, const Set& set, std::string dir,
                                         std::string redfile, SelfCheck self, SetLoss loss,
                                         std::map<int, kv::Tree> entries);

}  // namespace scr::redset::detail
