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
  std::lock_guard<std::mutex> lock(mutex_);
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
  if (receive.waiter) {
    --blocked_;
    receive.waiter->notify_one();
  }
}

void Fabric::send(uint64_t context, int source, int dest, int tag, const void* data,
                  size_t bytes) {
  Traffic& mine = thread_traffic();
  ++mine.messages;
  mine.bytes += bytes;
  std::lock_guard<std::mutex> lock(mutex_);
  Mailbox& box = mailboxes_[{context, dest}];
  auto match = std::find_if(box.posted.begin(), box.posted.end(), [&](const auto& r) {
    return r->source == source && r->tag == tag;
  });
  if (match != box.posted.end()) {
    deliver(**match, data, bytes);
    box.posted.erase(match);
    return;
  }
  box.unmatched.push_back({source, tag, std::string(static_cast<const char*>(data), bytes)});
}

std::shared_ptr<PostedReceive> Fabric::post(uint64_t context, int me, PostedReceive receive) {
  auto posted = std::make_shared<PostedReceive>(std::move(receive));
  std::lock_guard<std::mutex> lock(mutex_);
  Mailbox& box = mailboxes_[{context, me}];
  auto match = std::find_if(box.unmatched.begin(), box.unmatched.end(), [&](const Message& m) {
    return m.source == posted->source && m.tag == posted->tag;
  });
  if (match != box.unmatched.end()) {
    deliver(*posted, match->bytes.data(), match->bytes.size());
    box.unmatched.erase(match);
  } else {
    box.posted.push_back(posted);
  }
  return posted;
}

void Fabric::abort_locked(const std::string& why) {
  if (aborted_.empty()) aborted_ = why;
  for (PostedReceive* r : waiting_) r->waiter->notify_one();
}

void Fabric::wait(PostedReceive& receive) {
  // One condition variable per thread: a thread waits for one receive at a time.
  thread_local std::condition_variable wake;
  std::unique_lock<std::mutex> lock(mutex_);
  if (receive.done || !aborted_.empty()) {
    if (!receive.done) throw std::runtime_error("in-process run aborted: " + aborted_);
    return;
  }
  receive.waiter = &wake;
  waiting_.insert(&receive);
  ++blocked_;
  if (all_stuck()) abort_locked("every rank still running waits for a message that no rank will send");
  wake.wait(lock, [&] { return receive.done || !aborted_.empty(); });
  waiting_.erase(&receive);
  receive.waiter = nullptr;
  if (!receive.done) {
    --blocked_;
    throw std::runtime_error("in-process run aborted: " + aborted_);
  }
}

void Fabric::abort(const std::string& why) {
  std::lock_guard<std::mutex> lock(mutex_);
  abort_locked(why);
}

void Fabric::rank_finished() {
  std::lock_guard<std::mutex> lock(mutex_);
  ++finished_;
  if (aborted_.empty() && all_stuck()) abort_locked("ranks wait for messages from ranks that have returned");
}

}  // namespace scr::mpi
