// The message fabric under in-process communicators (in_process.hpp): every
// rank is a thread, every message a copy made when it is sent. Messages are
// matched as MPI matches them: by communicator context, destination, source
// and tag, in the order sent; receives are matched in the order posted.
// Because a send copies, every send completes at once (MPI allows a send to
// buffer so); only receives wait. One lock guards everything: these are
// tests, not pipelines.
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
};

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
  void wait(const PostedReceive& receive);

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
  static void deliver(PostedReceive& receive, const void* data, size_t bytes);
  bool all_stuck() const;

  const int ranks_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::pair<uint64_t, int>, Mailbox> mailboxes_;  // by (context, destination)
  std::map<std::tuple<uint64_t, uint64_t, int>, uint64_t> derived_;
  uint64_t next_context_ = 2;  // 0 and 1 are the world's
  std::set<const PostedReceive*> waiting_;
  int finished_ = 0;
  std::string aborted_;
};

}  // namespace scr::mpi
