#include "redset/offline.hpp"

#include <algorithm>
#include <optional>

#include "common/strings.hpp"
#include "io/path.hpp"
#include "kvtree/codec.hpp"
#include "redset/coded_layout.hpp"
#include "redset/headers.hpp"
#include "redset/offline_set.hpp"
#include "redset/partner_layout.hpp"

namespace scr::redset::offline {
namespace {

// --- learning the sets ---------------------------------------------------------

// The set a readable header says its writer belongs to.
std::optional<SetShape> shape_in_header(const Header& h) {
  const kv::Tree* desc = h.tree.at({"DESC", std::to_string(h.tree.int_or("RANK", -1)), "DESC"});
  if (!desc) return std::nullopt;
  auto shape = SetShape::from_desc(*desc);
  if (!shape) return std::nullopt;
  return *shape;
}

// Each set as most of the headers found for it describe it, by set id; a
// header that describes another layout (another job, an older apply) is
// outvoted, and its member is then found lost by the checks that follow.
std::map<int, SetShape> learn_sets(const std::map<int, MemberFacts>& facts) {
  std::map<int, std::map<std::string, std::pair<int, SetShape>>> votes;
  for (const auto& [w, f] : facts) {
    if (!f.header) continue;
    if (auto shape = shape_in_header(*f.header)) {
      auto& vote = votes[shape->group][kv::encode(shape->desc(0))];
      ++vote.first;
      vote.second = std::move(*shape);
    }
  }
  std::map<int, SetShape> sets;
  for (auto& [group, by_layout] : votes) {
    auto best = std::max_element(
        by_layout.begin(), by_layout.end(),
        [](const auto& a, const auto& b) { return a.second.first < b.second.first; });
    sets.emplace(group, best->second.second);
  }
  return sets;
}

// --- one set -------------------------------------------------------------------------

HeaderCheck scheme_check(const SetShape& shape, int member) {
  switch (shape.scheme) {
    case Scheme::xor_code: return chunk_check(1);
    case Scheme::rs: return chunk_check(shape.failures);
    case Scheme::partner: return replica_check(shape, member);
    case Scheme::single: break;
  }
  return [](const Header&, uint64_t) { return Status::Ok(); };
}

SelfCheck lost_because(std::string why) {
  SelfCheck c;
  c.why = std::move(why);
  return c;
}

// The checks of recover()'s survey (check_self), plus what only matters
// when files were gathered by someone else: is the file there, under its
// name, and did the caller find the rank's data intact.
SelfCheck check_member(const SetShape& shape, int member, const std::map<int, MemberFacts>& facts,
                       const std::set<int>& suspects) {
  int w = shape.members[static_cast<size_t>(member)];
  auto f = facts.find(w);
  if (f == facts.end()) return lost_because("its redundancy file is gone");
  if (suspects.count(w)) return lost_because("its files failed verification");
  std::string name = io::path::basename(f->second.redundancy_file);
  if (name != shape.file_name(member))
    return lost_because("its redundancy file is " + name + ", expected " + shape.file_name(member));
  return check_facts(shape, member, f->second, scheme_check(shape, member));
}

// Every member's DESC entry, from the nearest intact member keeping it; for
// a set that can be rebuilt, the lost members' own entries must describe them.
Status collect_entries(SetState& st) {
  const SetShape& shape = st.shape;
  for (int x = 0; x < shape.ranks(); ++x) {
    int keeper = st.loss.keeper(shape.ranks(), x, shape.width());
    if (keeper < 0) continue;
    if (const kv::Tree* e = st.headers.at(keeper).tree.at({"DESC", std::to_string(x)}))
      st.entries[x] = *e;
  }
  for (int e : st.loss.lost)
    for (int d = 0; d <= shape.width(); ++d) {
      int x = shape.left(e, d);
      if (!st.entries.count(x))
        return Error(Errc::unrecoverable,
                     "the metadata of rank " +
                         std::to_string(shape.members[static_cast<size_t>(x)]) +
                         " was lost with every copy of it");
    }
  for (int e : st.loss.lost) {
    const kv::Tree* desc = st.entries[e].get("DESC");
    if (!desc || *desc != shape.desc(e))
      return Error(Errc::corrupt, "the metadata copy of rank " +
                                      std::to_string(shape.members[static_cast<size_t>(e)]) +
                                      " belongs to another set");
  }
  return Status::Ok();
}

SetState survey_set(const SetShape& shape, const std::map<int, MemberFacts>& facts,
                    const std::set<int>& suspects) {
  SetState st;
  st.shape = shape;
  int p = shape.ranks();
  std::vector<SelfCheck> checks;
  std::vector<bool> intact;
  std::vector<uint64_t> chunks;
  for (int r = 0; r < p; ++r) {
    checks.push_back(check_member(shape, r, facts, suspects));
    intact.push_back(checks.back().intact);
    chunks.push_back(intact.back() ? checks.back().header.tree.uint_or("CHUNK", 0) : 0);
  }
  st.loss = loss_from_votes(intact, chunks);
  for (int r = 0; r < p; ++r) {
    if (!st.loss.contains(r)) {
      st.headers[r] = std::move(checks[static_cast<size_t>(r)].header);
      continue;
    }
    st.why[r] = intact[static_cast<size_t>(r)]
                    ? "its CHUNK " + std::to_string(chunks[static_cast<size_t>(r)]) +
                          " differs from the set's " + std::to_string(st.loss.chunk)
                    : checks[static_cast<size_t>(r)].why;
  }
  st.verdict = check_tolerance(shape, st.loss);
  Status entries = collect_entries(st);
  if (st.verdict.ok()) st.verdict = entries;
  return st;
}

// --- the sets together -----------------------------------------------------------

// Sets must agree on the job (world size, number of sets) and not overlap.
Status check_layout(const Survey& s) {
  if (s.sets.empty())
    return Error(Errc::unrecoverable, s.found == 0 ? "there are no redundancy files"
                                                       : "no redundancy file header could be read");
  std::vector<int> seen(static_cast<size_t>(s.world_ranks), 0);
  for (const SetState& st : s.sets) {
    if (st.shape.world_ranks != s.world_ranks || st.shape.groups != s.sets.front().shape.groups)
      return Error(Errc::corrupt, "redundancy files of different jobs are mixed: set " +
                                      std::to_string(st.shape.group) + " belongs to a job of " +
                                      std::to_string(st.shape.world_ranks) + " ranks, set " +
                                      std::to_string(s.sets.front().shape.group) + " to one of " +
                                      std::to_string(s.world_ranks));
    for (int w : st.shape.members)
      if (seen[static_cast<size_t>(w)]++)
        return Error(Errc::corrupt, "rank " + std::to_string(w) + " is in two redundancy sets");
  }
  return Status::Ok();
}

}  // namespace

Survey survey(io::Env& env, const std::map<int, Place>& places, const std::set<int>& suspects) {
  std::map<int, MemberFacts> facts;
  for (const auto& [w, place] : places)
    facts[w] = read_member_facts(env, place.data_dir, place.redundancy_file);
  Survey s = survey_facts(facts, suspects);
  s.places = places;
  return s;
}

Survey survey_facts(const std::map<int, MemberFacts>& facts, const std::set<int>& suspects) {
  Survey s;
  s.found = facts.size();
  for (const auto& [group, shape] : learn_sets(facts))
    s.sets.push_back(survey_set(shape, facts, suspects));
  if (!s.sets.empty()) s.world_ranks = s.sets.front().shape.world_ranks;
  if (!check_layout(s).ok()) return s;
  std::vector<bool> covered(static_cast<size_t>(s.world_ranks), false);
  for (const SetState& st : s.sets)
    for (int w : st.shape.members) covered[static_cast<size_t>(w)] = true;
  for (int w = 0; w < s.world_ranks; ++w)
    if (!covered[static_cast<size_t>(w)]) s.unknown_ranks.push_back(w);
  return s;
}

Status Survey::verdict() const {
  SCR_TRY(check_layout(*this));
  std::string why;
  Errc code = Errc::unrecoverable;
  if (!unknown_ranks.empty())
    why = "ranks " + str::join_ints(unknown_ranks) +
          " are in no redundancy set whose header could be read (every member's redundancy "
          "file of their set is gone or damaged)";
  for (const SetState& st : sets) {
    if (st.verdict.ok()) continue;
    if (st.verdict.code() == Errc::corrupt) code = Errc::corrupt;
    why += (why.empty() ? "" : "; ") + st.verdict.message();
  }
  return why.empty() ? Status::Ok() : Error(code, why);
}

std::vector<LostRank> Survey::lost() const {
  std::vector<LostRank> out;
  for (const SetState& st : sets)
    for (int r : st.loss.lost)
      out.push_back({st.shape.members[static_cast<size_t>(r)], st.shape.group, st.why.at(r)});
  for (int w : unknown_ranks) out.push_back({w, -1, "no header of its redundancy set survived"});
  std::sort(out.begin(), out.end(),
            [](const LostRank& a, const LostRank& b) { return a.world_rank < b.world_rank; });
  return out;
}

Result<std::vector<FileEntry>> Survey::files(int world_rank) const {
  for (const SetState& st : sets) {
    auto at = std::find(st.shape.members.begin(), st.shape.members.end(), world_rank);
    if (at == st.shape.members.end()) continue;
    auto entry = st.entries.find(static_cast<int>(at - st.shape.members.begin()));
    if (entry == st.entries.end()) break;
    return files_from_tree(entry->second);
  }
  return Error(Errc::not_found, "the file list of rank " + std::to_string(world_rank) +
                                    " was lost with every copy of it");
}

uint64_t Survey::rebuild_bytes() const {
  uint64_t n = 0;
  for (const SetState& st : sets)
    for (int e : st.loss.lost) {
      if (st.shape.scheme != Scheme::partner) {
        n += st.loss.chunk * static_cast<uint64_t>(st.shape.ranks());  // every symbol of e
        continue;
      }
      for (int d = 0; d <= st.shape.replicas; ++d)  // its own files and its replicas
        if (auto it = st.entries.find(st.shape.left(e, d)); it != st.entries.end())
          n += entry_size(it->second).ok() ? *entry_size(it->second) : 0;
    }
  return n;
}

std::vector<std::string> rebuild_paths(const Survey& survey, const Target& target) {
  std::vector<std::string> paths;
  for (const SetState& st : survey.sets)
    for (int e : st.loss.lost)
      if (auto place = detail::lost_place(st, e, target); place.ok()) {
        auto more = place->paths();
        paths.insert(paths.end(), more.begin(), more.end());
      }
  return paths;
}

Result<std::vector<RebuiltRank>> rebuild(io::Env& env, const Survey& survey, const Target& target,
                                         const Options& options) {
  SCR_TRY(survey.verdict());
  std::vector<RebuiltRank> out;
  for (const SetState& st : survey.sets) {
    if (st.loss.lost.empty()) continue;
    Status done = st.shape.scheme == Scheme::partner
                      ? detail::rebuild_partner(env, survey, st, target, options, &out)
                      : detail::rebuild_coded(env, survey, st, target, options, &out);
    SCR_TRY(done.with_context(std::string(scheme_name(st.shape.scheme)) + " set " +
                              std::to_string(st.shape.group)));
  }
  return out;
}

}  // namespace scr::redset::offline
