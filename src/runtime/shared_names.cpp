#include "runtime/shared_names.hpp"

#include <set>

#include "common/crc32c.hpp"

namespace scr::rt {
namespace {

int referee_of(const std::string& name, int ranks) {
  return static_cast<int>(crc32c(name.data(), name.size()) % static_cast<uint32_t>(ranks));
}

struct Routers {
  std::set<int> ranks;
  std::set<std::string> nodes;
};

}  // namespace

std::map<std::string, SharedName> survey_shared_names(const mpi::Comm& world,
                                                      const std::string& node,
                                                      const std::vector<std::string>& names) {
  // Round 1: names to their referees, with the sender's node.
  std::map<int, kv::Tree> send;
  for (const auto& name : names) {
    kv::Tree& t = send[referee_of(name, world.size())];
    t.set("NODE", node);
    t.child("NAME").child(name);
  }
  std::map<std::string, Routers> judged;
  for (const auto& [source, t] : mpi::exchange_trees(world, send)) {
    std::string from_node = t.value_or("NODE", "");
    if (const kv::Tree* list = t.get("NAME"))
      for (const auto& [name, unused] : list->children()) {
        Routers& r = judged[name];
        r.ranks.insert(source);
        r.nodes.insert(from_node);
      }
  }
  // Round 2: each router of a shared name hears who owns it and where it lives.
  std::map<int, kv::Tree> replies;
  for (const auto& [name, r] : judged) {
    if (r.ranks.size() < 2) continue;
    for (int rank : r.ranks) {
      kv::Tree& e = replies[rank].child(name);
      e.set_int("OWNER", *r.ranks.begin());
      for (const auto& n : r.nodes) e.child("NODES").child(n);
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
