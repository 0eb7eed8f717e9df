// Settings: the resolved configuration the runtime works from, as plain
// typed fields. Built once in SCR_Init from the configuration layer (rank 0
// reads files, everyone gets the same values); nothing else in the runtime
// reads configuration keys by name.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "kvtree/tree.hpp"
#include "runtime/config/descriptors.hpp"

namespace scr::rt {

struct Settings {
  int debug = 0;
  std::string prefix;
  // The working directory at SCR_Init (rank 0's, which every process of a
  // job shares): relative file names given to SCR_Route_file start there.
  std::string working_dir;
  std::string cntl_base = "/dev/shm";
  std::string cache_base = "/dev/shm";
  int cache_size = 1;
  bool cache_bypass = true;
  int flush = 10;
  bool flush_async = false;
  uint64_t flush_async_bw = 0;
  int flush_async_max = 2;
  int flush_width = 256;  // processes copying to the prefix at once (sync flush)
  int fetch_width = 256;  // processes copying from the prefix at once
  bool flush_on_restart = false;
  bool fetch = true;
  bool fetch_bypass = false;
  bool global_restart = false;
  std::string current;
  bool distribute = true;
  bool cache_purge = false;
  int prefix_size = 0;
  bool crc_on_flush = true;
  int64_t halt_seconds = 0;
  bool halt_exit = false;
  int64_t checkpoint_interval = 0;
  int64_t checkpoint_seconds = 0;
  double checkpoint_overhead = 0;
  std::string job_id;
  std::string job_name;
  std::string user_name;
  std::string sim_nodes;
  int64_t end_time = 0;
  std::string fault_inject;
  size_t piece_size = 1 << 20;      // copies (flush, fetch): SCR_FILE_BUF_SIZE
  size_t mpi_piece_size = 1 << 20;  // redundancy encoding: SCR_MPI_BUF_SIZE
  bool prefix_purge = false;
  bool drop_after_current = false;
  bool copy_metadata = true;
  std::string cluster_name;
  bool log_enable = false;
  bool log_txt = true;
  bool log_json = true;
  bool log_syslog = true;
  std::string log_syslog_prefix = "SCR";
  std::string log_syslog_facility = "LOG_LOCAL7";
  std::string log_syslog_level = "LOG_INFO";
  std::string log_syslog_socket = "/dev/log";
  std::vector<RedDesc> reds;  // sorted by index; a dataset's is chosen by select()
  GroupDescs groups;
};

// Resolve from a loaded configuration.
Result<Settings> settings_from_config(const Config& config);

// One line per SCR parameter the user set that has no effect in SCR++,
// saying why, and per key or item of a config file that SCR++ does not know
// (SCR_Init prints them once, on rank 0).
std::vector<std::string> no_effect_warnings(const Config& config);

}  // namespace scr::rt
