// scr_ckpt_interval: how often a job should checkpoint, from what its
// prefix's event log measured (interval.hpp): the checkpoint cost C and the
// mean time between failures M, with Young's and Daly's formulas. Either
// measurement can be given instead (--cost, --mtbf).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/json.hpp"
#include "io/path.hpp"
#include "runtime/prefix/prefix_index.hpp"
#include "tools/common/args.hpp"
#include "tools/common/cli.hpp"
#include "tools/common/prefix_dir.hpp"
#include "tools/common/times.hpp"
#include "tools/scr_ckpt_interval/interval.hpp"

namespace {

using namespace scr;
using namespace scr::tools;
namespace iv = scr::tools::interval;

const OptionSpec kOptions[] = {
    {"--prefix", OptionSpec::value, "DIR", "the prefix whose .scr/log.jsonl is read", "-p"},
    {"--log", OptionSpec::value, "FILE", "read this event log instead"},
    {"--cost", OptionSpec::value, "SECONDS", "the checkpoint cost C, instead of the log's median"},
    {"--mtbf", OptionSpec::value, "SECONDS", "the mean time between failures, instead of the log's"},
    {"--json", OptionSpec::flag, "", "print the result as JSON"},
    kHelpOption,
};

std::string help_text() {
  return "usage: scr_ckpt_interval [-p DIR | --log FILE] [--cost SECONDS] [--mtbf SECONDS] [--json]\n"
         "Compute the checkpoint interval that minimises lost time, from the event log a job\n"
         "writes with SCR_LOG_ENABLE=1 (<prefix>/.scr/log.jsonl): the checkpoint cost C is\n"
         "the median time of its CHECKPOINT_COMPLETE events; a failure is a run that logged\n"
         "FAILURE or started (START) without logging END before a later run; the mean time\n"
         "between failures M is the log's span divided by the failures. Prints Young's\n"
         "interval sqrt(2*C*M) and Daly's refinement, usable as SCR_CHECKPOINT_SECONDS.\n\n"
         "Options:\n" +
         options_help(kOptions) +
         "\nExit status:\n"
         "  0  computed\n"
         "  1  usage error\n"
         "  2  not enough data: no log, no checkpoint measured (give --cost) or no failure\n"
         "     observed (give --mtbf)\n"
         "  3  the log holds no readable event\n";
}

Result<double> seconds_value(const char* option, const std::string& text) {
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(v) || v <= 0)
    return Error(Errc::invalid_argument,
                 std::string(option) + ": '" + text + "' is not a positive number of seconds");
  // A century: beyond it no interval printed means anything (and products
  // of two such values overflow).
  constexpr double kMaxSeconds = 100.0 * 365 * 24 * 3600;
  if (v > kMaxSeconds)
    return Error(Errc::invalid_argument, std::string(option) + ": '" + text + "' seconds is more than a century");
  return v;
}

// Each line of `in` to `each`, a line kept to its first 64 KiB (a longer one
// is not an event and is reported as such): a file that is not a log (a
// binary file, one long line) costs no more memory than one such line.
template <class Each>
void for_each_line(std::istream& in, Each&& each) {
  constexpr size_t kMaxLine = size_t{64} << 10;
  std::string line;
  char buf[8192];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    for (std::streamsize i = 0; i < in.gcount(); ++i) {
      if (buf[i] == '\n') {
        each(line);
        line.clear();
      } else if (line.size() < kMaxLine) {
        line.push_back(buf[i]);
      }
    }
  }
  if (!line.empty()) each(line);
}

