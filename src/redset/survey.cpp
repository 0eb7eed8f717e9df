#include "redset/survey.hpp"

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
                     const std::string& redfile, const HeaderCheck& check, bool files_checked) {
  return check_self(env, set.shape(), set.rank(), dir, redfile, check, files_checked);
}

SelfCheck check_self(io::Env& env, const SetShape& shape, int member, const std::string& dir,
                     const std::string& redfile, const HeaderCheck& check, bool files_checked) {
  return check_facts(shape, member, read_member_facts(env, dir, redfile, files_checked), check);
}

MemberFacts read_member_facts(io::Env& env, const std::string& dir, const std::string& redfile,
                              bool files_checked) {
  MemberFacts f;
  f.redundancy_file = redfile;
  auto header = read_header(env, redfile);
  if (!header) {
    f.header_error = header.status().message();
    return f;
  }
  f.header = std::move(*header);
  if (auto size = env.stat(redfile))
    f.size = size->size;
  else
    f.size_error = size.status().message();
  auto files = entry_files(f.header->tree, static_cast<int>(f.header->tree.int_or("RANK", -1)));
  f.files_present = files_checked || (files && files_present(env, dir, *files));
  return f;
}

SelfCheck check_facts(const SetShape& shape, int member, const MemberFacts& f,
                      const HeaderCheck& check) {
  const std::string& redfile = f.redundancy_file;
  if (!f.header) return lost_because(f.header_error);
  if (Status st = check_header(shape, member, f.header->tree); !st.ok())
    return lost_because(redfile + ": " + st.message());
  if (!f.size) return lost_because(f.size_error);
  if (Status st = check(*f.header, *f.size); !st.ok())
    return lost_because(redfile + ": " + st.message());
  auto files = entry_files(f.header->tree, member);
  if (!files) return lost_because(redfile + ": " + files.status().message());
  if (!f.files_present) return lost_because("data files are missing or truncated");
  SelfCheck c;
  c.intact = true;
  c.header = *f.header;
  c.files = std::move(*files);
  return c;
}

bool SetLoss::contains(int member) const {
  return std::binary_search(lost.begin(), lost.end(), member);
}

int SetLoss::keeper(const Set& set, int member, int width) const {
  return keeper(set.ranks(), member, width);
}

int SetLoss::keeper(int ranks, int member, int width) const {
  for (int d = 0; d <= width; ++d) {
    int h = (member + d) % ranks;
    if (!contains(h)) return h;
  }
  return -1;
}

SetLoss loss_from_votes(const std::vector<bool>& intact, const std::vector<uint64_t>& chunks) {
  std::map<uint64_t, int> votes;
  for (size_t r = 0; r < intact.size(); ++r)
    if (intact[r]) ++votes[chunks[r]];
  SetLoss loss;
  if (!votes.empty())
    loss.chunk = std::max_element(votes.begin(), votes.end(), [](const auto& a, const auto& b) {
                   return a.second < b.second;
                 })->first;
  for (size_t r = 0; r < intact.size(); ++r)
    if (!intact[r] || chunks[r] != loss.chunk) loss.lost.push_back(static_cast<int>(r));
  return loss;
}

SetLoss agree_loss(const Set& set, SelfCheck& self, uint64_t chunk) {
  auto all = mpi::allgather_pairs(set.comm(), {self.intact ? 1u : 0u, chunk});
  std::vector<bool> intact;
  std::vector<uint64_t> chunks;
  for (const auto& [member_intact, member_chunk] : all) {
    intact.push_back(member_intact != 0);
    chunks.push_back(member_chunk);
  }
  SetLoss loss = loss_from_votes(intact, chunks);
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

namespace {

Status too_many_lost(const SetShape& shape, const SetLoss& loss, const std::string& rule) {
  std::string who;
  for (int r : loss.lost) {
    if (!who.empty()) who += ", ";
    who +=
        std::to_string(r) + " (rank " + std::to_string(shape.members[static_cast<size_t>(r)]) + ")";
  }
  return Error(Errc::unrecoverable, std::string(scheme_name(shape.scheme)) + " set " +
                                        std::to_string(shape.group) +
                                        " lost the files of members " + who + "; " + rule);
}

}  // namespace

Status check_tolerance(const SetShape& shape, const SetLoss& loss) {
  int lost = static_cast<int>(loss.lost.size());
  switch (shape.scheme) {
    case Scheme::single:
      if (lost == 0) return Status::Ok();
      return too_many_lost(shape, loss, "SINGLE keeps no redundancy data");
    case Scheme::xor_code:
      if (lost <= 1) return Status::Ok();
      return too_many_lost(shape, loss, "XOR rebuilds at most one member per set");
    case Scheme::rs:
      if (lost <= shape.failures) return Status::Ok();
      return too_many_lost(shape, loss,
                           "RS with " + std::to_string(shape.failures) +
                               " check chunks rebuilds at most " + std::to_string(shape.failures) +
                               " members per set");
    case Scheme::partner:
      for (int e : loss.lost)
        if (loss.keeper(shape.ranks(), e, shape.replicas) < 0)
          return too_many_lost(shape, loss,
                               "PARTNER with " + std::to_string(shape.replicas) +
                                   " replicas cannot rebuild a member lost together with the " +
                                   std::to_string(shape.replicas) +
                                   " members to its right that keep its copies");
      return Status::Ok();
  }
  return Status::Ok();
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
