#include "tools/common/remote.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <climits>
#include <cerrno>
#include <cstdlib>
#include <chrono>
#include <cstring>
#include <deque>
#include <optional>

#include "common/strings.hpp"
#include "io/path.hpp"

namespace scr::tools {
namespace {

using Clock = std::chrono::steady_clock;

std::string shell_quote(const std::string& word) {
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// One node's command while it runs.
struct Child {
  std::string node;
  pid_t pid = -1;
  int fd = -1;  // its stdout
  std::optional<Clock::time_point> deadline;
  NodeRun run;
};

// Starts the command; the exec's failure comes back through a second pipe
// (closed by a successful exec), so "cannot run" is told apart from "ran
// and failed".
void start(Child& c, std::vector<std::string> argv) {
  int fds[2], errfds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    c.run.error = std::string("pipe: ") + std::strerror(errno);
    return;
  }
  if (::pipe2(errfds, O_CLOEXEC) != 0) {
    c.run.error = std::string("pipe: ") + std::strerror(errno);
    ::close(fds[0]);
    ::close(fds[1]);
    return;
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
    c.run.error = std::string("fork: ") + std::strerror(errno);
    ::close(fds[0]);
    ::close(errfds[0]);
    return;
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
    return;
  }
  c.pid = pid;
  c.fd = fds[0];
  c.run.started = true;
}

bool over_time(const Child& c) { return c.deadline && Clock::now() >= *c.deadline; }

// Once its output is closed the program is ending: wait for it, up to its
// deadline, then kill its group. Returns false while it still runs.
bool reap(Child& c, bool force) {
  int status = 0;
  pid_t w;
  while ((w = ::waitpid(c.pid, &status, WNOHANG)) < 0 && errno == EINTR) {
  }
  if (w == 0 && !force && !over_time(c)) return false;
  if (w == 0) {
    c.run.timed_out = true;
    ::kill(-c.pid, SIGKILL);
    ::kill(c.pid, SIGKILL);
    while (::waitpid(c.pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  if (c.fd >= 0) {
    c.run.timed_out = true;
    ::close(c.fd);
    c.fd = -1;
  }
  c.run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  c.pid = -1;
  return true;
}

}  // namespace

std::string shell_line(const std::vector<std::string>& argv) {
  std::string line;
  for (const auto& w : argv) line += (line.empty() ? "" : " ") + shell_quote(w);
  return line;
}

std::vector<std::string> remote_argv(const std::string& method, const std::string& node,
                                     const std::vector<std::string>& argv,
                                     int connect_timeout_seconds) {
  std::vector<std::string> out;
  if (method == "srun") {
    out = {"srun", "--overlap", "-N", "1", "-n", "1", "-w", node};
  } else if (method == "mpirun") {
    out = {"mpirun", "-n", "1", "--host", node};
  } else if (method == "pdsh") {
    return {"pdsh", "-w", node, shell_line(argv)};
  } else if (method == "ssh") {
    return {"ssh", "-o", "BatchMode=yes", "-o",
            "ConnectTimeout=" + std::to_string(connect_timeout_seconds), node, shell_line(argv)};
  } else {
    out = str::split_ws(method);
    out.push_back(node);
    out.push_back(shell_line(argv));
    return out;
  }
  out.insert(out.end(), argv.begin(), argv.end());
  return out;
}

std::map<std::string, NodeRun> run_each(
    const std::vector<std::string>& nodes,
    const std::function<std::vector<std::string>(const std::string& node)>& argv_for,
    int timeout_seconds, size_t fanout) {
  std::map<std::string, NodeRun> out;
  std::deque<std::string> waiting(nodes.begin(), nodes.end());
  std::vector<Child> running;
  if (fanout == 0) fanout = 1;
  while (!waiting.empty() || !running.empty()) {
    while (!waiting.empty() && running.size() < fanout) {
      Child c;
      c.node = waiting.front();
      waiting.pop_front();
      if (timeout_seconds > 0) c.deadline = Clock::now() + std::chrono::seconds(timeout_seconds);
      start(c, argv_for(c.node));
      if (c.run.started)
        running.push_back(std::move(c));
      else
        out[c.node] = std::move(c.run);
    }
    std::vector<pollfd> polls;
    std::vector<Child*> owners;
    for (auto& c : running)
      if (c.fd >= 0) {
        polls.push_back({c.fd, POLLIN, 0});
        owners.push_back(&c);
      }
    if (!polls.empty()) {
      int r = ::poll(polls.data(), polls.size(), 100);
      if (r < 0 && errno != EINTR) break;
      for (size_t i = 0; r > 0 && i < polls.size(); ++i) {
        if (!polls[i].revents) continue;
        char buf[65536];
        ssize_t got = ::read(polls[i].fd, buf, sizeof buf);
        if (got > 0) {
          owners[i]->run.output.append(buf, static_cast<size_t>(got));
        } else if (got == 0 || errno != EINTR) {
          ::close(owners[i]->fd);
          owners[i]->fd = -1;
        }
      }
    } else {
      ::usleep(10000);
    }
    for (auto it = running.begin(); it != running.end();) {
      bool done = (it->fd < 0 || over_time(*it)) && reap(*it, false);
      if (!done) {
        ++it;
        continue;
      }
      out[it->node] = std::move(it->run);
      it = running.erase(it);
    }
  }
  for (auto& c : running) {  // only after a failed poll
    reap(c, true);
    out[c.node] = std::move(c.run);
  }
  return out;
}

std::string short_host_name() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) return "";
  std::string s(name);
  return s.substr(0, s.find('.'));
}

std::string own_executable() {
  char buf[PATH_MAX];
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
}

std::string find_on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  for (const auto& dir : str::split(path ? path : "", ':'))
    if (std::string at = io::path::join(dir, program); ::access(at.c_str(), X_OK) == 0) return at;
  return "";
}

std::vector<std::string> node_lines(const std::string& output, const std::string& node) {
  std::vector<std::string> lines;
  for (std::string line : str::split(output, '\n')) {
    if (str::starts_with(line, node + ": ")) line = line.substr(node.size() + 2);
    lines.push_back(std::move(line));
  }
  return lines;
}

}  // namespace scr::tools
