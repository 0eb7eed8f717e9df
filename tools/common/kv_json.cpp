#include "tools/common/kv_json.hpp"

#include "kvtree/file_list.hpp"

namespace scr::tools {
namespace {

// A file list (binary) becomes an array of objects; any other value a string.
Json value_to_json(const std::string& value) {
  auto files = kv::decode_file_list(value);
  if (!files) return Json(value);
  Json list = Json::array();
  for (const auto& f : *files) {
    Json o = Json::object();
    o.set("name", Json(f.name));
    o.set("size", Json(f.size));
    if (f.crc) o.set("crc32c", Json(static_cast<int64_t>(*f.crc)));
    if (f.shared) o.set("shared", Json(true));
    if (f.attrs) {
      o.set("mode", Json(static_cast<int64_t>(f.attrs->mode)));
      o.set("uid", Json(static_cast<int64_t>(f.attrs->uid)));
      o.set("gid", Json(static_cast<int64_t>(f.attrs->gid)));
      o.set("mtime", Json(static_cast<int64_t>(f.attrs->mtime.sec)));
    }
    list.push(std::move(o));
  }
  return list;
}

}  // namespace

Json tree_to_json(const kv::Tree& tree) {
  Json out = Json::object();
  for (const auto& [key, sub] : tree.children()) {
    if (sub->empty())
      out.set(key, Json());
    else if (auto v = tree.value(key); v && sub->children().begin()->second->empty())
      out.set(key, value_to_json(*v));
    else
      out.set(key, tree_to_json(*sub));
  }
  return out;
}

}  // namespace scr::tools
