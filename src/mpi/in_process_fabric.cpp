#include "mpi/in_process_fabric.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <tuple>

namespace scr::mpi {

Traffic& thread_traffic() {
  thread_local Traffic traffic;
  return traffic;
}

uint64_t Fabric::derived_context(uint64_t parent, uint64_t sequence, int color) {
  std::lock_guard<std::mutex> lock(derived_mutex_);
  auto [it, made] = derived_.try_emplace({parent, sequence, color}, next_context_);
  if (made) next_context_ += 2;
  return it->second;
}

void Fabric::deliver(PostedReceive& receive, const void* data, size_t bytes) {
  if (receive.whole) {
    receive.whole->assign(static_cast<const char*>(data), bytes);
  } else {
    if (bytes > receive.capacity)
      receive.status = Error(Errc::mpi_error, "in-process receive: a message of " +
                                                  std::to_string(bytes) + " bytes for a buffer of " +
                                                  std::to_string(receive.capacity));
    if (bytes > 0) std::memcpy(receive.data, data, std::min(bytes, receive.capacity));
  }
  receive.done = true;
  receive.posted = false;
  if (receive.waiter) {
    stalled_.fetch_sub(1, std::memory_order_acq_rel);
    receive.waiter->notify_one();
  }
}

void Fabric::send(uint64_t context, int source, int dest, int tag, const void* data,
                  size_t bytes) {
  Traffic& mine = thread_traffic();
  ++mine.messages;
  mine.bytes += bytes;
  Shard& shard = shard_of(context, dest);
  std::lock_guard<std::mutex> lock(shard.mutex);
  Mailbox& box = shard.mailboxes[{context, dest}];
  auto posted = box.posted.find({source, tag});
  if (posted != box.posted.end()) {
    std::shared_ptr<PostedReceive> r = std::move(posted->second.front());
    posted->second.pop_front();
    if (posted->second.empty()) box.posted.erase(posted);
    deliver(*r, data, bytes);
    return;
  }
  box.unmatched[{source, tag}].push_back({std::string(static_cast<const char*>(data), bytes)});
}

std::shared_ptr<PostedReceive> Fabric::post(uint64_t context, int me, PostedReceive receive) {
  auto r = std::make_shared<PostedReceive>(std::move(receive));
  r->context = context;
  r->me = me;
  Shard& shard = shard_of(context, me);
  std::lock_guard<std::mutex> lock(shard.mutex);
  Mailbox& box = shard.mailboxes[{context, me}];
  auto waiting = box.unmatched.find({r->source, r->tag});
  if (waiting != box.unmatched.end()) {
    Message m = std::move(waiting->second.front());
    waiting->second.pop_front();
    if (waiting->second.empty()) box.unmatched.erase(waiting);
    deliver(*r, m.bytes.data(), m.bytes.size());
  } else {
    box.posted[{r->source, r->tag}].push_back(r);
    r->posted = true;
  }
  return r;
}

void Fabric::withdraw_locked(Shard& shard, PostedReceive& receive) {
  if (!receive.posted) return;
  Mailbox& box = shard.mailboxes[{receive.context, receive.me}];
  auto queue = box.posted.find({receive.source, receive.tag});
  if (queue != box.posted.end()) {
    auto& q = queue->second;
    q.erase(std::find_if(q.begin(), q.end(), [&](const auto& r) { return r.get() == &receive; }));
    if (q.empty()) box.posted.erase(queue);
  }
  receive.posted = false;
}

void Fabric::withdraw(PostedReceive& receive) {
  Shard& shard = shard_of(receive.context, receive.me);
  std::lock_guard<std::mutex> lock(shard.mutex);
  withdraw_locked(shard, receive);
}

std::string Fabric::abort_reason() {
  std::lock_guard<std::mutex> lock(abort_mutex_);
  return aborted_;
}

void Fabric::abort_locked_out(const std::string& why) {
  {
    std::lock_guard<std::mutex> lock(abort_mutex_);
    if (aborted_.empty()) aborted_ = why;
    aborted_flag_.store(true, std::memory_order_release);
  }
  // Every waiter checks the flag under its shard's lock before it sleeps,
  // so none misses this wake-up.
  for (Shard& shard : shards_) {
    std::lock_guard<std::mutex> lock(shard.mutex);
    for (PostedReceive* r : shard.waiting) r->waiter->notify_one();
  }
}

void Fabric::stall(const char* why) {
  if (stalled_.fetch_add(1, std::memory_order_acq_rel) + 1 == ranks_) abort_locked_out(why);
}

void Fabric::wait(PostedReceive& receive) {
  // One condition variable per thread: a thread waits for one receive at a time.
  thread_local std::condition_variable wake;
  Shard& shard = shard_of(receive.context, receive.me);
  std::unique_lock<std::mutex> lock(shard.mutex);
  if (receive.done) return;
  if (!aborted()) {
    receive.waiter = &wake;
    shard.waiting.insert(&receive);
    lock.unlock();
    stall("every rank still running waits for a message that no rank will send");
    lock.lock();
    wake.wait(lock, [&] { return receive.done || aborted(); });
    shard.waiting.erase(&receive);
    receive.waiter = nullptr;
    if (receive.done) return;
    stalled_.fetch_sub(1, std::memory_order_acq_rel);
  }
  // The caller unwinds, and the receive's buffer with it.
  withdraw_locked(shard, receive);
  lock.unlock();
  throw std::runtime_error("in-process run aborted: " + abort_reason());
}

void Fabric::abort(const std::string& why) { abort_locked_out(why); }

void Fabric::rank_finished() { stall("ranks wait for messages from ranks that have returned"); }

}  // namespace scr::mpi
