#include "tools/scr_scavenge/agent.hpp"

#include <cstdio>
#include <cstring>
#include <set>

#include "common/strings.hpp"
#include "io/path.hpp"
#include "redset/member_facts_tree.hpp"
#include "tools/common/args.hpp"
#include "tools/common/remote.hpp"
#include "tools/scr_scavenge/caches.hpp"
#include "tools/scr_scavenge/copy.hpp"
#include "tools/scr_scavenge/records.hpp"
#include "tools/scr_scavenge/wire.hpp"

namespace scr::tools::scavenge {
namespace {

const OptionSpec kAgentOptions[] = {
    {"--agent", OptionSpec::value, "MODE", "scan, copy or mark"},
    {"--prefix", OptionSpec::value, "DIR", ""},
    {"--cntl-base", OptionSpec::value, "DIR", ""},
    {"--cache-base", OptionSpec::value, "DIR", ""},
    {"--cache-base-given", OptionSpec::flag, "", ""},
    {"--user", OptionSpec::value, "NAME", ""},
    {"--job-id", OptionSpec::value, "ID", ""},
    {"--id", OptionSpec::value, "N", ""},
    {"--ranks", OptionSpec::value, "LIST", ""},
};

// The job's control directory on this node, and its filemaps.
struct Local {
  Options o;
  std::string cntl;
  std::vector<std::shared_ptr<const rt::Filemap>> filemaps;
  std::vector<std::string> notes;

