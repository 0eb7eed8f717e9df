#include "tools/common/index_view.hpp"

#include <cstdio>
#include <optional>

#include "common/strings.hpp"
#include "runtime/prefix/dataset.hpp"
#include "runtime/prefix/scr31/shared_format.hpp"
#include "tools/common/table.hpp"
#include "tools/common/times.hpp"

namespace scr::tools {
namespace {

const char* yes_no(bool b) { return b ? "yes" : "no"; }

std::string created_text(int64_t usecs) { return usecs > 0 ? local_time(usecs / 1000000) : "-"; }

}  // namespace

std::vector<DatasetRow> index_rows(const rt::PrefixIndex& idx) {
  std::vector<DatasetRow> rows;
  // CURRENT names a dataset; with repeated names the runtime resolves it to
  // the one find_name returns, so mark that one.
  std::optional<int> current;
  if (!idx.current().empty()) current = idx.find_name(idx.current());
  for (int id : idx.ids()) {
    const kv::Tree* e = idx.find(id);
    DatasetRow r;
    r.id = id;
    r.name = e->value_or("NAME", "");
    r.flags = static_cast<int>(e->int_or("FLAGS", 0));
    r.ckpt = static_cast<int>(e->int_or("CKPT", 0));
    r.complete = r.flushed = idx.flushed(id);
    r.failed = idx.failed(id);
    r.current = current && *current == id;
    r.loadable = idx.loadable(id);
    r.size = e->uint_or("SIZE", 0);
    r.files = e->int_or("FILES", 0);
    r.created_usecs = e->int_or("CREATED", 0);
    rows.push_back(std::move(r));
  }
  return rows;
}

std::string flags_word(int flags) {
  bool ckpt = flags & rt::kFlagCheckpoint;
  bool out = flags & rt::kFlagOutput;
  if (ckpt && out) return "checkpoint+output";
  if (ckpt) return "checkpoint";
  if (out) return "output";
  return "none";
}

std::string restart_choice(const rt::PrefixIndex& idx) {
  auto order = idx.fetch_order("");
  return order.empty() ? "" : idx.find(order.front())->value_or("NAME", "");
}

std::string index_text(const std::string& prefix, const rt::PrefixIndex& idx) {
  auto rows = index_rows(idx);
  if (rows.empty()) return "The index of " + prefix + " lists no datasets.\n";
  // SCR's layout where its scripts read it: the id first, VALID and FLUSHED
  // as YES/NO (so `grep NO` finds what is not loadable), the name last;
  // SCR++'s columns, in lower case, in between. Newest first, as SCR lists.
  Table t({"DSET", "VALID", "FLUSHED", "TYPE", "FAILED", "SIZE", "CREATED", "CUR", "NAME"});
  t.align_right(0);
  t.align_right(5);
  for (auto r = rows.rbegin(); r != rows.rend(); ++r)
    t.add({std::to_string(r->id), r->complete && !r->failed ? "YES" : "NO",
           r->flushed ? "YES" : "NO", flags_word(r->flags), yes_no(r->failed),
           str::format_bytes(r->size), created_text(r->created_usecs), r->current ? "*" : "",
           str::printable(r->name)});
  std::string out = t.render();
  std::string choice = restart_choice(idx);
  if (choice.empty())
    out += "A restart from this prefix finds no loadable checkpoint.\n";
  else if (choice == idx.current())
    out += "A restart from this prefix loads " + str::printable(choice) + " (CURRENT).\n";
  else
    out += "A restart from this prefix loads " + str::printable(choice) + " (the newest loadable checkpoint).\n";
  return out;
}

std::string scr_listing_text(const std::vector<DatasetRow>& rows) {
  // Fixed widths as SCR prints them: "%4d", "YES  "/"NO   ", a 19-character
  // time or as many blanks, "  *"/"   ".
  std::string out = "DSET VALID FLUSHED             CUR NAME\n";
  for (auto r = rows.rbegin(); r != rows.rend(); ++r) {
    if (!(r->flags & rt::kFlagCheckpoint)) continue;
    char id[16];
    std::snprintf(id, sizeof id, "%4d", r->id);
    bool flushed = r->flushed && r->flushed_secs > 0;
    out += std::string(id) + " " + (r->complete && !r->failed ? "YES  " : "NO   ") + " " +
           (flushed ? rt::scr31::timestamp(r->flushed_secs) : std::string(19, ' ')) + " " +
           (r->current ? "  *" : "   ") + " " + (r->name.empty() ? "UNKNOWN_NAME" : str::printable(r->name)) + "\n";
  }
  return out;
}

Json index_json(const std::string& prefix, const rt::PrefixIndex& idx) {
  Json datasets = Json::array();
  for (const auto& r : index_rows(idx)) {
    Json d = Json::object();
    d.set("id", r.id)
        .set("name", r.name)
        .set("checkpoint", (r.flags & rt::kFlagCheckpoint) != 0)
        .set("output", (r.flags & rt::kFlagOutput) != 0)
        .set("ckpt", r.ckpt)
        .set("complete", r.complete)
        .set("flushed", r.flushed)
        .set("failed", r.failed)
        .set("current", r.current)
        .set("loadable", r.loadable)
        .set("size", r.size)
        .set("files", r.files)
        .set("created", r.created_usecs > 0 ? Json(local_time(r.created_usecs / 1000000)) : Json())
        .set("created_usecs", r.created_usecs);
    datasets.push(std::move(d));
  }
  std::string choice = restart_choice(idx);
  Json out = Json::object();
  out.set("prefix", prefix)
      .set("current", idx.current().empty() ? Json() : Json(idx.current()))
      .set("restart", choice.empty() ? Json() : Json(choice))
      .set("datasets", std::move(datasets));
  return out;
}

}  // namespace scr::tools
