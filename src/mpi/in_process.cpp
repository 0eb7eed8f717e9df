#include "mpi/in_process.hpp"

#include <pthread.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/log.hpp"
#include "mpi/in_process_comm.hpp"

namespace scr::mpi {
namespace {

std::string what_of(const std::exception_ptr& e) {
  try {
    std::rethrow_exception(e);
  } catch (const std::exception& x) {
    return x.what();
  } catch (...) {
    return "an exception that is not a std::exception";
  }
}

}  // namespace

void InProcess::run(const std::function<void(Comm& world)>& body) const {
  auto fabric = std::make_shared<Fabric>(ranks_);
  std::vector<std::exception_ptr> failures(static_cast<size_t>(ranks_));
  std::vector<std::function<void()>> ranks;
  ranks.reserve(static_cast<size_t>(ranks_));
  for (int r = 0; r < ranks_; ++r) {
    ranks.emplace_back([&, r] {
      log::SpeakAs own_speaker;
      try {
        Comm world(std::make_unique<InProcessComm>(fabric, 0, r, ranks_));
        body(world);
      } catch (...) {
        failures[static_cast<size_t>(r)] = std::current_exception();
        fabric->abort("rank " + std::to_string(r) + " failed");
      }
      fabric->rank_finished();
    });
  }
  // pthreads rather than std::thread, which cannot be given a stack size.
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  if (stack_bytes_ > 0) pthread_attr_setstacksize(&attr, std::max<size_t>(stack_bytes_, PTHREAD_STACK_MIN));
  std::vector<pthread_t> threads;
  threads.reserve(ranks.size());
  std::string not_started;
  for (auto& rank : ranks) {
    pthread_t t;
    int err = pthread_create(
        &t, &attr,
        [](void* f) -> void* {
          (*static_cast<std::function<void()>*>(f))();
          return nullptr;
        },
        &rank);
    if (err != 0) {
      // The ranks started wait for this one: end their waits, and count the
      // ranks that never started as returned.
      not_started = "rank " + std::to_string(threads.size()) + " could not start a thread: " + std::strerror(err);
      fabric->abort(not_started);
      for (size_t r = threads.size(); r < ranks.size(); ++r) fabric->rank_finished();
      break;
    }
    threads.push_back(t);
  }
  pthread_attr_destroy(&attr);
  for (pthread_t t : threads) pthread_join(t, nullptr);
  std::string report;
  if (!not_started.empty()) report += "\n  " + not_started;
  for (size_t r = 0; r < failures.size(); ++r)
    if (failures[r]) report += "\n  rank " + std::to_string(r) + ": " + what_of(failures[r]);
  if (!report.empty()) throw std::runtime_error("in-process run failed:" + report);
}

}  // namespace scr::mpi
