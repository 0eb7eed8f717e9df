#include "redset/offline_set.hpp"

#include "io/path.hpp"
#include "redset/headers.hpp"

namespace scr::redset::offline::detail {

std::map<int, kv::Tree> header_entries(const SetState& set, int member) {
  std::map<int, kv::Tree> out;
  for (int d = 0; d <= set.shape.width(); ++d) {
    int x = set.shape.left(member, d);
    if (auto it = set.entries.find(x); it != set.entries.end()) out[x] = it->second;
  }
  return out;
}

std::vector<std::string> LostPlace::paths() const {
  std::vector<std::string> out;
  for (const auto& f : files) out.push_back(io::path::join(data_dir, f.name));
  out.push_back(redundancy_file);
  return out;
}

Result<LostPlace> lost_place(const SetState& set, int member, const Target& target) {
  LostPlace place;
  place.world_rank = set.shape.members[static_cast<size_t>(member)];
  place.redundancy_file = io::path::join(target.redundancy_dir, set.shape.file_name(member));
  place.data_dir = target.data_dir;
  auto entry = set.entries.find(member);
  if (entry == set.entries.end())
    return Error(Errc::unrecoverable, "the metadata of rank " + std::to_string(place.world_rank) +
                                          " was lost with every copy of it");
  SCR_ASSIGN_OR_RETURN(place.files, files_from_tree(entry->second));
  return place;
}

Result<std::unique_ptr<LostFiles>> open_lost(io::Env& env, const SetState& set, int member,
                                             const Target& target, const kv::Tree& header) {
  SCR_ASSIGN_OR_RETURN(LostPlace place, lost_place(set, member, target));
  auto lost = std::make_unique<LostFiles>();
  lost->member = member;
  lost->world_rank = place.world_rank;
  lost->redundancy_path = place.redundancy_file;
  SCR_ASSIGN_OR_RETURN(auto data, PendingFiles::create(env, place.data_dir, std::move(place.files),
                                                       lost->redundancy_path));
  lost->data.emplace(std::move(data));
  SCR_ASSIGN_OR_RETURN(auto red, PendingRedundancy::create(env, lost->redundancy_path, header));
  lost->redundancy.emplace(std::move(red));
  return lost;
}

Status commit_lost(const std::vector<std::unique_ptr<LostFiles>>& lost, const Options& options,
                   std::vector<RebuiltRank>* out) {
  if (options.verify)
    for (const auto& l : lost) {
      SCR_TRY(l->data->logical().sync());
      // The logical file's parts are the temporaries, in file order.
      const auto& files = l->data->files();
      for (size_t i = 0; i < files.size(); ++i)
        SCR_TRY(options.verify(l->world_rank, files[i], l->data->logical().parts()[i].path));
    }
  for (const auto& l : lost) {
    SCR_TRY(l->data->commit());
    SCR_TRY(l->redundancy->commit());
    out->push_back({l->world_rank, l->data->files(), l->redundancy_path});
  }
  return Status::Ok();
}

Result<std::unique_ptr<IntactFiles>> open_intact(io::Env& env, const Survey& survey,
                                                 const SetState& set, int member) {
  int w = set.shape.members[static_cast<size_t>(member)];
  const Place& place = survey.places.at(w);
  const Header& header = set.headers.at(member);
  SCR_ASSIGN_OR_RETURN(auto files, entry_files(header.tree, member));
  auto intact = std::make_unique<IntactFiles>();
  SCR_ASSIGN_OR_RETURN(intact->data, open_files_read(env, place.data_dir, files));
  SCR_ASSIGN_OR_RETURN(intact->redundancy, env.open(place.redundancy_file, io::OpenMode::read));
  intact->data_offset = header.data_offset;
  return intact;
}

}  // namespace scr::redset::offline::detail
