#include "tools/scr_index/index_edit.hpp"

#include <cstdio>

#include "common/strings.hpp"
#include "runtime/prefix/flush_protocol.hpp"
#include "tools/common/index_view.hpp"
#include "tools/common/prefix_dir.hpp"

namespace scr::tools::index_cmd {

Result<int> find_dataset(const Request& req, const rt::PrefixIndex& idx, const std::string& name) {
  if (auto id = idx.find_name(name)) return *id;
  return Error(Errc::not_found, "no dataset named '" + name + "' in the index of " + req.prefix +
                                    " (scr_index --prefix " + req.prefix + " lists them)");
}

Found find_summary(const Request& req, const std::string& name) {
  Found out;
  std::optional<std::pair<int, Summary>> by_id;
  auto wanted_id = str::parse_int(name);
  for (int id : dataset_dirs(req.env, req.prefix)) {
    auto s = read_summary(req.env, req.prefix, id);
    if (!s) {
      // Without a summary the dataset's flush never finished: nothing to adopt.
      if (s.status().code() != Errc::not_found) out.damaged.push_back(s.status().message());
      continue;
    }
    if (s->info.name == name) out.match.emplace(id, std::move(s).value());
    else if (wanted_id && *wanted_id == id) by_id.emplace(id, std::move(s).value());
  }
  if (!out.match) out.match = std::move(by_id);
  return out;
}

int save_and_say(const Request& req, const rt::PrefixIndex& idx, const std::string& done) {
  // A damaged index (read as empty by --add and --build) is kept aside,
  // never written over.
  if (idx.replaces_unreadable()) {
    auto aside = set_aside_damaged_index(req.env, req.prefix);
    if (!aside) return req.cli.fail(exit_code::failed, "could not save the index: " + aside.status().message());
    if (!aside->empty()) req.cli.note(*aside);
  }
  if (Status st = idx.save(req.env); !st.ok())
    return req.cli.fail(exit_code::failed, "could not save the index: " + st.message());
  std::string choice = restart_choice(idx);
  std::printf("%s\n%s\n", done.c_str(),
              choice.empty() ? "A restart from this prefix now finds no loadable checkpoint."
                             : ("A restart from this prefix now loads " + choice + ".").c_str());
  return exit_code::ok;
}

void adopt_entry(rt::PrefixIndex& idx, const Summary& summary) {
  kv::Tree desc = summary.desc;
  if (!desc.has("FILES")) desc.set_uint("FILES", summary.file_count());
  int64_t bytes = desc.int_or("SIZE", static_cast<int64_t>(summary.bytes()));
  rt::MarkPolicy adopt;
  adopt.choose_current = false;
  rt::mark_flushed(idx, desc, bytes, adopt);
}

std::string forget_entry(rt::PrefixIndex& idx, int id) {
  std::string before = idx.current();
  idx.forget(id);
  if (idx.current() == before) return "";
  if (idx.current().empty()) return " It was CURRENT; CURRENT is now unset.";
  return " It was CURRENT; CURRENT is now " + idx.current() + ".";
}

}  // namespace scr::tools::index_cmd
