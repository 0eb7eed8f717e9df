#include "redset/survey.hpp"

#include <mpi.h>

#include <algorithm>
#include <array>

#include "common/log.hpp"
#include "mpi/comm.hpp"
#include "redset/headers.hpp"

namespace scr::redset {
namespace {

SelfCheck lost_because(std::string why) {
  SelfCheck c;
  c.why = std::move(why);
  return c;
}

}  // namespace

SelfCheck check_self(io::Env& env, const Set& set, const std::string& dir,
                     const std::string& redfile, const HeaderCheck& check) {
  auto header = read_header(env, redfile);
  if (!header) return lost_because(header.status().message());
  if (Status st = check_header(set, header->tree); !st.ok())
    return lost_because(redfile + ": " + st.message());
  auto size = env.stat(redfile);
  if (!size) return lost_because(size.status().message());
  if (Status st = check(*header, size->size); !st.ok())
    return lost_because(redfile + ": " + st.message());
  auto files = entry_files(header->tree, set.rank());
  if (!files) return lost_because(redfile + ": " + files.status().message());
  if (!files_present(env, dir, *files)) return lost_because("data files are missing or truncated");
  SelfCheck c;
  c.intact = true;
  c.header = std::move(*header);
  c.files = std::move(*files);
  return c;
}

bool SetLoss::contains(int member) const {
  return std::binary_search(lost.begin(), lost.end(), member);
}

int SetLoss::keeper(const Set& set, int member, int width) const {
  for (int d = 0; d <= width; ++d) {
    int h = (member + d) % set.ranks();
    if (!contains(h)) return h;
  }
  return -1;
}

SetLoss agree_loss(const Set& set, SelfCheck& self, uint64_t chunk) {
  std::array<uint64_t, 2> mine = {self.intact ? 1u : 0u, chunk};
  std::vector<uint64_t> all(2 * static_cast<size_t>(set.ranks()));
  MPI_Allgather(mine.data(), 2, MPI_UINT64_T, all.data(), 2, MPI_UINT64_T, set.comm().raw());
  std::map<uint64_t, int> votes;
  for (int r = 0; r < set.ranks(); ++r)
    if (all[2 * r]) ++votes[all[2 * r + 1]];
  SetLoss loss;
  if (!votes.empty())
    loss.chunk = std::max_element(votes.begin(), votes.end(), [](const auto& a, const auto& b) {
                   return a.second < b.second;
                 })->first;
  for (int r = 0; r < set.ranks(); ++r)
    if (!all[2 * r] || all[2 * r + 1] != loss.chunk) loss.lost.push_back(r);
  if (self.intact && loss.contains(set.rank())) {
    self.intact = false;
    self.why = "its CHUNK " + std::to_string(chunk) + " differs from the set's " +
               std::to_string(loss.chunk);
  }
  if (!self.intact)
    log::debug(1, "redundancy set " + std::to_string(set.group()) + " member " +
                      std::to_string(set.rank()) + " lost its files: " + self.why);
  return loss;
}

Status too_many_lost(const Set& set, const SetLoss& loss, const std::string& rule) {
  std::string who;
  for (int r : loss.lost) {
    if (!who.empty()) who += ", ";
    who +=
        std::to_string(r) + " (rank " + std::to_string(set.members()[static_cast<size_t>(r)]) + ")";
  }
  return Error(Errc::unrecoverable, std::string(scheme_name(set.scheme())) + " set " +
                                        std::to_string(set.group()) +
                                        " lost the files of members " + who + "; " + rule);
}

Result<std::map<int, kv::Tree>> fetch_lost_entries(const Set& set, const SetLoss& loss,
                                                   const SelfCheck& self) {
  int width = header_width(set);
  std::map<int, kv::Tree> send;
  for (int e : loss.lost)
    for (int d = 0; d <= width; ++d) {
      int x = (e - d + set.ranks()) % set.ranks();
      if (loss.keeper(set, x, width) != set.rank()) continue;
      send[e].child(std::to_string(x)) = *self.header.tree.at({"DESC", std::to_string(x)});
    }
  std::map<int, kv::Tree> got = mpi::exchange_trees(set.comm(), send);
  std::map<int, kv::Tree> entries;
  if (!loss.contains(set.rank())) return entries;
  for (auto& [from, tree] : got)
    for (const auto& [key, entry] : tree.children()) entries[std::stoi(key)] = *entry;
  for (int d = 0; d <= width; ++d) {
    int x = set.left(d);
    if (!entries.count(x))
      return Error(Errc::unrecoverable, "the metadata of set member " + std::to_string(x) +
                                            " was lost with every copy of it");
  }
  const kv::Tree* desc = entries[set.rank()].get("DESC");
  if (!desc || *desc != set.desc())
    return Error(Errc::corrupt, "the metadata copy of this member belongs to another set");
  return entries;
}

}  // namespace scr::redset
