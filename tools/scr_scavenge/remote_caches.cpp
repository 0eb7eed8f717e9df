#include "tools/scr_scavenge/remote_caches.hpp"

#include "common/strings.hpp"
#include "redset/member_facts_tree.hpp"
#include "tools/common/remote.hpp"
#include "tools/common/resmgr.hpp"
#include "tools/scr_scavenge/agent.hpp"
#include "tools/scr_scavenge/wire.hpp"

namespace scr::tools::scavenge {
namespace {

// Why a host's run gave nothing usable, or nullopt with its answer in `tree`.
std::optional<std::string> answer_of(const std::string& host, const NodeRun& run,
                                     int timeout_seconds, kv::Tree* tree) {
  if (!run.started) return "cannot run the agent there: " + run.error;
  if (run.timed_out)
    return "did not answer within " + std::to_string(timeout_seconds) + " s";
  auto answer = read_answer(run.output, host);
  if (!answer)
    return answer.status().message() + " (exit " + std::to_string(run.exit_code) + ")";
  *tree = std::move(answer).value();
  return std::nullopt;
}

class RemoteCaches : public Caches {
 public:
  RemoteCaches(io::Env& env, const Options& o, std::string program)
      : env_(env), o_(o), program_(std::move(program)) {}

  CacheScan scan() override {
    CacheScan out;
    std::vector<std::string> contact = reachable(&out.notes);
    auto runs = run_each(
        contact, [&](const std::string& host) { return on(host, call("scan")); },
        o_.timeout_seconds);
    std::map<int, CachedDataset> by_id;
    // Also when none could be asked (all down or excluded): nothing is
    // known of their caches either.
    out.no_host_answered = true;
    for (const auto& [host, run] : runs) {
      kv::Tree answer;
      if (auto why = answer_of(host, run, o_.timeout_seconds, &answer)) {
        out.notes.push_back("host " + host + " " + *why + "; its ranks count as lost");
        continue;
      }
      out.no_host_answered = false;
      if (auto cntl = answer.value("NOCNTL"))
        out.notes.push_back("host " + host + " has no control directory " + *cntl +
                            " (lost, or never used)");
      if (const kv::Tree* notes = answer.get("NOTE"))
        for (const auto& [i, note] : notes->children())
          out.notes.push_back("host " + host + ": " + note->value_or("TEXT", ""));
      add_filemaps(host, answer, by_id, &out.notes);
    }
    for (auto& [id, ds] : by_id) out.datasets.push_back(std::move(ds));
    return out;
  }

  std::map<int, redset::MemberFacts> facts(const CachedDataset& ds) override {
    std::map<int, redset::MemberFacts> out;
    for (const auto& [rank, holdings] : ds.ranks) {
      const Holding& h = best(ds, rank);
      if (h.seen && h.seen->facts) out[rank] = *h.seen->facts;
    }
    return out;
  }

  uint64_t bytes(const Holding& h) override { return h.seen ? h.seen->bytes : 0; }

  Result<Copied> copy(const CachedDataset& ds, const std::vector<int>& ranks,
                      Progress& progress) override {
    std::map<std::string, std::vector<int>> by_host;
    std::map<std::string, uint64_t> host_bytes;
    for (int rank : ranks) {
      const Holding& h = best(ds, rank);
      by_host[h.node].push_back(rank);
      host_bytes[h.node] += bytes(h);
    }
    std::vector<std::string> hosts;
    for (const auto& [host, r] : by_host) hosts.push_back(host);
    auto runs = run_each(
        hosts,
        [&](const std::string& host) {
          AgentCall c = call("copy");
          c.id = ds.id;
          c.ranks = by_host[host];
          return on(host, c);
        },
        0);
    Copied out;
    for (const auto& [host, run] : runs) {
      kv::Tree answer;
      if (auto why = answer_of(host, run, 0, &answer)) {
        out.notes.push_back("host " + host + " could not copy ranks " + str::join_ints(by_host[host]) +
                            ": " + *why);
        continue;
      }
      progress.add(host_bytes[host]);
      for (int rank : by_host[host]) {
        const kv::Tree* r = answer.at({"RANK", std::to_string(rank)});
        const kv::Tree* entry = r ? r->get("ENTRY") : nullptr;
        if (entry) {
          out.entries[rank] = *entry;
          continue;
        }
        std::string why = "rank " + std::to_string(rank) + " on host " + host + " was not copied: " +
                          (r ? r->value_or("ERROR", "no reason given") : "no answer for it");
        // The prefix is full: a rebuild there cannot succeed either, and the
        // dataset fails as on one host (an I/O error, not a loss).
        if (r && r->int_or("ERRC", 0) == static_cast<int64_t>(Errc::no_space)) {
          if (out.stopped.ok()) out.stopped = Error(Errc::no_space, why);
        } else {
          out.notes.push_back(why);
        }
      }
    }
    return out;
  }

