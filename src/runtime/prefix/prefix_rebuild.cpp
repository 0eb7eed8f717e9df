#include "runtime/prefix/prefix_rebuild.hpp"

#include "io/files.hpp"
#include "io/path.hpp"
#include "runtime/prefix/prefix_index.hpp"
#include "runtime/prefix/summary.hpp"

namespace scr::rt {
namespace {

// Application files at their names, redundancy files with the dataset's.
redset::offline::Target prefix_target(const std::string& prefix, int id) {
  return {prefix, prefix_dataset_dir(prefix, id)};
}

}  // namespace

Result<std::map<int, kv::Tree>> rebuild_in_prefix(io::Env& env, const redset::offline::Survey& survey,
                                                  const std::string& prefix, int id, size_t piece_size,
                                                  std::function<void(uint64_t)> progress) {
  // The CRC32C of each file, taken while it is verified, goes to the summary.
  std::map<std::pair<int, std::string>, uint32_t> crcs;
  redset::offline::Options opt;
  opt.piece_size = piece_size;
  opt.progress = std::move(progress);
  opt.verify = [&](int rank, const redset::FileEntry& f, const std::string& written) -> Status {
    SCR_ASSIGN_OR_RETURN(uint32_t crc, io::file_crc32c(env, written, piece_size));
    if (f.crc && crc != *f.crc)
      return Error(Errc::corrupt, f.name + " of rank " + std::to_string(rank) +
                                      " was rebuilt with wrong content (CRC32C mismatch): the "
                                      "redundancy data is damaged");
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

std::vector<std::string> paths_rebuilt_in_prefix(const redset::offline::Survey& survey, const std::string& prefix,
                                                 int id) {
  return redset::offline::rebuild_paths(survey, prefix_target(prefix, id));
}

}  // namespace scr::rt