std::string secs(double s) {
  char buf[64];
  if (s >= 7200)
    std::snprintf(buf, sizeof buf, "%.0f s (%.2f h)", s, s / 3600);
  else if (s >= 120)
    std::snprintf(buf, sizeof buf, "%.1f s (%.1f min)", s, s / 60);
  else
    std::snprintf(buf, sizeof buf, "%.4g s", s);
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  Cli cli("scr_ckpt_interval");
  Args parsed;
  if (auto done = begin_command(cli, kOptions, argc, argv, help_text, &parsed)) return *done;
  const Args* args = &parsed;
  if (args->has("--log") && args->has("--prefix"))
    return cli.usage_error("give --prefix or --log, not both");
  std::optional<double> cost, mtbf;
  for (auto [opt, out] : {std::pair{"--cost", &cost}, std::pair{"--mtbf", &mtbf}})
    if (auto v = args->value(opt)) {
      auto s = seconds_value(opt, *v);
      if (!s) return cli.usage_error(s.status().message());
      *out = *s;
    }

  std::string log = args->value("--log").value_or(
      io::path::join(rt::prefix_scr_dir(absolute_path(args->value("--prefix").value_or(default_prefix()))),
                     "log.jsonl"));
  iv::Observed seen;
  bool have_log = false;
  std::vector<std::string> bad;
  if (!(cost && mtbf)) {
    // Only a regular file (a link to one is fine: this only reads): a device
    // (/dev/zero) or a FIFO would be read forever, a directory reads as
    // nothing.
    std::error_code ec;
    auto kind = std::filesystem::status(log, ec).type();
    bool there = !ec && kind != std::filesystem::file_type::not_found;
    if (there && kind != std::filesystem::file_type::regular)
      return cli.fail(exit_code::usage, "the event log " + log + " is not a regular file");
    std::ifstream in(log);
    if (!there || !in)
      return cli.fail(exit_code::not_found,
                      "cannot read the event log " + log +
                          " (jobs write it with SCR_LOG_ENABLE=1), and --cost and --mtbf were not both given");
    std::vector<iv::Event> events;
    size_t n = 0, unread = 0;
    constexpr size_t kNotedLines = 10;  // a file of garbage is reported, not echoed line by line
    for_each_line(in, [&](const std::string& line) {
      ++n;
      if (line.find_first_not_of(" \t\r") == std::string::npos) return;
      auto e = iv::parse_event(line);
      if (e)
        events.push_back(std::move(e).value());
      else if (bad.size() < kNotedLines)
        bad.push_back("line " + std::to_string(n) + ": " + e.status().message());
      else
        ++unread;
    });
    if (unread > 0) bad.push_back(std::to_string(unread) + " more lines that are not events");
    if (events.empty())
      return cli.fail(exit_code::bad_data, log + " holds no readable event" +
                                               (bad.empty() ? "" : " (" + bad.front() + ")"));
    for (const auto& b : bad) cli.note(log + ", " + b + "; skipped");
    seen = iv::observe(events, static_cast<double>(now_seconds()));
    if (seen.bad_times > 0)
      cli.note(log + ": " + std::to_string(seen.bad_times) +
               " events with a time that does not parse, or lies before 2000 or in the future; "
               "left out of the span");
    if (seen.bad_seconds > 0)
      cli.note(log + ": " + std::to_string(seen.bad_seconds) +
               " checkpoints whose seconds are not a number from 0 to a century; left out of the cost");
    have_log = true;
  }

  std::string cost_from = "given with --cost", mtbf_from = "given with --mtbf";
  if (!cost) {
    cost = iv::median(seen.ckpt_seconds);
    if (!cost || *cost <= 0)
      return cli.fail(exit_code::not_found, log + " records no checkpoint with a cost " +
                                                "(CHECKPOINT_COMPLETE with seconds > 0); give --cost");
    cost_from = "median of " + std::to_string(seen.ckpt_seconds.size()) + " checkpoints";
  }
  if (!mtbf) {
    if (seen.failures == 0)
      return cli.fail(exit_code::not_found,
                      "no failure in " + secs(seen.span) + " of " + log +
                          " (" + std::to_string(seen.runs) +
                          " runs); the MTBF is longer than that: give --mtbf");
    mtbf = seen.span / seen.failures;
    mtbf_from = std::to_string(seen.failures) + (seen.failures == 1 ? " failure" : " failures") +
                " in " + secs(seen.span);
    if (*mtbf <= 0)
      return cli.fail(exit_code::not_found, "the log's events span no time; give --mtbf");
  }
  double young = iv::young(*cost, *mtbf), daly = iv::daly(*cost, *mtbf);

  if (args->has("--json")) {
    Json out = Json::object();
    out.set("log", have_log ? Json(log) : Json())
        .set("cost_seconds", *cost)
        .set("cost_from", cost_from)
        .set("mtbf_seconds", *mtbf)
        .set("mtbf_from", mtbf_from)
        .set("runs", seen.runs)
        .set("failures", seen.failures)
        .set("checkpoints", static_cast<int64_t>(seen.ckpt_seconds.size()))
        .set("span_seconds", seen.span)
        .set("young_seconds", young)
        .set("daly_seconds", daly);
    std::printf("%s\n", out.dump().c_str());
    return exit_code::ok;
  }
  if (have_log)
    std::printf("Event log: %s (%zu events, %d runs, %d failed%s)\n", log.c_str(), seen.events,
                seen.runs, seen.failures, seen.open_runs ? ", the newest still open" : "");
  std::printf("Checkpoint cost C: %s (%s)\n", secs(*cost).c_str(), cost_from.c_str());
  std::printf("Mean time between failures M: %s (%s)\n", secs(*mtbf).c_str(), mtbf_from.c_str());
  std::printf("Young: sqrt(2*C*M) = %s\n", secs(young).c_str());
  std::printf("Daly: %s\n", secs(daly).c_str());
  // SCR_CHECKPOINT_SECONDS counts whole seconds and 0 turns the rule off: an
  // interval under a second is advised as 1.
  double advised = std::max(1.0, std::round(daly));
  std::printf("Checkpoint every %.0f seconds: SCR_CHECKPOINT_SECONDS=%.0f\n", advised, advised);
  return exit_code::ok;
}
