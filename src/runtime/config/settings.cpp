#include "runtime/config/settings.hpp"

#include "io/path.hpp"
#include "runtime/config/config.hpp"
#include "runtime/config/params.hpp"

namespace scr::rt {
namespace {

// Typed reads of parameters the registry guarantees to exist with a default;
// a failure here means the registry and this table disagree.
struct Reader {
  const Config& c;
  Status status;
  template <class T>
  T take(Result<T> r, T fallback) {
    if (!r) {
      if (r.status().code() != Errc::not_found && status.ok()) status = r.status();
      return fallback;
    }
    return *r;
  }
  bool flag(const char* k, bool d) { return take(c.get_bool(k), d); }
  int64_t num(const char* k, int64_t d) { return take(c.get_int(k), d); }
  double real(const char* k, double d) { return take(c.get_double(k), d); }
  uint64_t bytes(const char* k, uint64_t d) { return take(c.get_bytes(k), d); }
  std::string text(const char* k) { return take(c.get_string(k), std::string()); }
};

}  // namespace

Result<Settings> settings_from_config(const Config& config) {
  Settings s;
  Reader r{config, {}};
  s.debug = static_cast<int>(r.num("SCR_DEBUG", 0));
  s.prefix = r.text("SCR_PREFIX");
  // As SCR does: a relative prefix is taken from the working directory, so
  // the paths SCR_Route_file gives stay valid when the application moves.
  if (!s.prefix.empty() && !io::path::is_absolute(s.prefix))
    s.prefix = io::path::normalize(io::path::join(config.working_dir(), s.prefix));
  s.working_dir = config.working_dir();
  s.cntl_base = r.text("SCR_CNTL_BASE");
  s.cache_base = r.text("SCR_CACHE_BASE");
  s.cache_size = static_cast<int>(r.num("SCR_CACHE_SIZE", 1));
  s.cache_bypass = r.flag("SCR_CACHE_BYPASS", true);
  s.flush = static_cast<int>(r.num("SCR_FLUSH", 10));
  s.flush_async = r.flag("SCR_FLUSH_ASYNC", false);
  s.flush_async_bw = r.bytes("SCR_FLUSH_ASYNC_BW", 0);
  s.flush_async_max = static_cast<int>(r.num("SCR_FLUSH_ASYNC_MAX", 2));
  s.flush_on_restart = r.flag("SCR_FLUSH_ON_RESTART", false);
  s.fetch = r.flag("SCR_FETCH", true);
  s.fetch_width = static_cast<int>(r.num("SCR_FETCH_WIDTH", 256));
  // As in SCR, the flush width follows the fetch width unless set itself.
  s.flush_width = config.get("SCR_FLUSH_WIDTH") ? static_cast<int>(r.num("SCR_FLUSH_WIDTH", 256)) : s.fetch_width;
  s.fetch_bypass = r.flag("SCR_FETCH_BYPASS", false);
  s.global_restart = r.flag("SCR_GLOBAL_RESTART", false);
  s.current = r.text("SCR_CURRENT");
  s.distribute = r.flag("SCR_DISTRIBUTE", true);
  s.cache_purge = r.flag("SCR_CACHE_PURGE", false);
  s.prefix_size = static_cast<int>(r.num("SCR_PREFIX_SIZE", 0));
  s.crc_on_flush = r.flag("SCR_CRC_ON_FLUSH", true);
  s.halt_seconds = r.num("SCR_HALT_SECONDS", 0);
  s.halt_exit = r.flag("SCR_HALT_EXIT", false);
  s.checkpoint_interval = r.num("SCR_CHECKPOINT_INTERVAL", 0);
  s.checkpoint_seconds = r.num("SCR_CHECKPOINT_SECONDS", 0);
  s.checkpoint_overhead = r.real("SCR_CHECKPOINT_OVERHEAD", 0);
  s.job_id = r.text("SCR_JOB_ID");
  s.job_name = r.text("SCR_JOB_NAME");
  s.user_name = r.text("SCR_USER_NAME");
  s.sim_nodes = r.text("SCR_SIM_NODES");
  s.end_time = r.num("SCR_END_TIME", 0);
  s.fault_inject = r.text("SCR_FAULT_INJECT");
  // SCR_PIECE_SIZE sets both piece sizes; SCR's own names override it.
  s.piece_size = static_cast<size_t>(r.bytes("SCR_PIECE_SIZE", 1 << 20));
  s.mpi_piece_size = s.piece_size;
  if (config.get("SCR_FILE_BUF_SIZE")) s.piece_size = static_cast<size_t>(r.bytes("SCR_FILE_BUF_SIZE", s.piece_size));
  if (config.get("SCR_MPI_BUF_SIZE")) s.mpi_piece_size = static_cast<size_t>(r.bytes("SCR_MPI_BUF_SIZE", s.mpi_piece_size));
  s.prefix_purge = r.flag("SCR_PREFIX_PURGE", false);
  s.drop_after_current = r.flag("SCR_DROP_AFTER_CURRENT", false);
  s.copy_metadata = r.flag("SCR_COPY_METADATA", true);
  s.cluster_name = r.text("SCR_CLUSTER_NAME");
  s.log_enable = r.flag("SCR_LOG_ENABLE", false);
  s.log_txt = r.flag("SCR_LOG_TXT_ENABLE", true);
  s.log_json = r.flag("SCR_LOG_JSON_ENABLE", true);
  s.log_syslog = r.flag("SCR_LOG_SYSLOG_ENABLE", true);
  s.log_syslog_prefix = r.text("SCR_LOG_SYSLOG_PREFIX");
  s.log_syslog_facility = r.text("SCR_LOG_SYSLOG_FACILITY");
  s.log_syslog_level = r.text("SCR_LOG_SYSLOG_LEVEL");
  s.log_syslog_socket = r.text("SCR_LOG_SYSLOG_SOCKET");
  SCR_TRY(r.status);
  SCR_ASSIGN_OR_RETURN(Descriptors d, build_descriptors(config));
  s.groups = d.groups;
  s.reds = d.reds;
  for (RedDesc& red : s.reds) red.params.piece_size = s.mpi_piece_size;
  return s;
}

std::vector<std::string> no_effect_warnings(const Config& config) {
  std::vector<std::string> out;
  for (const auto& p : all_params())
    if (!p.no_effect.empty())
      if (auto v = config.user_value(p.name))
        // The name only: a value may be a secret (SCR_LOG_DB_PASS).
        out.push_back(std::string(p.name) + " is set but has no effect in SCR++: " + std::string(p.no_effect));
  for (const auto& t : all_tables()) {
    const kv::Tree* entries = config.table(t.name);
    if (!entries) continue;
    for (const auto& item : t.items) {
      if (item.no_effect.empty()) continue;
      for (const auto& [head, entry] : entries->children())
        if (entry->has(item.name)) {
          out.push_back(std::string(t.name) + "=" + head + " " + std::string(item.name) +
                        " is set but has no effect in SCR++: " + std::string(item.no_effect));
          break;  // once per item
        }
    }
  }
  for (auto& line : config.unknown_file_keys()) out.push_back(std::move(line));
  return out;
}


}  // namespace scr::rt