  rt::Identity who() const { return {o.user, o.job_id, "", false}; }
  Holding holding(const std::shared_ptr<const rt::Filemap>& fm, int id) const {
    return {"", static_cast<int>(fm->tree().int_or("RANK", 0)), holding_dir(o, who(), *fm, id), fm,
            id, std::nullopt};
  }
};

kv::Tree scan(io::Env& env, const Local& local) {
  kv::Tree answer;
  answer.set("NODE", short_host_name());
  if (!env.exists(local.cntl)) answer.set("NOCNTL", local.cntl);
  int n = 0;
  for (const auto& fm : local.filemaps) {
    kv::Tree& t = answer.child("FM", n++);
    t.set("PATH", fm->path());
    t.set_int("RANK", fm->tree().int_or("RANK", 0));
    t.put("TREE", fm->tree());
    for (int id : fm->ids()) {
      Holding h = local.holding(fm, id);
      kv::Tree& held = t.child("HOLD", id);
      held.set("DIR", h.dir);
      held.set_int("WHOLE", h.whole(env) ? 1 : 0);
      held.set_uint("BYTES", holding_bytes(env, h));
      if (auto facts = read_holding_facts(env, h)) held.put("FACTS", redset::facts_tree(*facts));
    }
  }
  int i = 0;
  for (const auto& note : local.notes) answer.child("NOTE", i++).set("TEXT", note);
  return answer;
}

// Each named rank from its first whole holding here (else its first one).
kv::Tree copy(io::Env& env, const Local& local, int id, const std::set<int>& ranks) {
  kv::Tree answer;
  answer.set("NODE", short_host_name());
  std::map<int, Holding> chosen;
  for (const auto& fm : local.filemaps) {
    if (!fm->has(id)) continue;
    Holding h = local.holding(fm, id);
    if (!ranks.count(h.rank)) continue;
    auto at = chosen.find(h.rank);
    if (at == chosen.end() || (!at->second.whole(env) && h.whole(env))) chosen.insert_or_assign(h.rank, h);
  }
  Progress quiet("", 0, nullptr);
  for (int rank : ranks) {
    kv::Tree& r = answer.child("RANK", rank);
    auto at = chosen.find(rank);
    if (at == chosen.end()) {
      r.set("ERROR", "no filemap here lists it");
      continue;
    }
    const kv::Tree* desc = at->second.desc();
    auto entry = copy_rank(env, at->second, desc ? *desc : kv::Tree(), local.o.prefix, quiet);
    if (entry) {
      r.put("ENTRY", std::move(entry).value());
    } else {
      r.set("ERROR", entry.status().message());
      r.set_int("ERRC", static_cast<int64_t>(entry.status().code()));
    }
  }
  return answer;
}

kv::Tree mark(io::Env& env, const Local& local, int id) {
  kv::Tree answer;
  answer.set("NODE", short_host_name());
  int i = 0;
  for (const auto& fm : local.filemaps)
    if (fm->has(id))
      if (Status st = mark_filemap_flushed(env, fm->path(), static_cast<int>(fm->tree().int_or("RANK", 0)), id);
          !st.ok())
        answer.child("FAILED", i++).set("TEXT", fm->path() + ": " + st.message());
  return answer;
}

int usage(const std::string& why) {
  std::fprintf(stderr, "scr_scavenge --agent: %s\n", why.c_str());
  return 1;
}

}  // namespace

bool is_agent_call(int argc, const char* const* argv) {
  return argc > 1 && std::strcmp(argv[1], "--agent") == 0;
}

int run_agent(int argc, const char* const* argv) {
  auto args = parse_args(kAgentOptions, argc, argv);
  if (!args) return usage(args.status().message());
  Local local;
  Options& o = local.o;
  std::string mode = args->value("--agent").value_or("");
  o.prefix = args->value("--prefix").value_or("");
  o.cntl_base = args->value("--cntl-base").value_or("");
  o.cache_base = args->value("--cache-base").value_or("");
  o.cache_base_given = args->has("--cache-base-given");
  o.user = args->value("--user").value_or("");
  o.job_id = args->value("--job-id").value_or("");
  for (const auto& [name, v] : {std::pair{"--prefix", o.prefix}, {"--cntl-base", o.cntl_base},
                                {"--cache-base", o.cache_base}, {"--user", o.user},
                                {"--job-id", o.job_id}})
    if (v.empty()) return usage(std::string(name) + " is required");
  // They name directories below the bases: never a path of their own.
  for (const auto& [name, v] : {std::pair{"--user", o.user}, {"--job-id", o.job_id}})
    if (!io::path::is_plain_name(v)) return usage(std::string(name) + " '" + v + "' is not a plain name");
  int id = -1;
  if (mode != "scan") {
    auto n = str::parse_int(args->value("--id").value_or(""));
    if (!n || *n < 0) return usage("--id N is required for " + mode);
    id = static_cast<int>(*n);
  }
  std::set<int> ranks;
  for (const auto& word : str::split(args->value("--ranks").value_or(""), ',')) {
    auto r = str::parse_int(word);
    if (!r || *r < 0) return usage("--ranks: '" + word + "' is not a rank");
    ranks.insert(static_cast<int>(*r));
  }
  io::Env& env = io::Env::posix();
  local.cntl = rt::job_dir(o.cntl_base, local.who());
  local.filemaps = read_filemaps(env, o.cntl_base, local.cntl, &local.notes);
  kv::Tree answer;
  if (mode == "scan")
    answer = scan(env, local);
  else if (mode == "copy")
    answer = copy(env, local, id, ranks);
  else if (mode == "mark")
    answer = mark(env, local, id);
  else
    return usage("unknown mode '" + mode + "'");
  std::fputs(frame_answer(answer).c_str(), stdout);
  return std::fflush(stdout) == 0 ? 0 : 1;
}

std::vector<std::string> agent_argv(const AgentCall& c) {
  std::vector<std::string> argv{c.program,   "--agent",   c.mode,         "--prefix",
                                c.prefix,    "--cntl-base", c.cntl_base, "--cache-base",
                                c.cache_base, "--user",    c.user,         "--job-id",
                                c.job_id};
  if (c.cache_base_given) argv.push_back("--cache-base-given");
  if (c.id >= 0) {
    argv.push_back("--id");
    argv.push_back(std::to_string(c.id));
  }
  if (!c.ranks.empty()) {
    argv.push_back("--ranks");
    argv.push_back(str::join_ints(c.ranks, ","));
  }
  return argv;
}

}  // namespace scr::tools::scavenge
