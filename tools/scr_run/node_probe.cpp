#include "tools/scr_run/node_probe.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include "common/strings.hpp"

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

std::string shell_quote(const std::string& word) {
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// The probe as one shell line, for methods that hand a command line to the
// node's shell (ssh, pdsh, rsh agents).
std::string shell_line(const ProbeConfig& config) {
  std::string line = "/bin/sh -c " + shell_quote(kScript) + " scr_node_probe";
  for (const auto& d : config.dirs) line += " " + shell_quote(d);
  return line;
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
  std::vector<std::string> argv;
  if (config.remote == "srun") {
    // One task on that node, beside any step already running there.
    argv = {"srun", "--overlap", "-N", "1", "-n", "1", "-w", node, "/bin/sh", "-c", kScript,
            "scr_node_probe"};
    argv.insert(argv.end(), config.dirs.begin(), config.dirs.end());
    return argv;
  }
  if (config.remote == "pdsh") {
    argv = {"pdsh", "-w", node, shell_line(config)};
  } else if (config.remote == "ssh") {
    argv = {"ssh", "-o", "BatchMode=yes", "-o",
            "ConnectTimeout=" + std::to_string(config.timeout_seconds), node, shell_line(config)};
  } else {
    argv = str::split_ws(config.remote);
    argv.push_back(node);
    argv.push_back(shell_line(config));
  }
  return argv;
}

std::optional<std::string> probe_verdict(const ProbeConfig& config, const std::string& node,
                                         const ProbeRun& run) {
  if (!run.started) return std::nullopt;
  if (run.timed_out)
    return "did not answer within " + std::to_string(config.timeout_seconds) + " s (" +
           config.remote + ")";
  bool up = false;
  for (std::string line : str::split(run.output, '\n')) {
    // pdsh prefixes each line with "node: ".
    if (str::starts_with(line, node + ": ")) line = line.substr(node.size() + 2);
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
  struct Child {
    std::string node;
    pid_t pid = -1;
    int fd = -1;
    ProbeRun run;
  };
  std::vector<Child> children;
  for (const auto& node : nodes) {
    Child c;
    c.node = node;
    std::vector<std::string> argv = probe_argv(config, node);
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
      c.run.error = std::string("pipe: ") + std::strerror(errno);
      children.push_back(std::move(c));
      continue;
    }
    // The exec's failure comes back through a second pipe (closed on a
    // successful exec), so "cannot run" is told apart from "ran and failed".
    int errfds[2];
    if (::pipe2(errfds, O_CLOEXEC) != 0) {
      ::close(fds[0]);
      ::close(fds[1]);
      c.run.error = std::string("pipe: ") + std::strerror(errno);
      children.push_back(std::move(c));
      continue;
    }
    pid_t pid = ::fork();
    if (pid == 0) {
      ::setpgid(0, 0);  // its own group: a timeout kills the whole remote command
      ::dup2(fds[1], 1);
      int devnull = ::open("/dev/null", O_RDWR);
      if (devnull >= 0) ::dup2(devnull, 0);
      std::vector<char*> args;
      for (auto& a : argv) args.push_back(a.data());
      args.push_back(nullptr);
      ::execvp(args[0], args.data());
      int e = errno;
      (void)!::write(errfds[1], &e, sizeof e);
      ::_exit(127);
    }
    ::close(fds[1]);
    ::close(errfds[1]);
    if (pid < 0) {
      ::close(fds[0]);
      ::close(errfds[0]);
      c.run.error = std::string("fork: ") + std::strerror(errno);
      children.push_back(std::move(c));
      continue;
    }
    int e = 0;
    ssize_t n;
    while ((n = ::read(errfds[0], &e, sizeof e)) < 0 && errno == EINTR) {
    }
    ::close(errfds[0]);
    if (n == static_cast<ssize_t>(sizeof e)) {
      c.run.error = "cannot run '" + argv[0] + "': " + std::strerror(e);
      ::close(fds[0]);
      while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
      }
      children.push_back(std::move(c));
      continue;
    }
    c.pid = pid;
    c.fd = fds[0];
    c.run.started = true;
    children.push_back(std::move(c));
  }

  // Read every answer until all are complete or the time is up.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(config.timeout_seconds);
  for (;;) {
    std::vector<pollfd> polls;
    std::vector<Child*> owners;
    for (auto& c : children)
      if (c.fd >= 0) {
        polls.push_back({c.fd, POLLIN, 0});
        owners.push_back(&c);
      }
    if (polls.empty()) break;
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    deadline - std::chrono::steady_clock::now())
                    .count();
    if (left <= 0) break;
    int r = ::poll(polls.data(), polls.size(), static_cast<int>(left));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    for (size_t i = 0; i < polls.size(); ++i) {
      if (!polls[i].revents) continue;
      char buf[4096];
      ssize_t got = ::read(polls[i].fd, buf, sizeof buf);
      if (got > 0) {
        owners[i]->run.output.append(buf, static_cast<size_t>(got));
      } else if (got == 0 || errno != EINTR) {
        ::close(owners[i]->fd);
        owners[i]->fd = -1;
      }
    }
  }
  for (auto& c : children) {
    if (c.pid < 0) continue;
    int status = 0;
    // Output closed: the program is ending; give it until the deadline.
    for (;;) {
      pid_t w = ::waitpid(c.pid, &status, WNOHANG);
      if (w == c.pid) break;
      if (w < 0 && errno != EINTR) break;
      if (std::chrono::steady_clock::now() >= deadline) {
        c.run.timed_out = true;
        ::kill(-c.pid, SIGKILL);
        ::kill(c.pid, SIGKILL);
        while (::waitpid(c.pid, &status, 0) < 0 && errno == EINTR) {
        }
        break;
      }
      ::usleep(10000);
    }
    if (c.fd >= 0) {
      c.run.timed_out = true;
      ::close(c.fd);
    }
    c.run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  bool noted = false;
  for (const auto& c : children) {
    if (!c.run.started) {
      if (!noted && notes)
        notes->push_back("nodes not contacted (SCR_NODE_REMOTE/--remote '" + config.remote +
                         "'): " + c.run.error);
      noted = true;
      continue;
    }
    if (auto why = probe_verdict(config, c.node, c.run)) down[c.node] = *why;
  }
  return down;
}

}  // namespace scr::tools::run
