// The message fabric under in-process communicators (in_process.hpp): every
// rank is a thread, every message a copy made when it is sent. Messages are
// matched as MPI matches them: by communicator context, destination, source
// and tag, in the order sent; receives are matched in the order posted.
// Because a send copies, every send completes at once (MPI allows a send to
// buffer so); only receives wait.
//
// Jobs of thousands of ranks run on it (bench/scale), so nothing here may
// cost a rank work in proportion to the number of ranks: mailboxes are
// spread over shards with a lock each, so ranks sending to different ranks
// seldom meet on one lock; within a mailbox, messages and receives are kept
// by (source, tag), so the root of a gather finds each message at once
// among thousands waiting; a delivery wakes the one thread waiting for that
// receive (its own condition variable), not every waiting thread; and
// deciding that every rank is stuck is one counter, not a scan.
#pragma once

#include <array>
#include <atomic>
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
  // Where it waits to be matched (set by Fabric::post), and whether it does.
  uint64_t context = 0;
  int me = 0;
  bool posted = false;
  // While its rank waits for it: whom a delivery wakes.
  std::condition_variable* waiter = nullptr;
};

// What the calling thread (a rank of an in-process job) has sent so far:
// messages and their bytes, every send counted once, collectives included.
struct Traffic {
  uint64_t messages = 0;
  uint64_t bytes = 0;
  uint64_t sleeping_waits = 0;  // request waits asked to sleep at once (Patience::sleep_first)
  uint64_t busy_waits = 0;      // request waits asked never to sleep (Patience::busy)
  uint64_t spinning_waits = 0;  // request waits asked to spin, then sleep (Patience::spin_first)
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
  // rank still running waits for a message no one is left to send; the
  // receive is withdrawn then, as its buffer goes with the caller.
  void wait(PostedReceive& receive);
  // `receive` will not be waited for: a send must not fill it any more.
  void withdraw(PostedReceive& receive);

  // Ends every wait, now and later, with `why`.
  void abort(const std::string& why);
  // A rank thread has returned: it sends nothing more.
  void rank_finished();

 private:
  struct Message {
    std::string bytes;
  };
  using Key = std::pair<int, int>;  // (source, tag)
  struct Mailbox {
    std::map<Key, std::deque<Message>> unmatched;
    std::map<Key, std::deque<std::shared_ptr<PostedReceive>>> posted;
  };
  struct Shard {
    std::mutex mutex;
    std::map<std::pair<uint64_t, int>, Mailbox> mailboxes;  // by (context, destination)
    std::set<PostedReceive*> waiting;  // receives whose ranks wait, done or not
  };
  static constexpr size_t kShards = 64;
  Shard& shard_of(uint64_t context, int rank) {
    return shards_[(static_cast<size_t>(rank) * 31 + static_cast<size_t>(context)) % kShards];
  }

  // Under the shard's lock: fills `receive` and wakes its waiter, if any.
  void deliver(PostedReceive& receive, const void* data, size_t bytes);
  void withdraw_locked(Shard& shard, PostedReceive& receive);
  // One more rank that cannot go on by itself (waiting for a receive not
  // done, or returned); when that makes every rank, the run is stuck.
  void stall(const char* why);
  void abort_locked_out(const std::string& why);  // takes every shard's lock in turn
  bool aborted() const { return aborted_flag_.load(std::memory_order_acquire); }
  std::string abort_reason();

  const int ranks_;
  std::array<Shard, kShards> shards_;
  std::mutex derived_mutex_;
  std::map<std::tuple<uint64_t, uint64_t, int>, uint64_t> derived_;
  uint64_t next_context_ = 2;  // 0 and 1 are the world's
  // Ranks waiting for a receive not done, plus ranks returned: one counter,
  // so that no moment shows a rank both delivered to and not yet counted out.
  std::atomic<int> stalled_{0};
  std::atomic<bool> aborted_flag_{false};
  std::mutex abort_mutex_;
  std::string aborted_;
};

}  // namespace scr::mpi
