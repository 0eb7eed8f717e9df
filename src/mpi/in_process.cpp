#include "mpi/in_process.hpp"

#include <exception>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
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
  std::vector<std::thread> threads;
  threads.reserve(static_cast<size_t>(ranks_));
  for (int r = 0; r < ranks_; ++r) {
    threads.emplace_back([&, r] {
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
  for (auto& t : threads) t.join();
  std::string report;
  for (size_t r = 0; r < failures.size(); ++r)
    if (failures[r]) report += "\n  rank " + std::to_string(r) + ": " + what_of(failures[r]);
  if (!report.empty()) throw std::runtime_error("in-process run failed:" + report);
}

}  // namespace scr::mpi
