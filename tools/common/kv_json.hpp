// A metadata tree as JSON: "KEY = VALUE" becomes "KEY": "VALUE", a key with
// a subtree becomes an object, a bare key (no value) null. Values stay
// strings, as they are in the tree.
#pragma once

#include "common/json.hpp"
#include "kvtree/tree.hpp"

namespace scr::tools {

Json tree_to_json(const kv::Tree& tree);

}  // namespace scr::tools
