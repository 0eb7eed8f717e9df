#include "runtime/transfer/shared_names.hpp"

#include <algorithm>
#include <set>

#include "common/crc32c.hpp"
#include "kvtree/file_list.hpp"

namespace scr::rt {
namespace {

int referee_of(const std::string& name, int ranks) {
  return static_cast<int>(crc32c(name.data(), name.size()) % static_cast<uint32_t>(ranks));
}

// Names travel as compact file lists: a dataset may have many thousands.
kv::Tree names_message(const std::string& node, std::vector<kv::FileRecord> names) {
  kv::Tree t;
  t.set("NODE", node);
  kv::put_file_list(t, "NAMES", names);
  return t;
}

}  // namespace

std::map<std::string, SharedName> survey_shared_names(const mpi::Comm& world,
                                                      const std::string& node,
                                                      const std::vector<std::string>& names) {
  // Round 1: names to their referees, with the sender's node.
  std::map<int, std::vector<kv::FileRecord>> by_referee;
  for (const auto& name : names) by_referee[referee_of(name, world.size())].push_back({name, 0, {}, false, {}});
  std::map<int, kv::Tree> send;
  for (auto& [referee, list] : by_referee) send[referee] = names_message(node, std::move(list));
  by_referee.clear();

  // Every (name, router) pair received, sorted by name: a name routed more
  // than once is a run of equal names (routers in rank order).
  struct Routed {
    std::string name;
    int rank;
    std::string node;
  };
  std::vector<Routed> routed;
  for (auto& [source, t] : mpi::exchange_trees(world, send)) {
    std::string from_node = t.value_or("NODE", "");
    auto list = kv::get_file_list(t, "NAMES");
    if (!list) continue;  // built just above by a process of this job
    for (auto& f : *list) routed.push_back({std::move(f.name), source, from_node});
  }
  send.clear();
  std::sort(routed.begin(), routed.end(),
            [](const Routed& a, const Routed& b) { return a.name != b.name ? a.name < b.name : a.rank < b.rank; });

  // Round 2: each router of a shared name hears who owns it and where it lives.
  std::map<int, kv::Tree> replies;
  for (size_t i = 0, j = 0; i < routed.size(); i = j) {
    for (j = i + 1; j < routed.size() && routed[j].name == routed[i].name;) ++j;
    if (j - i < 2) continue;
    std::set<std::string> nodes;
    for (size_t k = i; k < j; ++k) nodes.insert(routed[k].node);
    for (size_t k = i; k < j; ++k) {
      kv::Tree& e = replies[routed[k].rank].child(routed[i].name);
      e.set_int("OWNER", routed[i].rank);
      for (const auto& n : nodes) e.child("NODES").child(n);
    }
  }
  std::map<std::string, SharedName> out;
  for (const auto& [source, t] : mpi::exchange_trees(world, replies))
    for (const auto& [name, e] : t.children()) {
      SharedName s;
      s.owner = static_cast<int>(e->int_or("OWNER", 0));
      if (const kv::Tree* nodes = e->get("NODES"))
        for (const auto& [n, unused] : nodes->children()) s.nodes.push_back(n);
      out[name] = std::move(s);
    }
  return out;
}

}  // namespace scr::rt
