// Which kind of SCR++ directory a path is, and the views for it. A base
// directory (SCR_CACHE_BASE, SCR_CNTL_BASE, a simulated node's directory)
// is not itself one of the kinds; the kinds are found a few levels below it
// (<base>/<node>/<user>/scr.<jobid>) and each is shown under its own path.
#include <vector>

#include "io/path.hpp"
#include "tools/common/prefix_dir.hpp"
#include "tools/scr_inspect/dir_names.hpp"
#include "tools/scr_inspect/views.hpp"

namespace scr::tools::inspect {
namespace {

// <base>/<node>/<user>/scr.<jobid> is three levels below a base.
constexpr int kSearchDepth = 3;

struct Kinds {
  bool prefix = false, control = false, cache = false;
  bool any() const { return prefix || control || cache; }
};

Kinds kinds_of(io::Env& env, const std::string& dir) {
  Kinds k;
  k.prefix = env.exists(io::path::join(dir, ".scr"));
  if (int id = dataset_dir_id(io::path::basename(dir)); id >= 0) k.cache = true;
  if (auto names = env.list_dir(dir))
    for (const auto& n : *names) {
      if (filemap_rank(n) >= 0) k.control = true;
      if (dataset_dir_id(n) >= 0) k.cache = true;
    }
  return k;
}

void append(Report& into, Report part, std::vector<Json>& parts) {
  if (!into.text.empty() && !part.text.empty()) into.text += "\n";
  into.text += part.text;
  into.problems.insert(into.problems.end(), part.problems.begin(), part.problems.end());
  parts.push_back(std::move(part.json));
}

// Recognised directories at or below dir, at most `depth` levels down.
void collect(io::Env& env, const std::string& dir, int depth, Report& r, std::vector<Json>& parts) {
  Kinds k = kinds_of(env, dir);
  if (k.prefix) append(r, inspect_prefix(env, dir), parts);
  if (k.control) append(r, inspect_control(env, dir), parts);
  if (k.cache) append(r, inspect_cache(env, dir), parts);
  if (k.any() || depth == 0) return;
  auto names = env.list_dir(dir);
  if (!names) return;
  for (const auto& n : *names) {
    std::string sub = io::path::join(dir, n);
    if (auto info = env.stat(sub); info && info->is_dir()) collect(env, sub, depth - 1, r, parts);
  }
}

}  // namespace

Report inspect_directory(io::Env& env, const std::string& dir) {
  // <prefix>/.scr stands for its prefix.
  if (io::path::basename(dir) == ".scr" && env.exists(io::path::join(dir, "index.scr")))
    return inspect_prefix(env, io::path::dirname(dir));
  Report r;
  std::vector<Json> parts;
  collect(env, dir, kSearchDepth, r, parts);
  if (parts.empty()) {
    r.problems.push_back(dir +
                         ": not an SCR++ prefix, control or cache directory (no .scr, "
                         "filemap_<rank>.scr or scr.dataset.<id> within " +
                         std::to_string(kSearchDepth) + " levels)");
    return r;
  }
  // One directory: its object; several: an array of them.
  if (parts.size() == 1) {
    r.json = std::move(parts.front());
  } else {
    r.json = Json::array();
    for (auto& p : parts) r.json.push(std::move(p));
  }
  return r;
}

}  // namespace scr::tools::inspect
