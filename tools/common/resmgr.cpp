#include "tools/common/resmgr.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <set>

#include "common/strings.hpp"
#include "tools/common/hostlist.hpp"

namespace scr::tools {
namespace {

std::string env_or(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

std::vector<std::string> unique(const std::vector<std::string>& words) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const auto& w : words)
    if (!w.empty() && seen.insert(w).second) out.push_back(w);
  return out;
}

Result<std::vector<std::string>> slurm_nodes() {
  std::string list = env_or("SLURM_JOB_NODELIST");
  if (list.empty()) list = env_or("SLURM_NODELIST");
  if (list.empty()) return std::vector<std::string>{};
  return expand_hosts(list);
}

// LSB_HOSTS names a host once per slot; LSB_MCPU_HOSTS is "host n host n".
std::vector<std::string> lsf_nodes() {
  if (std::string hosts = env_or("LSB_HOSTS"); !hosts.empty()) return unique(str::split_ws(hosts));
  std::vector<std::string> words = str::split_ws(env_or("LSB_MCPU_HOSTS")), hosts;
  for (size_t i = 0; i < words.size(); i += 2) hosts.push_back(words[i]);
  return unique(hosts);
}

Result<std::vector<std::string>> pbs_nodes() {
  std::string file = env_or("PBS_NODEFILE");
  if (file.empty()) return std::vector<std::string>{};
  std::ifstream in(file);
  if (!in) return Error(Errc::not_found, "cannot read PBS_NODEFILE " + file);
  std::vector<std::string> hosts;
  for (std::string line; std::getline(in, line);) hosts.push_back(str::trim(line));
  return unique(hosts);
}

Result<std::vector<std::string>> flux_nodes() {
  SCR_ASSIGN_OR_RETURN(std::string out, capture_output({"flux", "hostlist", "local"}));
  return expand_hosts(str::trim(out));
}

bool has_any(const std::string& text, std::initializer_list<const char*> words) {
  for (const char* w : words)
    if (text.find(w) != std::string::npos) return true;
  return false;
}

}  // namespace

Result<std::string> capture_output(const std::vector<std::string>& argv) {
  int fds[2];
  if (::pipe(fds) != 0) return Error(Errc::io_error, std::string("pipe: ") + std::strerror(errno));
  pid_t pid = ::fork();
  if (pid < 0) return Error(Errc::io_error, std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    ::dup2(fds[1], 1);
    ::close(fds[0]);
    ::close(fds[1]);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execvp(args[0], args.data());
    ::_exit(127);
  }
  ::close(fds[1]);
  std::string out;
  char buf[4096];
  for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    out.append(buf, static_cast<size_t>(n));
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return Error(Errc::io_error, "'" + argv[0] + "' failed (" +
                               (WIFEXITED(status) ? "exit " + std::to_string(WEXITSTATUS(status))
                                                  : std::string("killed")) +
                               (WIFEXITED(status) && WEXITSTATUS(status) == 127 ? ", not found" : "") +
                               ")");
  return out;
}

Result<JobEnv> detect_job_env() {
  JobEnv job;
  if (std::string id = env_or("SLURM_JOB_ID").empty() ? env_or("SLURM_JOBID") : env_or("SLURM_JOB_ID");
      !id.empty()) {
    job.manager = "SLURM";
    job.job_id = id;
    SCR_ASSIGN_OR_RETURN(job.nodes, slurm_nodes());
  } else if (std::string fid = env_or("FLUX_JOB_ID"); !fid.empty()) {
    job.manager = "FLUX";
    job.job_id = fid;
    SCR_ASSIGN_OR_RETURN(job.nodes, flux_nodes());
  } else if (std::string lid = env_or("LSB_JOBID"); !lid.empty()) {
    job.manager = "LSF";
    job.job_id = lid;
    job.nodes = lsf_nodes();
  } else if (std::string pid = env_or("PBS_JOBID"); !pid.empty()) {
    job.manager = "PBS";
    job.job_id = pid;
    SCR_ASSIGN_OR_RETURN(job.nodes, pbs_nodes());
  }
  return job;
}

int64_t manager_end_time(const JobEnv& job) {
  if (job.manager != "SLURM") return 0;
  auto out = capture_output({"squeue", "-h", "-j", job.job_id, "-o", "%e"});
  if (!out) return 0;
  std::string text = str::trim(*out);  // local time "2026-11-24T20:05:00", or "Unknown"/"NONE"
  std::tm tm{};
  const char* rest = ::strptime(text.c_str(), "%Y-%m-%dT%H:%M:%S", &tm);
  if (!rest || *rest != '\0') return 0;
  tm.tm_isdst = -1;
  std::time_t t = std::mktime(&tm);
  return t > 0 ? static_cast<int64_t>(t) : 0;
}

std::map<std::string, std::string> manager_down_nodes(const JobEnv& job,
                                                      const std::vector<std::string>& nodes,
                                                      std::string* note) {
  std::map<std::string, std::string> down;
  std::set<std::string> wanted(nodes.begin(), nodes.end());
  auto failed = [&](const Status& st) {
    if (note) *note = "cannot ask " + job.manager + " which nodes are down: " + st.message();
    return down;
  };
  if (job.manager == "SLURM") {
    for (const auto& n : nodes) {
      auto out = capture_output({"scontrol", "show", "node", "-o", n});
      if (!out) return failed(out.status());
      // "NodeName=vm ... State=IDLE+DRAIN ..."; a trailing '*' means not responding.
      for (const auto& word : str::split_ws(*out))
        if (str::starts_with(word, "State=")) {
          std::string state = word.substr(6);
          if (has_any(state, {"DOWN", "DRAIN", "FAIL", "*", "NOT_RESPONDING", "POWER"}))
            down[n] = state;
        }
    }
  } else if (job.manager == "FLUX") {
    auto out = capture_output({"flux", "resource", "list", "-s", "down", "-no", "{nodelist}"});
    if (!out) return failed(out.status());
    auto hosts = expand_hosts(str::trim(*out));
    if (!hosts) return failed(hosts.status());
    for (const auto& h : *hosts)
      if (wanted.count(h)) down[h] = "DOWN";
  } else if (job.manager == "LSF") {
    auto out = capture_output({"bhosts", "-w"});
    if (!out) return failed(out.status());
    for (const auto& line : str::split(*out, '\n')) {
      auto w = str::split_ws(line);
      if (w.size() >= 2 && wanted.count(w[0]) && has_any(w[1], {"unavail", "unreach", "closed_Adm", "closed_LIM"}))
        down[w[0]] = w[1];
    }
  } else if (job.manager == "PBS") {
    auto out = capture_output({"pbsnodes", "-l"});
    if (!out) return failed(out.status());
    for (const auto& line : str::split(*out, '\n')) {
      auto w = str::split_ws(line);
      if (w.size() >= 2 && wanted.count(w[0])) down[w[0]] = w[1];
    }
  }
  return down;
}

}  // namespace scr::tools
