#include "tools/scr_run/launch.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace scr::tools::run {
namespace {

volatile sig_atomic_t g_child = 0;
volatile sig_atomic_t g_stop = 0;

void on_signal(int sig) {
  g_stop = sig;
  if (g_child > 0) ::kill(static_cast<pid_t>(g_child), sig);
}

}  // namespace

bool scr_disabled_by_environment() {
  const char* e = std::getenv("SCR_ENABLE");
  return e && std::string_view(e) == "0";
}

std::string Outcome::describe() const {
  if (!started) return error;
  if (signal != 0) return "killed by signal " + std::to_string(signal);
  return "exit " + std::to_string(exit_code);
}

void forward_signals() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(sig, &sa, nullptr);
}

int stop_signal() { return g_stop; }

Outcome run_program(const std::vector<std::string>& argv) {
  Outcome out;
  std::vector<char*> cargv;
  for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  // The child reports a failed exec through this pipe (closed on a
  // successful exec), so "not found" is told apart from the job's exit 127.
  int pipefd[2];
  if (::pipe2(pipefd, O_CLOEXEC) != 0) {
    out.error = std::string("cannot create a pipe: ") + std::strerror(errno);
    return out;
  }
  pid_t pid = ::fork();
  if (pid < 0) {
    out.error = std::string("cannot fork: ") + std::strerror(errno);
    ::close(pipefd[0]);
    ::close(pipefd[1]);
    return out;
  }
  if (pid == 0) {
    ::close(pipefd[0]);
    ::execvp(cargv[0], cargv.data());
    int err = errno;
    (void)!::write(pipefd[1], &err, sizeof err);
    ::_exit(127);
  }
  g_child = pid;
  if (g_stop != 0) ::kill(pid, g_stop);  // a signal that came before g_child was set
  ::close(pipefd[1]);
  int exec_errno = 0;
  ssize_t n;
  do n = ::read(pipefd[0], &exec_errno, sizeof exec_errno);
  while (n < 0 && errno == EINTR);
  ::close(pipefd[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  g_child = 0;
  if (n == static_cast<ssize_t>(sizeof exec_errno)) {
    out.error = "cannot run " + argv[0] + ": " + std::strerror(exec_errno);
    return out;
  }
  out.started = true;
  if (WIFSIGNALED(status)) {
    out.signal = WTERMSIG(status);
    out.exit_code = 128 + out.signal;
  } else {
    out.exit_code = WEXITSTATUS(status);
  }
  return out;
}

}  // namespace scr::tools::run
