#include "common/log.hpp"

#include <atomic>
#include <cstdio>
#include <mutex>
#include <set>

namespace scr::log {
namespace {
std::atomic<int> g_rank{-1};
std::atomic<int> g_debug{0};

void emit(const char* level, const std::string& msg) {
  int rank = g_rank.load();
  if (rank >= 0)
    std::fprintf(stderr, "SCR++ %s rank %d: %s\n", level, rank, msg.c_str());
  else
    std::fprintf(stderr, "SCR++ %s: %s\n", level, msg.c_str());
  std::fflush(stderr);
}
}  // namespace

void set_rank(int rank) { g_rank = rank; }
void set_debug_level(int level) { g_debug = level; }
int debug_level() { return g_debug.load(); }

void error(const std::string& msg) { emit("ERROR", msg); }
void warn(const std::string& msg) { emit("WARNING", msg); }
void warn_once(const std::string& msg) {
  static std::mutex mutex;
  static std::set<std::string> said;
  std::lock_guard<std::mutex> lock(mutex);
  if (said.insert(msg).second) emit("WARNING", msg);
}
void info(const std::string& msg) {
  if (g_debug.load() >= 1 && g_rank.load() <= 0) emit("INFO", msg);
}
void debug(int level, const std::string& msg) {
  if (g_debug.load() >= level) emit("DEBUG", msg);
}

}  // namespace scr::log
