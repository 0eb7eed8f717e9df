// The event log (SCR_LOG_ENABLE=1): what happened to a run, for people and
// tools. Rank 0 records each event, with numbers every rank has agreed on,
// to up to three sinks:
//   - text, <prefix>/.scr/log (SCR_LOG_TXT_ENABLE), one line per event:
//       2026-11-24T13:05:01Z SCR job=1234 user=me event=CHECKPOINT_COMPLETE
//         dataset=ckpt.10 id=3 seconds=0.412 bytes=536870912
//   - JSON lines, <prefix>/.scr/log.jsonl (SCR_LOG_JSON_ENABLE), the same
//     fields as one object per line;
//   - syslog (SCR_LOG_SYSLOG_ENABLE): RFC 3164 datagrams to
//     SCR_LOG_SYSLOG_SOCKET (/dev/log) with SCR_LOG_SYSLOG_PREFIX, _FACILITY
//     and _LEVEL.
// Each line is one write to a file opened to append (io::OpenMode::append,
// through the job's io::Env like every other file), so jobs sharing a prefix
// never tear lines. A sink that fails is reported once on stderr and then
// left alone: the log never fails the run.
#pragma once

#include <cstdint>
#include <string>

#include "io/env.hpp"
#include "runtime/config/settings.hpp"

namespace scr::rt {

struct Event {
  std::string type;     // START, END, DATASET_START, CHECKPOINT_COMPLETE, ...
  std::string dataset;  // dataset name, when the event is about one
  int id = 0;           // dataset id
  double seconds = -1;  // duration, when measured
  int64_t bytes = -1;   // bytes moved, when counted
  std::string note;     // reason, outcome, ...
};

class EventLog {
 public:
  EventLog() = default;  // records nothing
  // The writer records (rank 0), through `env`, which must outlive the log;
  // every other process holds a silent log.
  EventLog(io::Env& env, const Settings& s, const std::string& job_id, const std::string& user, bool writer);
  void record(const Event& e);
  bool enabled() const { return enabled_; }

  // The formats, exposed for tests.
  static std::string text_line(const std::string& when, const std::string& job,
                               const std::string& user, const Event& e);
  static std::string json_line(const std::string& when, const std::string& job,
                               const std::string& user, const Event& e);

 private:
  void append(const std::string& path, const std::string& line, bool* failed);
  void send_syslog(const std::string& line);

  io::Env* env_ = nullptr;
  bool enabled_ = false;
  std::string text_path_, json_path_, syslog_socket_, ident_;
  int priority_ = 0;
  std::string job_, user_;
  bool text_failed_ = false, json_failed_ = false, syslog_failed_ = false;
};

}  // namespace scr::rt
