#include "runtime/transfer/async_flush.hpp"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "common/log.hpp"

namespace scr::rt {

AsyncFlusher::~AsyncFlusher() {
  for (auto& [id, f] : flights_) {
    if (f->thread.joinable()) f->thread.join();
    drop_deferred(*job_.env, f->deferred);
  }
}

uint64_t AsyncFlusher::progress(int id) const {
  auto it = flights_.find(id);
  return it == flights_.end() ? 0 : it->second->copied.load();
}

Status AsyncFlusher::start(int id) {
  int max = std::max(1, job_.settings.flush_async_max);
  while (static_cast<int>(flights_.size()) >= max) SCR_TRY(wait_for(flights_.begin()->first));
  auto flight = std::make_unique<Flight>();
  flight->job = plan_flush(job_.settings, cache_, id);
  SCR_TRY(wait_for_same_names(flight->job));
  flight->job.how = "async";
  flight->job.progress = &flight->copied;
  if (job_.settings.flush_async_bw > 0)
    flight->job.bytes_per_second = std::max<uint64_t>(1, job_.settings.flush_async_bw / job_.node.size());
  SCR_TRY(begin_flush(job_, flight->job));
  SCR_TRY(cache_.transition(id, CacheState::flushing));
  SCR_TRY(cache_.commit_agreed(job_.world));
  Flight* f = flight.get();
  io::Env* env = job_.env;
  std::string prefix = job_.settings.prefix;
  // The copy's messages carry this rank (each in-process rank has its own).
  f->thread = std::thread([f, env, prefix, speaker = log::current_speaker()] {
    log::SpeakAs speak_as(speaker);
    f->result = run_copies(*env, f->job, prefix, f->deferred, &f->placed);
    f->done = true;
  });
  flights_[id] = std::move(flight);
  return Status::Ok();
}

Status AsyncFlusher::wait_for_same_names(const FlushJob& next) {
  if (flights_.empty()) return Status::Ok();
  std::set<std::string> names;
  for (const auto& item : next.items) names.insert(item.dst);
  // Every process holds the same flights; whether one must finish first is
  // agreed, as the names are each process's own.
  std::vector<int> ids;
  for (const auto& [id, f] : flights_) ids.push_back(id);
  for (int id : ids) {
    const auto& items = flights_.at(id)->job.items;
    bool shared = std::any_of(items.begin(), items.end(), [&](const CopyItem& c) { return names.count(c.dst) > 0; });
    if (mpi::any_true(job_.world, shared)) SCR_TRY(finish(id));
  }
  return Status::Ok();
}

Status AsyncFlusher::finish(int id) {
  auto node = flights_.extract(id);
  Flight& f = *node.mapped();
  f.thread.join();
  Status st = end_flush(job_, cache_, events_, f.job, f.result, f.deferred, f.placed);
  // Not flushed after all: it is complete, as before the flush began.
  if (cache_.has(id) && cache_.state(id) == CacheState::flushing) {
    (void)cache_.transition(id, CacheState::complete);
    Status saved = cache_.commit();
    if (st.ok()) st = saved;
  }
  if (!st.ok() && job_.rank() == 0) log::error(st.message());
  return st;
}

Status AsyncFlusher::wait_for(int id) {
  bool mine = in_flight(id);
  if (!mpi::any_true(job_.world, mine)) return Status::Ok();
  return finish(id);
}

Status AsyncFlusher::poll(bool wait) {
  Status first;
  // Every process holds the same flights, started in the same calls.
  std::vector<int> ids;
  for (const auto& [id, f] : flights_) ids.push_back(id);
  // In the order they started, as SCR does: a newer flight done before an
  // older one is recorded after it, so that the SCR_PREFIX_SIZE window
  // counts each record's newer checkpoints.
  for (int id : ids) {
    if (!wait && !mpi::all_true(job_.world, flights_.at(id)->done.load())) break;
    Status st = finish(id);
    if (first.ok()) first = st;
  }
  return first;
}

}  // namespace scr::rt