  std::vector<std::string> mark_flushed(const CachedDataset& ds) override {
    std::set<std::string> holders;
    for (const auto& [rank, holdings] : ds.ranks)
      for (const Holding& h : holdings) holders.insert(h.node);
    auto runs = run_each(
        std::vector<std::string>(holders.begin(), holders.end()),
        [&](const std::string& host) {
          AgentCall c = call("mark");
          c.id = ds.id;
          return on(host, c);
        },
        o_.timeout_seconds);
    std::vector<std::string> failed;
    for (const auto& [host, run] : runs) {
      kv::Tree answer;
      if (auto why = answer_of(host, run, o_.timeout_seconds, &answer)) {
        failed.push_back("host " + host + ": " + *why);
        continue;
      }
      if (const kv::Tree* f = answer.get("FAILED"))
        for (const auto& [i, text] : f->children())
          failed.push_back("host " + host + ": " + text->value_or("TEXT", ""));
    }
    return failed;
  }

  const Holding& best(const CachedDataset& ds, int rank) override { return ds.best(env_, rank); }

 private:
  AgentCall call(const std::string& mode) const {
    AgentCall c;
    c.program = program_;
    c.mode = mode;
    c.prefix = o_.prefix;
    c.cntl_base = o_.cntl_base;
    c.cache_base = o_.cache_base;
    c.cache_base_given = o_.cache_base_given;
    c.user = o_.user;
    c.job_id = o_.job_id;
    return c;
  }

  std::vector<std::string> on(const std::string& host, const AgentCall& c) const {
    return remote_argv(o_.remote, host, agent_argv(c), o_.timeout_seconds);
  }

  // The hosts worth contacting: not excluded, not down by the resource
  // manager's verdict (a run there would only wait for the timeout).
  std::vector<std::string> reachable(std::vector<std::string>* notes) const {
    std::map<std::string, std::string> down;
    if (auto job = detect_job_env(); job && !job->manager.empty()) {
      std::string note;
      down = manager_down_nodes(*job, o_.hosts, &note);
      if (!note.empty()) notes->push_back(note);
    }
    std::vector<std::string> contact;
    for (const auto& host : o_.hosts) {
      if (o_.excluded.count(host))
        notes->push_back("host " + host + " is excluded (SCR_EXCLUDE_NODES); its ranks count as lost");
      else if (auto d = down.find(host); d != down.end())
        notes->push_back("host " + host + " is " + d->second +
                         " by the resource manager; its ranks count as lost");
      else
        contact.push_back(host);
    }
    return contact;
  }

  void add_filemaps(const std::string& host, const kv::Tree& answer,
                    std::map<int, CachedDataset>& by_id, std::vector<std::string>* notes) const {
    const kv::Tree* fms = answer.get("FM");
    if (!fms) return;
    for (const auto& [i, t] : fms->children()) {
      const kv::Tree* tree = t->get("TREE");
      auto path = t->value("PATH");
      int rank = static_cast<int>(t->int_or("RANK", -1));
      if (!tree || !path || rank < 0) {
        notes->push_back("host " + host + " described a filemap without its contents; ignored");
        continue;
      }
      auto fm = std::make_shared<const rt::Filemap>(rt::Filemap::from_tree(*path, rank, *tree));
      const kv::Tree* holds = t->get("HOLD");
      for (int id : fm->ids()) {
        const kv::Tree* held = holds ? holds->get(std::to_string(id)) : nullptr;
        if (!held) continue;
        Holding::Seen seen;
        seen.whole = held->int_or("WHOLE", 0) == 1;
        seen.bytes = held->uint_or("BYTES", 0);
        if (const kv::Tree* f = held->get("FACTS"))
          if (auto facts = redset::facts_from_tree(*f)) seen.facts = std::move(*facts);
        add_holding(by_id, {host, rank, held->value_or("DIR", ""), fm, id, std::move(seen)});
      }
    }
  }

  io::Env& env_;
  const Options& o_;
  std::string program_;
};

}  // namespace

std::unique_ptr<Caches> remote_caches(io::Env& env, const Options& o, std::string program) {
  return std::make_unique<RemoteCaches>(env, o, std::move(program));
}

std::string own_program() {
  std::string self = own_executable();
  return self.empty() ? std::string("scr_scavenge") : self;
}

}  // namespace scr::tools::scavenge
