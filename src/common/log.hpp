// Diagnostics on stderr, prefixed with "SCR++" and the world rank when known.
#pragma once

#include <memory>
#include <string>

namespace scr::log {

// Set once by the runtime after MPI rank and SCR_DEBUG are known.
void set_rank(int rank);
void set_debug_level(int level);
int debug_level();

void error(const std::string& msg);
void warn(const std::string& msg);
// A warning about a configuration that holds for the whole run (a scheme
// falling back on one node, say) would repeat at every checkpoint: this one
// is printed the first time the process meets that exact text only.
void warn_once(const std::string& msg);
void info(const std::string& msg);          // printed by rank 0 only when debug >= 1
void debug(int level, const std::string& msg);  // printed by every rank at that level

// Who speaks: the rank, the debug level and the warnings given once. A
// process has one; in-process tests run several ranks as threads of one
// process (mpi/in_process.hpp), and each rank thread has its own.
struct Speaker;
// The calling thread's speaker, for the helper threads it starts to speak as.
std::shared_ptr<Speaker> current_speaker();

// For its lifetime, the calling thread speaks as `speaker`, or as a new
// speaker of its own when given none (a rank thread of an in-process run).
class SpeakAs {
 public:
  explicit SpeakAs(std::shared_ptr<Speaker> speaker = nullptr);
  SpeakAs(const SpeakAs&) = delete;
  SpeakAs& operator=(const SpeakAs&) = delete;
  ~SpeakAs();

 private:
  std::shared_ptr<Speaker> previous_;
};

}  // namespace scr::log
