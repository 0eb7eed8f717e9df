#include "runtime/prefix/prefix_rebuild.hpp"

#include <set>

#include "io/path.hpp"
#include "io/undo_files.hpp"
#include "runtime/prefix/prefix_index.hpp"
#include "runtime/prefix/summary.hpp"

namespace scr::rt {
namespace {

// Application files at their names, redundancy files with the dataset's.
redset::offline::Target prefix_target(const std::string& prefix, int id) {
  return {prefix, prefix_dataset_dir(prefix, id)};
}

// What a rebuild may add to the prefix, noted before it writes anything:
// the paths it writes that no file holds yet, and the directories it would
// make. Nothing else is taken back, so a file or directory that was there
// before is never removed.
struct Additions {
  std::vector<std::string> files, dirs;
};

Additions what_rebuild_adds(io::Env& env, const redset::offline::Survey& survey, const std::string& prefix,
                            int id) {
  Additions out;
  std::set<std::string> dirs;
  for (auto& path : redset::offline::rebuild_paths(survey, prefix_target(prefix, id))) {
    // Names stay inside the dataset's directory (redset checks them); a
    // path outside the prefix is nothing of this rebuild's to take back.
    if (!io::path::is_within(prefix, path)) continue;
    dirs.insert(io::path::dirname(path));
    if (auto info = env.stat(path); !info && info.status().code() == Errc::not_found)
      out.files.push_back(std::move(path));
  }
  out.dirs = io::missing_dirs(env, prefix, {dirs.begin(), dirs.end()});
  return out;
}

Result<std::map<int, kv::Tree>> rebuild_entries(io::Env& env, const redset::offline::Survey& survey,
                                                const std::string& prefix, int id,
                                                const PrefixRebuildOptions& options) {
  // The CRC32C of each file, taken while it is verified, goes to the summary.
  std::map<std::pair<int, std::string>, uint32_t> crcs;
  redset::offline::Options opt;
  opt.piece_size = options.piece_size;
  opt.progress = options.progress;
  opt.verify = [&](int rank, const redset::FileEntry& f, const std::string& written) -> Status {
    SCR_ASSIGN_OR_RETURN(uint32_t crc, io::file_crc32c(env, written, options.piece_size));
    if (f.crc && crc != *f.crc)
      return Error(Errc::corrupt, f.name + " of rank " + std::to_string(rank) +
                                      " was rebuilt with wrong content (CRC32C mismatch): the "
                                      "redundancy data is damaged");
    if (options.check) SCR_TRY(options.check(rank, f, crc));
    crcs[{rank, f.name}] = crc;
    return Status::Ok();
  };
  SCR_ASSIGN_OR_RETURN(auto rebuilt,
                       redset::offline::rebuild(env, survey, prefix_target(prefix, id), opt));
  std::map<int, kv::Tree> entries;
  for (const auto& r : rebuilt) {
    kv::Tree& entry = entries[r.world_rank];
    std::vector<kv::FileRecord> files;
    for (const auto& f : r.files)
      files.push_back({f.name, f.meta.size, crcs.at({r.world_rank, f.name}), false, std::nullopt});
    set_summary_files(entry, files);
    SCR_ASSIGN_OR_RETURN(io::FileInfo red, env.stat(r.redundancy_file));
    add_summary_redundancy(entry, io::path::basename(r.redundancy_file), red.size);
  }
  return entries;
}

}  // namespace

Result<RebuiltInPrefix> rebuild_in_prefix(io::Env& env, const redset::offline::Survey& survey,
                                          const std::string& prefix, int id,
                                          const PrefixRebuildOptions& options) {
  // offline::rebuild keeps the sets it finished before it stopped. In the
  // prefix they are of no use to anyone: salvage and scr_scavenge give the
  // dataset up, and scr_index --build, run again, rebuilds them; left there
  // they would hold space the next flush needs, and a directory made for
  // them would pass for part of a dataset.
  Additions added = what_rebuild_adds(env, survey, prefix, id);
  auto entries = rebuild_entries(env, survey, prefix, id, options);
  if (!entries) {
    io::remove_files_and_made_dirs(env, prefix, added.files, added.dirs);
    return entries.status();
  }
  return RebuiltInPrefix{std::move(entries).value(), std::move(added.files), std::move(added.dirs)};
}

}  // namespace scr::rt
