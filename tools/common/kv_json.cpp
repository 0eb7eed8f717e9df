#include "tools/common/kv_json.hpp"

namespace scr::tools {

Json tree_to_json(const kv::Tree& tree) {
  Json out = Json::object();
  for (const auto& [key, sub] : tree.children()) {
    if (sub->empty())
      out.set(key, Json());
    else if (auto v = tree.value(key); v && sub->children().begin()->second->empty())
      out.set(key, *v);
    else
      out.set(key, tree_to_json(*sub));
  }
  return out;
}

}  // namespace scr::tools
