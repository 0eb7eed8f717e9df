// SINGLE: no redundancy data, only a header recording this process's file
// metadata, so a restart can tell a complete dataset from a damaged one.
#include <algorithm>

#include "io/files.hpp"
#include "io/path.hpp"
#include "redset/crcs.hpp"
#include "redset/headers.hpp"
#include "redset/schemes.hpp"

namespace scr::redset::detail {

Status apply_single(io::Env& env, const Set& set, const std::string& dir, kv::Tree files,
                    const std::string& redfile, const std::string& /*spare: a header needs no pages*/,
                    std::vector<FileEntry>& own_out) {
  // Nothing is read to encode: the checksums take a pass of their own,
  // unless the caller gave them (a fetch checked every byte it copied).
  SCR_ASSIGN_OR_RETURN(auto own, files_from_tree(files));
  if (!std::all_of(own.begin(), own.end(), [](const FileEntry& f) { return f.crc.has_value(); })) {
    SCR_ASSIGN_OR_RETURN(auto crcs, read_file_crcs(env, dir, own, set.params().piece_size));
    SCR_TRY(set_file_crcs(files, crcs));
    own = with_crcs(std::move(own), crcs);
  }
  std::map<int, kv::Tree> entries;
  entries.emplace(set.rank(), member_entry(set, std::move(files)));
  kv::Tree header = header_with(set, std::move(entries));
  SCR_TRY(io::make_dirs(env, io::path::dirname(redfile)));
  SCR_ASSIGN_OR_RETURN(auto out, env.open(redfile, io::OpenMode::create, 0600));
  SCR_TRY(write_header(*out, header).status());
  SCR_TRY(out->sync());
  SCR_TRY(out->close());
  own_out = std::move(own);
  return Status::Ok();
}

Survey survey_single(io::Env& env, const Set& set, const std::string& dir,
                     const std::string& redfile, bool files_checked) {
  SCR_ASSIGN_OR_RETURN(Header h, read_header(env, redfile));
  SCR_ASSIGN_OR_RETURN(auto files, entry_files(h.tree, set.rank()));
  if (!files_checked && !files_present(env, dir, files))
    return Error(Errc::unrecoverable,
                 "files of rank " + std::to_string(set.world_rank()) +
                     " are missing or truncated and SINGLE keeps no redundancy data");
  return nothing_to_rebuild(std::move(files));
}

}  // namespace scr::redset::detail
