// Agreement inside a redundancy set, reported in world ranks so that the
// parent-level agreement in redset.cpp names the member that actually failed.
#pragma once

#include "common/status.hpp"
#include "redset/set.hpp"

namespace scr::redset {

// Collective over the set: Ok everywhere if every member succeeded; else each
// member gets its own error, or that of the lowest failing member prefixed
// with its world rank.
Status agree_in_set(const Set& set, const Status& local);

}  // namespace scr::redset
