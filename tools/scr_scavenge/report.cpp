#include "tools/scr_scavenge/report.hpp"

#include <cstdio>

#include "common/json.hpp"
#include "common/strings.hpp"
#include "tools/common/index_view.hpp"

namespace scr::tools::scavenge {
namespace {

std::string state_word(Outcome::State s) {
  switch (s) {
    case Outcome::State::saved: return "saved";
    case Outcome::State::failed: return "failed";
    case Outcome::State::skipped: return "skipped";
  }
  return "?";
}

std::string saved_line(const Outcome& d) {
  const Saved& s = d.saved;
  std::string line = "Saved " + d.name + " (dataset " + std::to_string(d.id) + ", " +
                     flags_word(d.flags) + "): " + std::to_string(s.ranks) + " ranks, " +
                     std::to_string(s.files) + " files, " + str::format_bytes(s.bytes);
  if (!s.rebuilt.empty())
    line += "; rank" + std::string(s.rebuilt.size() > 1 ? "s " : " ") + str::join_ints(s.rebuilt) +
            " rebuilt from redundancy data";
  return line + (s.current ? "; now CURRENT." : ".");
}

}  // namespace

void print_report(const Cli& cli, const Options& o, const Report& report) {
  for (const auto& n : report.notes) cli.note(n);
  bool any = false;
  for (const Outcome& d : report.datasets) {
    std::string id = d.name + " (dataset " + std::to_string(d.id) + ")";
    switch (d.state) {
      case Outcome::State::saved:
        for (const auto& n : d.saved.notes) cli.note(d.name + ": " + n);
        std::printf("%s\n", saved_line(d).c_str());
        any = true;
        break;
      case Outcome::State::failed:
        for (const auto& n : d.saved.notes) cli.note(d.name + ": " + n);
        cli.fail(0, id + " was not saved: " + d.error.message());
        std::printf("Not saved: %s: %s\n", id.c_str(), d.error.message().c_str());
        any = true;
        break;
      case Outcome::State::skipped:
        std::printf("Skipped %s: %s.\n", id.c_str(), d.why.c_str());
        break;
    }
  }
  if (!any && report.no_host_answered)
    std::printf("No host of job %s could be read (none answered, or all are down or excluded): what their "
                "caches hold is unknown, and nothing was saved.\n",
                o.job_id.c_str());
  else if (!any)
    std::printf("Nothing to scavenge in the caches of job %s.\n", o.job_id.c_str());
  std::printf("%s\n", report.restart.empty()
                          ? "A restart from this prefix finds no loadable checkpoint."
                          : ("A restart from this prefix loads " + report.restart + ".").c_str());
}

std::string report_json(const Options& o, const Report& report) {
  Json nodes = Json::array();
  for (const auto& n : o.nodes) nodes.push(n);
  Json notes = Json::array();
  for (const auto& n : report.notes) notes.push(n);
  Json datasets = Json::array();
  for (const Outcome& d : report.datasets) {
    Json rebuilt = Json::array();
    for (int r : d.saved.rebuilt) rebuilt.push(r);
    Json notes_of = Json::array();
    for (const auto& n : d.saved.notes) notes_of.push(n);
    Json j = Json::object();
    j.set("id", d.id).set("name", d.name).set("type", flags_word(d.flags));
    j.set("state", state_word(d.state)).set("notes", notes_of);
    if (d.state == Outcome::State::failed) j.set("reason", d.error.message());
    if (d.state == Outcome::State::skipped) j.set("reason", d.why);
    if (d.state == Outcome::State::saved) {
      j.set("ranks", d.saved.ranks).set("files", static_cast<uint64_t>(d.saved.files));
      j.set("bytes", d.saved.bytes).set("rebuilt_ranks", rebuilt);
      j.set("current", d.saved.current).set("seconds", static_cast<int64_t>(d.seconds + 0.5));
    }
    datasets.push(j);
  }
  Json out = Json::object();
  out.set("prefix", o.prefix).set("job_id", o.job_id).set("nodes", nodes).set("notes", notes);
  out.set("datasets", datasets).set("restart", report.restart);
  return out.dump();
}

}  // namespace scr::tools::scavenge
