#include "runtime/prefix/scr31/dataset_files.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <vector>

#include "io/files.hpp"
#include "io/path.hpp"
#include "kvtree/file_list.hpp"
#include "kvtree/veloc_file.hpp"
#include "runtime/prefix/prefix_index.hpp"
#include "runtime/prefix/scr31/shared_format.hpp"

namespace scr::rt::scr31 {
namespace {

// Levels of a rank2file map SCR++ follows: KVTree's writer adds one level
// per ~1 MiB of entries per writer, so a handful covers any real job.
constexpr int kMaxLevels = 8;
// Most ranks a map may claim: every rank gets an entry in SCR++'s view, so a
// few bytes claiming 2^31 ranks must be refused, not allocated.
constexpr int64_t kMaxRanks = int64_t{1} << 22;

// SCR++ reads only files inside the prefix and outside its .scr: anything
// else is refused (as the application's own names are). SCR 3.1 itself may
// have followed such a name, so this says nothing about the data: the
// dataset is not marked failed for it.
Status check_name(const std::string& root, int64_t rank, const std::string& name, const std::string& norm) {
  std::string first = norm.substr(0, norm.find('/'));
  if (name.empty() || io::path::is_absolute(name) || norm == "." || first == ".." || first == ".scr")
    return Error(Errc::invalid_argument, root + ": rank " + std::to_string(rank) + " lists '" + name +
                                             "', which SCR++ does not read (outside the prefix or in its .scr)");
  return Status::Ok();
}

std::string map_path(const std::string& prefix, int id) {
  return io::path::join(prefix_dataset_dir(prefix, id), "rank2file");
}

Status corrupt(const std::string& where, const std::string& why) { return Error(Errc::corrupt, where + ": " + why); }

// A part's name is the root's with ".<level>.<rank>" appended: anything else
// could point outside the dataset's directory.
bool is_part_suffix(const std::string& s) {
  if (s.size() < 4 || s[0] != '.') return false;
  size_t dot = s.find('.', 1);
  if (dot == std::string::npos || dot == 1 || dot + 1 == s.size()) return false;
  auto digits = [&](size_t from, size_t to) {
    return std::all_of(s.begin() + static_cast<long>(from), s.begin() + static_cast<long>(to),
                       [](char c) { return c >= '0' && c <= '9'; });
  };
  return digits(1, dot) && digits(dot + 1, s.size());
}

// Walk the map from `path` (the root, or a part at level `want_level`),
// collecting the level-0 entries RANK/<r> into `ranks`. Each level points
// only one level down, and no part is read twice: a damaged or hostile map
// cannot make the walk loop or fan out.
Status walk(io::Env& env, const std::string& root, const std::string& path, std::optional<int64_t> want_level,
            int64_t ranks_expected, std::set<std::string>& seen, kv::Tree& ranks) {
  if (!seen.insert(path).second) return corrupt(root, "part " + path + " is named twice");
  SCR_ASSIGN_OR_RETURN(kv::Tree part, io::read_any_tree(env, path));
  auto level = part.get_int("LEVEL");
  if (!level || *level < 0 || *level > kMaxLevels || (want_level && *level != *want_level))
    return corrupt(path, "LEVEL = " + part.value_or("LEVEL", "(absent)") +
                             (want_level ? ", expected " + std::to_string(*want_level) : std::string()));
  if (part.int_or("RANKS", -1) != ranks_expected)
    return corrupt(path, "RANKS = " + part.value_or("RANKS", "(absent)") + " where the map has " +
                             std::to_string(ranks_expected));
  const kv::Tree* entries = part.get("RANK");
  if (*level == 0) {
    if (entries) ranks.merge(*entries);
    return Status::Ok();
  }
  if (!entries) return Status::Ok();
  for (const auto& [writer, ptr] : entries->children()) {
    std::string suffix = ptr->value_or("FILE", "");
    if (!is_part_suffix(suffix)) return corrupt(path, "part name '" + suffix + "' is not .<level>.<rank>");
    if (ptr->int_or("OFFSET", 0) != 0) return corrupt(path, "a part at a non-zero offset");
    SCR_TRY(walk(env, root, root + suffix, *level - 1, ranks_expected, seen, ranks));
  }
  return Status::Ok();
}

}  // namespace

Status stage_dataset_files(const std::string& prefix, const kv::Tree& ours, io::StagedFiles& out) {
  const kv::Tree* desc = ours.get("DSET");
  if (!desc) return Error(Errc::invalid_argument, "summary without a descriptor");
  int id = static_cast<int>(desc->int_or("ID", 0));
  int64_t ranks = ours.int_or("RANKS", 0);
  std::string root = map_path(prefix, id);
  uint64_t count = 0, bytes = 0;  // what SCR records for the whole dataset
  kv::Tree top;
  top.set_int("LEVEL", 1);
  top.set_int("RANKS", ranks);
  for (int64_t first = 0; first < ranks; first += kRanksPerPart) {
    kv::Tree part;
    part.set_int("LEVEL", 0);
    part.set_int("RANKS", ranks);
    for (int64_t r = first; r < std::min<int64_t>(ranks, first + kRanksPerPart); ++r) {
      kv::Tree& entry = part.child("RANK", std::to_string(r));
      const kv::Tree* theirs = ours.at({"RANK", std::to_string(r)});
      if (!theirs) continue;
      SCR_ASSIGN_OR_RETURN(std::vector<kv::FileRecord> files, kv::get_file_list(*theirs, "FILELIST"));
      for (const auto& f : files) {
        entry.child("FILE").child(f.name);
        ++count;
        if (!f.shared) bytes += f.size;  // a shared file counts once, with its owner
      }
    }
    std::string suffix = ".0." + std::to_string(first);
    SCR_TRY(out.stage(root + suffix, kv::veloc::encode(part)));
    kv::Tree& ptr = top.child("RANK", std::to_string(first));
    ptr.set("FILE", suffix);
    ptr.set_int("OFFSET", 0);
  }
  SCR_TRY(out.stage(root, kv::veloc::encode(top)));
  kv::Tree summary;
  summary.set_int("VERSION", kSummaryVersion);
  summary.set_int("COMPLETE", 1);
  kv::Tree d = *desc;
  d.set_uint("FILES", count);
  d.set_uint("SIZE", bytes);
  d.set_int("COMPLETE", 1);
  summary.put("DSET", descriptor_to_shared(d));
  return out.stage(io::path::join(prefix_dataset_dir(prefix, id), "summary.scr"), kv::veloc::encode(summary));
}

Status write_dataset_files(io::Env& env, const std::string& prefix, const kv::Tree& ours) {
  io::StagedFiles files(env);
  SCR_TRY(stage_dataset_files(prefix, ours, files));
  SCR_TRY(files.put_in_place());
  files.keep();
  return Status::Ok();
}

Result<kv::Tree> read_dataset_files(io::Env& env, const std::string& prefix, int id, const kv::Tree& theirs) {
  std::string root = map_path(prefix, id);
  const kv::Tree* shared_desc = theirs.get("DSET");
  if (!shared_desc) return corrupt(root, "its summary.scr has no descriptor (DSET)");
  kv::Tree desc = descriptor_from_shared(*shared_desc);
  desc.set_int("ID", id);  // the directory's id is the one the index knows
  desc.set_int("BYPASS", 1);
  SCR_ASSIGN_OR_RETURN(kv::Tree top, io::read_any_tree(env, root));
  auto ranks = top.get_int("RANKS");
  if (!ranks || *ranks <= 0 || *ranks > kMaxRanks)
    return corrupt(root, "RANKS = " + top.value_or("RANKS", "(absent)") + " is not a count of 1 to " +
                             std::to_string(kMaxRanks) + " ranks");
  kv::Tree by_rank;
  std::set<std::string> seen;
  SCR_TRY(walk(env, root, root, std::nullopt, *ranks, seen, by_rank));
  kv::Tree ours;
  uint64_t count = 0, bytes = 0;
  bool all_there = true;
  for (int64_t r = 0; r < *ranks; ++r) {
    std::vector<kv::FileRecord> files;
    if (const kv::Tree* f = by_rank.at({std::to_string(r), "FILE"})) {
      for (const auto& [name, _] : f->children()) {
        std::string norm = io::path::normalize(name);
        SCR_TRY(check_name(root, r, name, norm));
        kv::FileRecord rec;
        rec.name = norm;
        auto info = env.stat(io::path::join(prefix, norm));
        if (info && info->is_regular()) rec.size = info->size;
        else all_there = false;
        bytes += rec.size;
        files.push_back(std::move(rec));
      }
    }
    count += files.size();
    kv::Tree& entry = ours.child("RANK", std::to_string(r));
    entry.set_int("FILES", static_cast<int64_t>(files.size()));
    kv::put_file_list(entry, "FILELIST", files);
  }
  // What SCR recorded for the whole dataset is all there is to check.
  if (auto want = desc.get_uint("FILES"); want && *want != count)
    return corrupt(root, "lists " + std::to_string(count) + " files where SCR recorded " + std::to_string(*want));
  if (auto want = desc.get_uint("SIZE"); want && all_there && *want != bytes)
    return corrupt(root, "its files hold " + std::to_string(bytes) + " bytes where SCR recorded " +
                             std::to_string(*want));
  ours.put("DSET", desc);
  ours.set_int("RANKS", *ranks);
  return ours;
}

Status adopt_earlier_summary(io::Env& env, const std::string& prefix, int id) {
  std::string dir = prefix_dataset_dir(prefix, id);
  std::string shared = io::path::join(dir, "summary.scr"), own = io::path::join(dir, "summary.scrpp");
  if (!env.exists(shared)) return Status::Ok();
  io::TreeFormat format;
  SCR_ASSIGN_OR_RETURN(kv::Tree tree, io::read_any_tree(env, shared, &format));
  if (format == io::TreeFormat::veloc) return Status::Ok();
  SCR_TRY(env.rename(shared, own));
  return write_dataset_files(env, prefix, tree);
}

}  // namespace scr::rt::scr31
