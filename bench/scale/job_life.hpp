// A whole job life of SCR++ on N simulated ranks in one process
// (mpi/in_process.hpp): every rank a thread with its own runtime, its own
// files and its own simulated node (SCR_SIM_NODES), running the same code
// as a real process. The life: a first job initializes and writes
// checkpoints with each scheme (SINGLE, PARTNER, XOR, RS; sets of 8),
// flushing the newest at Finalize; a second restarts from cache after a
// node is lost; a third restarts from the prefix after every node is lost;
// a fourth restarts from the prefix at half the size. Files are tiny, so
// what is measured is SCR++'s metadata work: set formation, agreement,
// filemaps, the flush's summary and index, fetch and rebuild planning.
// Used by bench/scale/scale_bench (the measurements) and by
// tests/runtime/scale_life_test.cpp (the results, at 64 ranks).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace scr::bench {

struct LifeOptions {
  int ranks = 64;
  // Ranks per simulated node; fewer when the job has not 8 nodes of them.
  int ranks_per_node = 4;
  int files_per_rank = 2;
  // One to four of SINGLE, PARTNER, XOR, RS, given CKPT intervals 1, 2, 3
  // and 5 in this order (job_life.cpp).
  std::vector<std::string> schemes{"SINGLE", "PARTNER", "XOR", "RS"};
  // A scratch directory of the run's own (removed and made anew).
  std::string dir;
  size_t stack_bytes = 512 << 10;
  // Whether the life ends with the restart at half the size.
  bool rescale = true;
};

// One step of the life, measured from a barrier before it to one after it.
struct Step {
  std::string name;
  int ranks = 0;
  int times = 0;             // checkpoints of one scheme: several, summed
  double wall_s = 0;         // rank 0's clock, summed over `times`: all
                             // ranks' work shared by the machine's cores
  // CPU time of one rank's thread in the step: the most of any rank, the
  // mean, and rank 0's (the root of every gather), summed over `times`.
  double cpu_max_s = 0, cpu_mean_s = 0, rank0_cpu_s = 0;
  uint64_t messages_max = 0; // sent by one rank (the most of any), summed
  double messages_mean = 0;
  uint64_t bytes_max = 0;
  double bytes_mean = 0;
  // Heap held by rank 0's thread (alloc_count.hpp): the most during the
  // step, and the part of it above what it held when the step began.
  int64_t rank0_peak_bytes = 0;
  int64_t rank0_step_bytes = 0;
};

struct LifeResult {
  std::vector<Step> steps;
  // The largest file of each kind of metadata SCR++ wrote (by file name:
  // the flush's summary, the prefix index, filemaps, ...), in bytes.
  std::map<std::string, uint64_t> largest_files;
  // The checkpoint each restart step restored, in order.
  std::vector<std::string> restored;
  // Every check that failed (a rank reading other bytes than were written,
  // a call that failed); empty when the life went as it should.
  std::vector<std::string> failures;
};

// Needs count_this_thread (alloc_count.hpp) in the program for the memory
// figures; without it they are 0.
LifeResult run_job_life(const LifeOptions& options);

// The checkpoint the restarts must restore: the newest written.
std::string newest_checkpoint();

}  // namespace scr::bench
