#include "tools/scr_run/node_probe.hpp"

#include "common/strings.hpp"
#include "tools/common/remote.hpp"

namespace scr::tools::run {
namespace {

// Run on the node as `sh -c SCRIPT scr_node_probe DIR...`. Every line it
// prints starts with a tag, so a login banner or a pdsh prefix cannot be
// mistaken for an answer.
constexpr const char* kScript =
    "echo SCR_PROBE_UP\n"
    "for d in \"$@\"; do\n"
    "  if [ ! -d \"$d\" ]; then echo \"SCR_PROBE_MISSING $d\"; continue; fi\n"
    "  t=\"$d/.scr_node_probe.$$\"\n"
    "  if ! ( : >\"$t\" ) 2>/dev/null; then echo \"SCR_PROBE_READONLY $d\"; continue; fi\n"
    "  rm -f \"$t\"\n"
    "  df -Pk \"$d\" | awk -v d=\"$d\" 'NR == 2 { print \"SCR_PROBE_SPACE\", $2, $4, d }'\n"
    "done\n";

// The probe's words: `sh -c SCRIPT scr_node_probe DIR...`.
std::vector<std::string> probe_words(const ProbeConfig& config) {
  std::vector<std::string> words{"/bin/sh", "-c", kScript, "scr_node_probe"};
  words.insert(words.end(), config.dirs.begin(), config.dirs.end());
  return words;
}

// A count of KiB from df: an integer, not negative (overflow refused).
bool parse_u64(const std::string& s, uint64_t* v) {
  auto n = str::parse_int(s);
  if (!n || *n < 0) return false;
  *v = static_cast<uint64_t>(*n);
  return true;
}

}  // namespace

std::vector<std::string> probe_argv(const ProbeConfig& config, const std::string& node) {
  return remote_argv(config.remote, node, probe_words(config), config.timeout_seconds);
}

std::optional<std::string> probe_verdict(const ProbeConfig& config, const std::string& node,
                                         const ProbeRun& run) {
  if (!run.started) return std::nullopt;
  if (run.timed_out)
    return "did not answer within " + std::to_string(config.timeout_seconds) + " s (" +
           config.remote + ")";
  bool up = false;
  for (const std::string& line : node_lines(run.output, node)) {
    if (line == "SCR_PROBE_UP") {
      up = true;
    } else if (str::starts_with(line, "SCR_PROBE_MISSING ")) {
      return "directory " + line.substr(18) + " is missing";
    } else if (str::starts_with(line, "SCR_PROBE_READONLY ")) {
      return "directory " + line.substr(19) + " is not writable";
    } else if (str::starts_with(line, "SCR_PROBE_SPACE ")) {
      auto w = str::split_ws(line);
      uint64_t capacity_kib = 0, free_kib = 0;
      if (w.size() < 4 || !parse_u64(w[1], &capacity_kib) || !parse_u64(w[2], &free_kib))
        return "unreadable answer about its directories: '" + line + "'";
      size_t at = 0;  // the directory: everything after the third word
      for (int i = 0; i < 3; ++i) at = line.find(' ', at) + 1;
      std::string dir = line.substr(at);
      uint64_t have = (config.free ? free_kib : capacity_kib) * 1024;
      if (config.min_bytes > 0 && have < config.min_bytes)
        return "directory " + dir + " has " + str::format_bytes(have) +
               (config.free ? " free" : " capacity") + ", below the minimum " +
               str::format_bytes(config.min_bytes);
    }
  }
  // (pdsh's exit status is its own, not the node's.)
  if (!up || (config.remote != "pdsh" && run.exit_code != 0))
    return "cannot run a command there (" + config.remote + " exit " +
           std::to_string(run.exit_code) + ")";
  return std::nullopt;
}

std::map<std::string, std::string> probe_nodes(const ProbeConfig& config,
                                               const std::vector<std::string>& nodes,
                                               std::vector<std::string>* notes) {
  std::map<std::string, std::string> down;
  if (config.remote.empty() || nodes.empty()) return down;
  auto runs = run_each(
      nodes, [&](const std::string& node) { return probe_argv(config, node); },
      config.timeout_seconds, nodes.size());
  bool noted = false;
  for (const auto& [node, run] : runs) {
    if (!run.started) {
      if (!noted && notes)
        notes->push_back("nodes not contacted (SCR_NODE_REMOTE/--remote '" + config.remote +
                         "'): " + run.error);
      noted = true;
      continue;
    }
    if (auto why = probe_verdict(config, node, run)) down[node] = *why;
  }
  return down;
}

}  // namespace scr::tools::run
