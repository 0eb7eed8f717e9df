#include "common/log.hpp"

#include <atomic>
#include <cstdio>
#include <mutex>
#include <set>

namespace scr::log {

struct Speaker {
  std::atomic<int> rank{-1};
  std::atomic<int> debug{0};
  std::mutex mutex;
  std::set<std::string> said;  // by warn_once
};

namespace {

const std::shared_ptr<Speaker>& process_speaker() {
  static const auto speaker = std::make_shared<Speaker>();
  return speaker;
}

// Null: the process's speaker.
thread_local std::shared_ptr<Speaker> t_speaker;

Speaker& speaker() { return t_speaker ? *t_speaker : *process_speaker(); }

void emit(const char* level, const std::string& msg) {
  int rank = speaker().rank.load();
  if (rank >= 0)
    std::fprintf(stderr, "SCR++ %s rank %d: %s\n", level, rank, msg.c_str());
  else
    std::fprintf(stderr, "SCR++ %s: %s\n", level, msg.c_str());
  std::fflush(stderr);
}
}  // namespace

std::shared_ptr<Speaker> current_speaker() { return t_speaker ? t_speaker : process_speaker(); }

SpeakAs::SpeakAs(std::shared_ptr<Speaker> speaker) : previous_(std::move(t_speaker)) {
  t_speaker = speaker ? std::move(speaker) : std::make_shared<Speaker>();
}

SpeakAs::~SpeakAs() { t_speaker = std::move(previous_); }

void set_rank(int rank) { speaker().rank = rank; }
void set_debug_level(int level) { speaker().debug = level; }
int debug_level() { return speaker().debug.load(); }

void error(const std::string& msg) { emit("ERROR", msg); }
void warn(const std::string& msg) { emit("WARNING", msg); }
void warn_once(const std::string& msg) {
  Speaker& s = speaker();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.said.insert(msg).second) emit("WARNING", msg);
}
void info(const std::string& msg) {
  if (speaker().debug.load() >= 1 && speaker().rank.load() <= 0) emit("INFO", msg);
}
void debug(int level, const std::string& msg) {
  if (speaker().debug.load() >= level) emit("DEBUG", msg);
}

}  // namespace scr::log
