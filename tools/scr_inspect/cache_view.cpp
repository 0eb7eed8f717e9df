// A cache directory: each dataset directory (scr.dataset.<id>) with its
// files and sizes, and for each redundancy file a summary of its header --
// scheme, set, member, chunk and whose files it protects.
#include <map>
#include <vector>

#include "common/strings.hpp"
#include "io/files.hpp"
#include "io/path.hpp"
#include "redset/redset.hpp"
#include "tools/common/kv_json.hpp"
#include "tools/common/table.hpp"
#include "tools/scr_inspect/dir_names.hpp"
#include "tools/scr_inspect/redundancy_words.hpp"
#include "tools/scr_inspect/views.hpp"

namespace scr::tools::inspect {
namespace {

struct Entry {
  std::string name;  // relative to the dataset directory
  uint64_t size = 0;
};

// Regular files below dir, relative names, sorted; depth-limited so a
// hostile tree cannot keep us walking.
void walk(io::Env& env, const std::string& dir, const std::string& rel, int depth,
          std::vector<Entry>& out) {
  auto names = env.list_dir(dir);
  if (!names || depth > 32) return;
  for (const auto& n : *names) {
    std::string path = io::path::join(dir, n);
    std::string child = rel.empty() ? n : rel + "/" + n;
    auto info = env.stat(path);
    if (!info) continue;
    if (info->is_dir())
      walk(env, path, child, depth + 1, out);
    else if (info->is_regular())
      out.push_back({child, info->size});
  }
}

bool is_redundancy_file(const std::string& name) {
  return str::starts_with(io::path::basename(name), redset::kFilePrefix) &&
         str::ends_with(name, ".redset");
}

// The header summary of one redundancy file, or a problem.
Result<std::pair<kv::Tree, uint64_t>> read_header(io::Env& env, const std::string& path) {
  SCR_ASSIGN_OR_RETURN(auto file, env.open(path, io::OpenMode::read));
  uint64_t end = 0;
  SCR_ASSIGN_OR_RETURN(kv::Tree header, io::read_tree_at(*file, 0, &end));
  SCR_ASSIGN_OR_RETURN(uint64_t size, file->size());
  return std::make_pair(std::move(header), size - end);
}

void dataset_view(io::Env& env, const std::string& dir, int id, Report& r, Json& datasets) {
  std::vector<Entry> files;
  walk(env, dir, "", 0, files);
  uint64_t total = 0;
  for (const auto& f : files) total += f.size;
  r.text += "scr.dataset." + std::to_string(id) + ": " + std::to_string(files.size()) + " files, " +
            str::format_bytes(total) + "\n";
  Table t({"SIZE", "FILE"});
  t.align_right(0);
  Json file_list = Json::array();
  Json headers = Json::object();
  std::string header_text;
  for (const auto& f : files) {
    t.add({std::to_string(f.size), f.name});
    file_list.push(Json::object().set("name", f.name).set("size", f.size));
    if (!is_redundancy_file(f.name)) continue;
    std::string path = io::path::join(dir, f.name);
    auto h = read_header(env, path);
    if (!h) {
      r.problems.push_back(path + ": " + h.status().to_string());
      header_text += "  " + f.name + ": damaged header\n";
      continue;
    }
    auto lines = describe_header(h->first, h->second);
    header_text += "  " + f.name + ": " + lines.front() + "\n";
    for (size_t i = 1; i < lines.size(); ++i) header_text += "    " + lines[i] + "\n";
    headers.set(f.name,
                Json::object().set("header", tree_to_json(h->first)).set("data_bytes", h->second));
  }
  for (const auto& line : str::split(t.render(), '\n')) r.text += "  " + line + "\n";
  r.text += header_text;
  datasets.set(
      std::to_string(id),
      Json::object().set("files", std::move(file_list)).set("redundancy", std::move(headers)));
}

}  // namespace

Report inspect_cache(io::Env& env, const std::string& dir) {
  Report r;
  r.json.set("kind", "cache").set("path", dir);
  Json datasets = Json::object();
  // A dataset directory itself, or a directory holding them.
  if (int id = dataset_dir_id(io::path::basename(dir)); id >= 0) {
    r.text = "Cache dataset directory " + dir + "\n";
    dataset_view(env, dir, id, r, datasets);
  } else {
    r.text = "Cache directory " + dir + "\n";
    std::map<int, std::string> by_id;
    if (auto names = env.list_dir(dir))
      for (const auto& n : *names)
        if (int id = dataset_dir_id(n); id >= 0) by_id[id] = io::path::join(dir, n);
    for (const auto& [id, path] : by_id) dataset_view(env, path, id, r, datasets);
  }
  r.json.set("datasets", std::move(datasets));
  return r;
}

}  // namespace scr::tools::inspect
