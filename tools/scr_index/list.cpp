// scr_index (no change requested): the index in SCR's layout, which scripts
// parse; with --details SCR++'s table, or JSON.
#include <cstdio>

#include "runtime/prefix/prefix_index.hpp"
#include "runtime/prefix/summary.hpp"
#include "tools/common/index_view.hpp"
#include "tools/common/prefix_dir.hpp"
#include "tools/scr_index/command.hpp"

namespace scr::tools::index_cmd {
namespace {

// When the flush finished, as the index records it (SCR's FLUSHED stamp).
// An entry an earlier SCR++ wrote has none: a flush (or scavenge) writes the
// dataset's summary last, just before it marks the entry flushed, so the
// summary's modification time stands in for it.
int64_t flush_time(io::Env& env, const std::string& prefix, const rt::PrefixIndex& idx, int id) {
  if (const kv::Tree* e = idx.find(id); e && e->has("FLUSHED_AT")) return e->int_or("FLUSHED_AT", 0);
  auto info = env.stat(rt::summary_path(prefix, id));
  return info ? static_cast<int64_t>(info->mtime.tv_sec) : 0;
}

}  // namespace

int list_datasets(const Request& req) {
  auto idx = open_index(req.env, req.prefix);
  if (!idx) return req.cli.fail(idx.status());
  if (req.json) {
    std::printf("%s\n", index_json(req.prefix, *idx).dump().c_str());
  } else if (req.details) {
    std::fputs(index_text(req.prefix, *idx).c_str(), stdout);
  } else {
    std::vector<DatasetRow> rows = index_rows(*idx);
    for (DatasetRow& r : rows)
      if (r.flushed) r.flushed_secs = flush_time(req.env, req.prefix, *idx, r.id);
    std::fputs(scr_listing_text(rows).c_str(), stdout);
  }
  return exit_code::ok;
}

}  // namespace scr::tools::index_cmd
