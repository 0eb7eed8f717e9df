#include "runtime/prefix/event_log.hpp"

#include <sys/socket.h>
#include <sys/un.h>
#include <syslog.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>

#include "common/json.hpp"
#include "common/log.hpp"
#include "io/path.hpp"
#include "runtime/prefix/prefix_index.hpp"

namespace scr::rt {
namespace {

int facility_of(const std::string& name) {
  static const std::pair<const char*, int> kNames[] = {
      {"LOG_USER", LOG_USER}, {"LOG_DAEMON", LOG_DAEMON}, {"LOG_LOCAL0", LOG_LOCAL0},
      {"LOG_LOCAL1", LOG_LOCAL1}, {"LOG_LOCAL2", LOG_LOCAL2}, {"LOG_LOCAL3", LOG_LOCAL3},
      {"LOG_LOCAL4", LOG_LOCAL4}, {"LOG_LOCAL5", LOG_LOCAL5}, {"LOG_LOCAL6", LOG_LOCAL6},
      {"LOG_LOCAL7", LOG_LOCAL7}};
  for (const auto& [n, v] : kNames)
    if (name == n) return v;
  return LOG_LOCAL7;
}

int level_of(const std::string& name) {
  static const std::pair<const char*, int> kNames[] = {
      {"LOG_EMERG", LOG_EMERG}, {"LOG_ALERT", LOG_ALERT}, {"LOG_CRIT", LOG_CRIT},
      {"LOG_ERR", LOG_ERR}, {"LOG_WARNING", LOG_WARNING}, {"LOG_NOTICE", LOG_NOTICE},
      {"LOG_INFO", LOG_INFO}, {"LOG_DEBUG", LOG_DEBUG}};
  for (const auto& [n, v] : kNames)
    if (name == n) return v;
  return LOG_INFO;
}

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// Values are printed as one token: blanks and control characters become '_'.
std::string token(const std::string& s) {
  std::string out = s;
  for (char& c : out)
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f) c = '_';
  return out;
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}

}  // namespace

EventLog::EventLog(io::Env& env, const Settings& s, const std::string& job_id, const std::string& user,
                   bool writer)
    : env_(&env), job_(job_id), user_(user) {
  enabled_ = writer && s.log_enable;
  if (!enabled_) return;
  std::string dir = prefix_scr_dir(s.prefix);
  if (s.log_txt) text_path_ = io::path::join(dir, "log");
  if (s.log_json) json_path_ = io::path::join(dir, "log.jsonl");
  if (s.log_syslog) syslog_socket_ = s.log_syslog_socket;
  ident_ = s.log_syslog_prefix;
  priority_ = facility_of(s.log_syslog_facility) | level_of(s.log_syslog_level);
}

std::string EventLog::text_line(const std::string& when, const std::string& job,
                                const std::string& user, const Event& e) {
  std::string line = when + " SCR job=" + token(job) + " user=" + token(user) + " event=" + e.type;
  if (!e.dataset.empty()) line += " dataset=" + token(e.dataset);
  if (e.id > 0) line += " id=" + std::to_string(e.id);
  if (e.seconds >= 0) line += " seconds=" + number(e.seconds);
  if (e.bytes >= 0) line += " bytes=" + std::to_string(e.bytes);
  if (!e.note.empty()) line += " note=" + token(e.note);
  return line;
}

std::string EventLog::json_line(const std::string& when, const std::string& job,
                                const std::string& user, const Event& e) {
  Json line = Json::object();
  line.set("time", when).set("job", job).set("user", user).set("event", e.type);
  if (!e.dataset.empty()) line.set("dataset", e.dataset);
  if (e.id > 0) line.set("id", e.id);
  if (e.seconds >= 0) line.set("seconds", Json::fixed(e.seconds, 3));  // as number() in the text line
  if (e.bytes >= 0) line.set("bytes", static_cast<int64_t>(e.bytes));
  if (!e.note.empty()) line.set("note", e.note);
  return line.dump_line();
}

void EventLog::append(const std::string& path, const std::string& line, bool* failed) {
  if (path.empty() || *failed) return;
  std::string bytes = line + "\n";
  // Opened for each line, so a log file moved or removed meanwhile is made
  // again; one write at the end of the file, whatever its offset says.
  auto file = env_->open(path, io::OpenMode::append, 0600);
  Status st = file.status();
  if (st.ok()) st = (*file)->pwrite(bytes.data(), bytes.size(), 0);
  if (file.ok()) {
    Status closed = (*file)->close();
    if (st.ok()) st = closed;
  }
  if (!st.ok()) {
    *failed = true;
    log::warn("event log: " + st.message() + "; no more events are written to " + path);
  }
}

// RFC 3164: "<PRI>Mmm dd hh:mm:ss IDENT[PID]: MESSAGE" to the local socket.
void EventLog::send_syslog(const std::string& line) {
  if (syslog_socket_.empty() || syslog_failed_) return;
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  ::localtime_r(&t, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%b %e %H:%M:%S", &tm);
  std::string msg = "<" + std::to_string(priority_) + ">" + stamp + " " + ident_ + "[" +
                    std::to_string(::getpid()) + "]: " + line;
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  bool ok = syslog_socket_.size() < sizeof addr.sun_path;
  int fd = ok ? ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0) : -1;
  if (fd >= 0) {
    std::memcpy(addr.sun_path, syslog_socket_.c_str(), syslog_socket_.size() + 1);
    ok = ::sendto(fd, msg.data(), msg.size(), 0, reinterpret_cast<sockaddr*>(&addr), sizeof addr) >= 0;
    ::close(fd);
  } else {
    ok = false;
  }
  if (!ok) {
    syslog_failed_ = true;
    log::warn("syslog socket " + syslog_socket_ + ": " + std::strerror(errno) +
              "; no more events are sent to syslog");
  }
}

void EventLog::record(const Event& e) {
  if (!enabled_) return;
  std::string when = utc_now();
  std::string text = text_line(when, job_, user_, e);
  append(text_path_, text, &text_failed_);
  append(json_path_, json_line(when, job_, user_, e), &json_failed_);
  send_syslog(text.substr(when.size() + 1));  // syslog stamps its own time
}

}  // namespace scr::rt
