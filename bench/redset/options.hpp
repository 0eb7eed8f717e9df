// Command line of redset_bench.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "common/status.hpp"
#include "redset/set.hpp"

namespace scr::bench {

struct Options {
  redset::Scheme scheme = redset::Scheme::xor_code;
  int nodes = 0;  // simulated failure groups; 0 means one per rank
  int set_size = 8;
  int k = 2;
  int replicas = 1;
  int lose = 0;  // members lost per set before the rebuild; 0: as many as tolerated
  uint64_t bytes_per_rank = 64ull << 20;
  size_t piece_size = size_t{1} << 20;
  std::string dir = "/dev/shm/redset_bench";
  int repeat = 5;
  bool help = false;
};

extern const char* const kUsage;

Result<Options> parse_options(int argc, char** argv);

}  // namespace scr::bench
