// The message fabric under in-process communicators (in_process.hpp): every
// rank is a thread, every message a copy made when it is sent. Messages are
// matched as MPI matches them: by communicator context, destination, source
// and tag, in the order sent; receives are matched in the order posted.
// Because a send copies, every send completes at once (MPI allows a send to
// buffer so); only receives wait.
//
// Jobs of thousands of ranks run on it (bench/scale), so nothing here may
// cost a rank work in proportion to the number of ranks: a delivery wakes
// the one thread waiting for that receive (its own condition variable), not
// every waiting thread, and deciding that every rank is stuck is a counter,
// not a scan. One lock guards the matching, held for a few map operations.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <tuple>
#include <utility>

#include "common/status.hpp"

namespace scr::mpi {

// A receive posted to the fabric. Exactly one of `data` (up to `capacity`
// bytes) or `whole` (any length) receives the message.
struct PostedReceive {
  void* data = nullptr;
  size_t capacity = 0;
  std::string* whole = nullptr;
  int source = 0;
  int tag = 0;
  bool done = false;
  Status status;  // a message longer than `capacity` is an Errc::mpi_error
  // While its rank waits for it: whom a delivery wakes.
  std::condition_variable* waiter = nullptr;
};

// What the calling thread (a rank of an in-process job) has sent so far:
// messages and their bytes, every send counted once, collectives included.
struct Traffic {
  uint64_t messages = 0;
  uint64_t bytes = 0;
};
Traffic& thread_traffic();

class Fabric {
 public:
  explicit Fabric(int ranks) : ranks_(ranks) {}

  int ranks() const { return ranks_; }

  // The context of the communicator that the same derivation (split or
  // duplicate of one parent, by sequence number and color) gives every
  // member: the first member to ask makes it. Contexts come in pairs: the
  // even one for the caller's messages, the odd one for collectives, so the
  // two can never match each other.
  uint64_t derived_context(uint64_t parent, uint64_t sequence, int color);

  void send(uint64_t context, int source, int dest, int tag, const void* data, size_t bytes);
  std::shared_ptr<PostedReceive> post(uint64_t context, int me, PostedReceive receive);
  // Until `receive` is done. Throws when the run was aborted, or when every
  // rank still running waits for a message no one is left to send.
  void wait(PostedReceive& receive);

  // Ends every wait, now and later, with `why`.
  void abort(const std::string& why);
  // A rank thread has returned: it sends nothing more.
  void rank_finished();

 private:
  struct Message {
    int source;
    int tag;
    std::string bytes;
  };
  struct Mailbox {
    std::deque<Message> unmatched;
    std::deque<std::shared_ptr<PostedReceive>> posted;
  };
  // Under the lock: fills `receive` and wakes its waiter, if any.
  void deliver(PostedReceive& receive, const void* data, size_t bytes);
  // Under the lock: every rank still running waits for a receive not done.
  bool all_stuck() const { return blocked_ > 0 && finished_ + blocked_ >= ranks_; }
  void abort_locked(const std::string& why);

  const int ranks_;
  std::mutex mutex_;
  std::map<std::pair<uint64_t, int>, Mailbox> mailboxes_;  // by (context, destination)
  std::map<std::tuple<uint64_t, uint64_t, int>, uint64_t> derived_;
  uint64_t next_context_ = 2;  // 0 and 1 are the world's
  std::set<PostedReceive*> waiting_;  // receives whose ranks wait, done or not
  int blocked_ = 0;                   // of those, the ones not done
  int finished_ = 0;
  std::string aborted_;
};

}  // namespace scr::mpi
