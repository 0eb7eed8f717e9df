#include "runtime/async_flush.hpp"

#include "common/log.hpp"

namespace scr::rt {

AsyncFlusher::~AsyncFlusher() {
  for (auto& [id, f] : flights_)
    if (f->thread.joinable()) f->thread.join();
}

uint64_t AsyncFlusher::progress(int id) const {
  auto it = flights_.find(id);
  return it == flights_.end() ? 0 : it->second->copied.load();
}

Status AsyncFlusher::start(Context& ctx, int id) {
  int max = std::max(1, ctx.settings.flush_async_max);
  while (static_cast<int>(flights_.size()) >= max) SCR_TRY(wait_for(ctx, flights_.begin()->first));
  auto flight = std::make_unique<Flight>();
  flight->job = plan_flush(ctx.settings, ctx.cache, id);
  flight->job.how = "async";
  flight->job.progress = &flight->copied;
  if (ctx.settings.flush_async_bw > 0)
    flight->job.bytes_per_second = std::max<uint64_t>(1, ctx.settings.flush_async_bw / ctx.node.size());
  SCR_TRY(begin_flush(ctx.job, flight->job));
  SCR_TRY(ctx.cache.transition(id, CacheState::flushing));
  SCR_TRY(ctx.cache.commit_agreed(ctx.world));
  Flight* f = flight.get();
  io::Env* env = ctx.job.env;
  std::string prefix = ctx.settings.prefix;
  // The copy's messages carry this rank (each in-process rank has its own).
  f->thread = std::thread([f, env, prefix, speaker = log::current_speaker()] {
    log::SpeakAs speak_as(speaker);
    f->result = run_copies(*env, f->job, prefix);
    f->done = true;
  });
  flights_[id] = std::move(flight);
  return Status::Ok();
}

Status AsyncFlusher::finish(Context& ctx, int id) {
  auto node = flights_.extract(id);
  Flight& f = *node.mapped();
  f.thread.join();
  Status st = end_flush(ctx, f.job, f.result);
  // Not flushed after all: it is complete, as before the flush began.
  if (ctx.cache.has(id) && ctx.cache.state(id) == CacheState::flushing) {
    (void)ctx.cache.transition(id, CacheState::complete);
    Status saved = ctx.cache.commit();
    if (st.ok()) st = saved;
  }
  if (!st.ok() && ctx.rank() == 0) log::error(st.message());
  return st;
}

Status AsyncFlusher::wait_for(Context& ctx, int id) {
  bool mine = in_flight(id);
  if (!mpi::any_true(ctx.world, mine)) return Status::Ok();
  return finish(ctx, id);
}

Status AsyncFlusher::poll(Context& ctx, bool wait) {
  Status first;
  // Every process holds the same flights, started in the same calls.
  std::vector<int> ids;
  for (const auto& [id, f] : flights_) ids.push_back(id);
  for (int id : ids) {
    if (!wait && !mpi::all_true(ctx.world, flights_.at(id)->done.load())) continue;
    Status st = finish(ctx, id);
    if (first.ok()) first = st;
  }
  return first;
}

}  // namespace scr::rt
