// scr_index --build ID|NAME: check a flushed dataset's files against its
// summary and rebuild, in the prefix and without MPI, the files that are
// missing or damaged from the redundancy files the flush copied into
// .scr/scr.dataset.<id>/ (rt::rebuild_in_prefix, the same code scr_scavenge
// and the job's salvage use). Nothing is written unless every loss can be
// rebuilt, a rebuilt file appears only once it has the summary's size and
// CRC32C, and a rebuild that stops part way takes back what it wrote. As with SCR,
// a dataset that ends up complete and is missing from the index is then
// added to it (complete and flushed); an indexed entry is left as it is.
#include <cstdio>
#include <map>
#include <set>

#include "common/strings.hpp"
#include "io/path.hpp"
#include "redset/offline.hpp"
#include "runtime/prefix/prefix_rebuild.hpp"
#include "runtime/prefix/scr31/dataset_files.hpp"
#include "runtime/prefix/summary.hpp"
#include "tools/common/prefix_dir.hpp"
#include "tools/common/progress.hpp"
#include "tools/common/summary.hpp"
#include "tools/scr_index/command.hpp"
#include "tools/scr_index/dataset_files.hpp"
#include "tools/scr_index/index_edit.hpp"

namespace scr::tools::index_cmd {
namespace {

namespace offline = redset::offline;

std::string bullet_list(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += "\n  " + i;
  return out;
}

// An id given as a number (also of a dataset the index forgot), else a name.
Result<int> resolve_dataset(const Request& req, const rt::PrefixIndex& idx) {
  auto id = str::parse_int(req.value);
  if (id && *id >= 0 && *id <= INT32_MAX &&
      (idx.has(static_cast<int>(*id)) ||
       req.env.exists(rt::summary_path(req.prefix, static_cast<int>(*id)))))
    return static_cast<int>(*id);
  auto listed = find_dataset(req, idx, req.value);
  if (listed) return listed;
  // A name the index no longer lists (dropped, or the index rebuilt): the
  // dataset whose summary bears it, as --add finds it.
  Found found = find_summary(req, req.value);
  if (found.match && found.match->second.info.name == req.value) return found.match->first;
  return listed;
}

// The problems of one rank's files, as check_dataset_files sees them (its
// progress line names the rank).
FileCheck check_rank(const Request& req, int id, const Summary& summary, const RankFiles& rank) {
  Summary one = summary;
  one.per_rank = {rank};
  one.info.name += " rank " + std::to_string(rank.rank);
  return check_dataset_files(req.env, req.prefix, id, one);
}

// Ranks with anything wrong (application or redundancy files), with what.
struct Damage {
  std::set<int> suspects;  // application files fail: do not trust the rank's data
  std::vector<std::string> problems;
};

Damage find_damage(const Request& req, int id, const Summary& summary) {
  Damage d;
  for (const RankFiles& rank : summary.per_rank) {
    FileCheck c = check_rank(req, id, summary, rank);
    if (!c.problems.empty()) d.suspects.insert(rank.rank);
    for (auto* list : {&c.problems, &c.redundancy_problems})
      for (const auto& p : *list)
        d.problems.push_back("rank " + std::to_string(rank.rank) + ": " + p);
  }
  return d;
}

std::map<int, offline::Place> places_of(const Request& req, int id, const Summary& summary) {
  std::map<int, offline::Place> places;
  std::string dir = rt::prefix_dataset_dir(req.prefix, id);
  for (const RankFiles& rank : summary.per_rank)
    for (const SummaryFile& f : rank.redundancy)
      if (io::path::is_plain_name(f.name) && req.env.exists(io::path::join(dir, f.name)))
        places[rank.rank] = {req.prefix, io::path::join(dir, f.name)};
  return places;
}

// What the redundancy headers say a lost rank held must be what the summary
// lists, and stay out of .scr: the headers decide where files are written.
Status check_file_lists(const std::string& prefix, const offline::Survey& survey,
                        const Summary& summary) {
  for (const offline::LostRank& lost : survey.lost()) {
    SCR_ASSIGN_OR_RETURN(auto files, survey.files(lost.world_rank));
    std::map<std::string, uint64_t> in_header, in_summary;
    for (const auto& f : files) in_header[f.name] = f.meta.size;
    for (const auto& f : summary.per_rank[static_cast<size_t>(lost.world_rank)].files)
      in_summary[f.name] = f.size;
    if (in_header != in_summary)
      return Error(Errc::corrupt, "the redundancy headers list other files for rank " +
                                      std::to_string(lost.world_rank) + " than the summary");
    for (const auto& [name, size] : in_header)
      if (io::path::is_within(rt::prefix_scr_dir(prefix), io::path::join(prefix, name)))
        return Error(Errc::corrupt, "rank " + std::to_string(lost.world_rank) + " names " + name +
                                        ", inside the prefix's .scr directory");
  }
  return Status::Ok();
}

std::string hex32(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

// A rebuilt file must have the CRC32C the summary recorded (its size is
// the header's, which must equal the summary's: check_file_lists).
rt::PrefixRebuildOptions verifying_options(const Summary& summary, Progress& progress) {
  rt::PrefixRebuildOptions o;
  o.progress = [&progress](uint64_t n) { progress.add(n); };
  o.check = [&summary](int rank, const redset::FileEntry& f, uint32_t crc) -> Status {
    for (const SummaryFile& want : summary.per_rank[static_cast<size_t>(rank)].files)
      if (want.name == f.name && want.crc && crc != *want.crc)
        return Error(Errc::corrupt, "rebuilt " + f.name + " fails its CRC32C check (" + hex32(crc) +
                                        ", the summary says " + hex32(*want.crc) +
                                        "): the redundancy data is damaged");
    return Status::Ok();
  };
  return o;
}

size_t crc_count(const Summary& summary) {
  size_t n = 0;
  for (const RankFiles& rank : summary.per_rank)
    for (const SummaryFile& f : rank.files) n += f.crc ? 1 : 0;
  return n;
}

void say_rebuilt(const std::map<int, kv::Tree>& rebuilt, const std::string& scheme) {
  for (const auto& [rank, entry] : rebuilt) {
    std::vector<std::string> names;
    if (auto files = rt::summary_files(entry); files.ok())
      for (const auto& f : *files) names.push_back(f.name);
    if (auto red = rt::summary_redundancy(entry); red.ok())
      for (const auto& r : *red) names.push_back("its redundancy file " + r.name);
    std::printf("Rebuilt rank %d from %s data:%s\n", rank, scheme.c_str(), bullet_list(names).c_str());
  }
}

// Every loss can be rebuilt, for the job the summary describes.
Status check_survey(const std::string& prefix, const offline::Survey& survey,
                    const Summary& summary) {
  SCR_TRY(survey.verdict());
  if (survey.world_ranks != summary.ranks)
    return Error(Errc::corrupt,
                 "its redundancy files belong to a job of " + std::to_string(survey.world_ranks) +
                     " ranks, the summary to one of " + std::to_string(summary.ranks));
  return check_file_lists(prefix, survey, summary);
}

bool is_damage(const Status& st) {
  return st.code() == Errc::corrupt || st.code() == Errc::unrecoverable;
}

// The other ranks' files were verified before; now the rebuilt ones, in place.
std::vector<std::string> problems_after(const Request& req, int id, const Summary& summary,
                                        const std::map<int, kv::Tree>& rebuilt) {
  Summary rebuilt_ranks = summary;
  rebuilt_ranks.per_rank.clear();
  for (const auto& [rank, entry] : rebuilt) rebuilt_ranks.per_rank.push_back(summary.per_rank[static_cast<size_t>(rank)]);
  FileCheck after = check_dataset_files(req.env, req.prefix, id, rebuilt_ranks);
  std::vector<std::string> left = after.problems;
  left.insert(left.end(), after.redundancy_problems.begin(), after.redundancy_problems.end());
  return left;
}

// The dataset is complete in the prefix: add it when the index lacks it.
int index_if_missing(const Request& req, rt::PrefixIndex& idx, int id, const Summary& summary) {
  if (idx.has(id)) return exit_code::ok;
  if (auto other = idx.find_name(summary.info.name))
    return req.cli.fail(exit_code::refused, "not adding dataset " + std::to_string(id) +
                                                " to the index: its name '" + summary.info.name +
                                                "' is dataset " + std::to_string(*other) + "'s");
  adopt_entry(idx, summary);
  return save_and_say(req, idx,
                      "Added " + summary.info.name + " (dataset " + std::to_string(id) +
                          ") to the index as complete and flushed.");
}

// A dataset written with cache bypass has no redundancy files.
bool has_redundancy(const Summary& summary) {
  for (const auto& r : summary.per_rank)
    if (!r.redundancy.empty()) return true;
  return false;
}

// SCR 3.1 restarts from summary.scr and the rank2file map, which SCR++
// writes beside its own summary (summary.scrpp): when they cannot be read
// and SCR++'s summary is whole, they are written again from it. A dataset
// SCR 3.1 flushed has no summary.scrpp: its summary.scr is the one read.
Status mend_scr31_files(const Request& req, int id) {
  Status readable = scr31_files_readable(req.env, req.prefix, id);
  if (readable.ok() || readable.code() == Errc::io_error) return Status::Ok();
  SCR_ASSIGN_OR_RETURN(rt::Summary ours, rt::Summary::read(req.env, req.prefix, id));
  SCR_TRY(rt::scr31::write_dataset_files(req.env, req.prefix, ours.tree()));
  req.cli.note("SCR 3.1's summary.scr and rank2file of dataset " + std::to_string(id) + " could not be read (" +
               readable.message() + "): written again from SCR++'s summary.scrpp");
  return Status::Ok();
}

}  // namespace

int build_dataset(const Request& req) {
  // Adding to the prefix is what a damaged index must not stop.
  auto idx = open_index_to_add(req.env, req.prefix);
  if (!idx) return req.cli.fail(idx.status());
  auto id = resolve_dataset(req, *idx);
  if (!id) return req.cli.fail(id.status());
  auto summary = read_summary(req.env, req.prefix, *id);
  if (!summary) return req.cli.fail(summary.status().with_context("dataset " + req.value));
  const std::string& name = summary->info.name;

  Damage damage = find_damage(req, *id, *summary);
  if (damage.problems.empty()) {
    std::printf("All %zu files of %s (dataset %d)%s verified; nothing to rebuild.\n",
                summary->file_count(), name.c_str(), *id,
                has_redundancy(*summary) ? " and its redundancy files" : "");
    if (Status mended = mend_scr31_files(req, *id); !mended.ok())
      return req.cli.fail(mended.with_context("dataset " + req.value + ": SCR 3.1's summary"));
    return index_if_missing(req, *idx, *id, *summary);
  }
  req.cli.note(name + ": " + std::to_string(damage.problems.size()) +
               (damage.problems.size() == 1 ? " problem" : " problems") +
               " found:" + bullet_list(damage.problems));
  offline::Survey survey = offline::survey(req.env, places_of(req, *id, *summary), damage.suspects);
  if (Status ready = check_survey(req.prefix, survey, *summary); !ready.ok())
    return req.cli.fail(exit_code::bad_data, "cannot rebuild " + name + ": " + ready.message() +
                                                 "; nothing was changed");

  // Stopping part way, it takes back what it wrote: the prefix is left as
  // it was, for --build to be run again once the cause is mended.
  Progress progress("rebuilding " + name, survey.rebuild_bytes());
  auto rebuilt = rt::rebuild_in_prefix(req.env, survey, req.prefix, *id, verifying_options(*summary, progress));
  progress.finish();
  if (!rebuilt)
    return req.cli.fail(is_damage(rebuilt.status()) ? exit_code::bad_data : exit_code::failed,
                        "rebuilding " + name + ": " + rebuilt.status().message());
  say_rebuilt(rebuilt->entries, redset::scheme_name(survey.sets.front().shape.scheme));
  if (auto left = problems_after(req, *id, *summary, rebuilt->entries); !left.empty())
    return req.cli.fail(exit_code::bad_data,
                        name + " still has problems after the rebuild:" + bullet_list(left));
  std::printf("%s (dataset %d): all %zu files and the redundancy files verified (sizes%s).\n",
              name.c_str(), *id, summary->file_count(),
              summary->file_count() == crc_count(*summary) ? " and CRC32C" : "");
  if (Status mended = mend_scr31_files(req, *id); !mended.ok())
    return req.cli.fail(mended.with_context("dataset " + req.value + ": SCR 3.1's summary"));
  return index_if_missing(req, *idx, *id, *summary);
}

}  // namespace scr::tools::index_cmd
