#include "runtime/config/params.hpp"

#include <algorithm>

#include "common/strings.hpp"

// Set by the build: <sysconfdir>/scr.conf, as SCR 3.1 built the same way.
#ifndef SCR_SYSTEM_CONFIG_FILE
#define SCR_SYSTEM_CONFIG_FILE "/etc/scr.conf"
#endif

namespace scr::rt {
namespace {

using V = ValueType;
constexpr ValueSpec kBool{V::boolean};
constexpr ValueSpec kPath{V::path};
constexpr ValueSpec kString{V::string};
constexpr ValueSpec kName{V::name};
constexpr ValueSpec kSeconds{V::seconds};
// Counts are ints in the runtime: their range stops at INT32_MAX, so no value
// is ever narrowed (SCR_PREFIX_SIZE=4294967297 is an error, not 1).
constexpr ValueSpec int_min(int64_t min) { return {V::integer, min, INT32_MAX}; }
constexpr ValueSpec int64_min(int64_t min) { return {V::integer, min}; }
constexpr ValueSpec int_range(int64_t min, int64_t max) { return {V::integer, min, max}; }
constexpr ValueSpec bytes_range(int64_t min, int64_t max) { return {V::bytes, min, max}; }
constexpr std::string_view kCopyTypes = "SINGLE|PARTNER|XOR|RS";
// SCR_COPY_TYPE=FILE: the descriptors are the CKPT lines of a config file.
constexpr std::string_view kDefaultCopyTypes = "SINGLE|PARTNER|XOR|RS|FILE";
constexpr std::string_view kFacilities =
    "LOG_USER|LOG_DAEMON|LOG_LOCAL0|LOG_LOCAL1|LOG_LOCAL2|LOG_LOCAL3|LOG_LOCAL4|LOG_LOCAL5|LOG_LOCAL6|LOG_LOCAL7";
constexpr std::string_view kLevels =
    "LOG_EMERG|LOG_ALERT|LOG_CRIT|LOG_ERR|LOG_WARNING|LOG_NOTICE|LOG_INFO|LOG_DEBUG";
// GF(2^8) Reed-Solomon limits a set to 256 members including the encodings.
constexpr int64_t kMaxSet = 256;

// A default of "$PWD" stands for the working directory at load time.
constexpr ParamSpec kParams[] = {
    {"SCR_ENABLE", kBool, "1", "0 turns every SCR call into a no-op that succeeds"},
    {"SCR_DEBUG", int_min(0), "0", "verbosity of diagnostics on stderr"},
    {"SCR_PREFIX", kPath, "$PWD", "prefix directory on the parallel file system"},
    {"SCR_PREFIX_SIZE", int_min(0), "0", "checkpoints to keep in the prefix, 0 keeps all"},
    {"SCR_CNTL_BASE", kPath, "/dev/shm", "base of the node-local control directory"},
    {"SCR_CACHE_BASE", kPath, "/dev/shm", "base of the node-local cache directory (default store)"},
    {"SCR_CACHE_SIZE", int_min(1), "1", "datasets kept in cache (default store COUNT)"},
    {"SCR_CACHE_BYPASS", kBool, "1", "1 writes datasets straight to the prefix (no cache, no redundancy); 0 uses the cache"},
    {"SCR_CACHE_PURGE", kBool, "0", "1 deletes cached datasets at start-up instead of rebuilding"},
    {"SCR_COPY_TYPE", {V::choice, 0, 0, kDefaultCopyTypes}, "XOR",
     "redundancy scheme of the default descriptor; FILE: the CKPT lines of a config file (TYPE default XOR)"},
    {"SCR_SET_SIZE", int_range(1, kMaxSet), "8", "processes per redundancy set (XOR, RS, PARTNER)"},
    {"SCR_SET_FAILURES", int_range(1, kMaxSet - 1), "2", "failures per set RS can recover"},
    {"SCR_REPLICAS", int_range(1, kMaxSet - 1), "1", "copies PARTNER keeps on other failure groups"},
    {"SCR_GROUP", kName, "NODE", "failure group of the default descriptor"},
    {"SCR_PIECE_SIZE", bytes_range(4096, int64_t{1} << 30), "1MB", "streaming piece size of copies and encoders"},
    {"SCR_FLUSH", int_min(0), "10", "flush every N checkpoints to the prefix, 0 never"},
    {"SCR_FLUSH_ASYNC", kBool, "0", "1 flushes in the background while the app runs"},
    {"SCR_FLUSH_ASYNC_BW", bytes_range(0, int64_t{1} << 50), "0", "async flush bandwidth limit per second (up to 1 PiB), 0 unlimited"},
    {"SCR_FLUSH_ASYNC_MAX", int_min(1), "2", "async flushes in flight at once"},
    {"SCR_FLUSH_ON_RESTART", kBool, "0", "1 flushes the restart checkpoint right after loading it"},
    {"SCR_FLUSH_WIDTH", int_min(1), "256", "processes that copy to the prefix at once (default SCR_FETCH_WIDTH)"},
    {"SCR_FETCH", kBool, "1", "1 loads the latest checkpoint from the prefix when cache has none"},
    {"SCR_FETCH_WIDTH", int_min(1), "256", "processes that copy from the prefix at once"},
    {"SCR_FETCH_BYPASS", kBool, "0", "1 reads restart files from the prefix instead of fetching to cache"},
    {"SCR_GLOBAL_RESTART", kBool, "0", "1 restarts through the prefix (flush, then fetch) even if cached"},
    {"SCR_CURRENT", kString, "", "name of the checkpoint to restart from"},
    {"SCR_DISTRIBUTE", kBool, "1", "1 sends cached files to the node where their rank now runs"},
    {"SCR_CRC_ON_COPY", kBool, "0", "accepted for SCR; SCR++ always records and verifies CRC32C"},
    {"SCR_CRC_ON_FLUSH", kBool, "1", "1 records CRC32C at flush and verifies it at fetch"},
    {"SCR_HALT_SECONDS", kSeconds, "0", "halt when fewer seconds remain in the allocation, 0 off"},
    {"SCR_HALT_EXIT", kBool, "0", "1 exits the process when a halt condition is met at SCR_Init or at a checkpoint"},
    {"SCR_END_TIME", int64_min(0), "0", "allocation end as Unix epoch seconds, 0 unknown"},
    {"SCR_CHECKPOINT_INTERVAL", int_min(0), "0", "SCR_Need_checkpoint says yes every N calls counted from SCR_Init, 0 off"},
    {"SCR_CHECKPOINT_SECONDS", kSeconds, "0", "minimum seconds between checkpoints, 0 off"},
    {"SCR_CHECKPOINT_OVERHEAD", {V::percent}, "0", "maximum percent of time spent checkpointing (average cost against the time since the last checkpoint), 0 off"},
    {"SCR_CONF_FILE", kPath, "", "user config file, default <SCR_PREFIX>/.scrconf"},
    {"SCR_SYSTEM_CONF_FILE", kPath, SCR_SYSTEM_CONFIG_FILE, "system config file", true},
    {"SCR_JOB_ID", kString, "", "job id, default from the resource manager"},
    {"SCR_JOB_NAME", kString, "", "job name recorded in the index"},
    {"SCR_USER_NAME", kString, "", "user name in directory paths, default the login name"},
    {"SCR_SIM_NODES", {V::name_list}, "", "simulated node names (n0,n1,...) for one-host testing"},
    {"SCR_RUNS", int_min(-1), "1", "runs the launcher attempts, -1 unlimited"},
    {"SCR_MIN_NODES", int_min(0), "0", "fewest nodes the launcher restarts on, 0 the last run's"},
    {"SCR_EXCLUDE_NODES", kString, "", "nodes the job commands count as down (scr_list_down_nodes), e.g. n[3-4]"},
    {"SCR_NODE_REMOTE", kString, "", "how the job commands run a test on each node: srun, pdsh, ssh, or an rsh-like command run as CMD NODE LINE; empty: nodes are not contacted (SCR++)"},
    {"SCR_NODE_TIMEOUT", int_range(1, 3600), "10", "seconds a node has to answer that test (SCR++)"},
    {"SCR_NODE_MIN_BYTES", bytes_range(0, int64_t{1} << 50), "0", "capacity the cache and control bases need on each node for that test, 0 any (SCR++)"},
    {"SCR_FAULT_INJECT", kString, "", "fault injection plan, for tests only"},
    // SCR 3.1 parameters with an SCR++ meaning.
    {"SCR_PREFIX_PURGE", kBool, "0", "1 deletes every dataset of the prefix at SCR_Init"},
    {"SCR_DROP_AFTER_CURRENT", kBool, "0", "with SCR_CURRENT, 1 drops the datasets newer than it from the index at SCR_Init"},
    {"SCR_MPI_BUF_SIZE", bytes_range(4096, int64_t{1} << 30), "", "redundancy encoding piece size (default SCR_PIECE_SIZE)"},
    {"SCR_FILE_BUF_SIZE", bytes_range(4096, int64_t{1} << 30), "", "flush and fetch copy piece size (default SCR_PIECE_SIZE)"},
    {"SCR_COPY_METADATA", kBool, "1", "1 copies file mode and times with flushed and fetched files"},
    {"SCR_CLUSTER_NAME", kString, "", "cluster name recorded with each dataset (CLUSTER)"},
    // SCR 3.1 parameters accepted without effect (SCR_Init says why, once).
    {"SCR_FLUSH_TYPE", {V::string}, "SYNC", "SCR's AXL transfer type of flushes", false,
     "SCR++ copies files itself, in a background thread when SCR_FLUSH_ASYNC=1"},
    {"SCR_FETCH_TYPE", {V::string}, "SYNC", "SCR's AXL transfer type of fetches", false,
     "SCR++ copies files itself"},
    {"SCR_FLUSH_ASYNC_PERCENT", {V::percent}, "0", "CPU share of the async flush (SCR)", false,
     "SCR++ limits an asynchronous flush by SCR_FLUSH_ASYNC_BW"},
    {"SCR_FLUSH_ASYNC_USLEEP", int_min(0), "1000", "sleep between async flush polls (SCR)", false,
     "SCR++'s background flush needs no polling"},
    {"SCR_FLUSH_POSTSTAGE", kBool, "0", "burst buffer post-stage (SCR)", false,
     "there is no burst buffer transfer in SCR++"},
    {"SCR_AXL_MKDIR", kBool, "0", "AXL creates destination directories (SCR)", false,
     "SCR++ always creates the directories it copies into"},
    {"SCR_CRC_ON_DELETE", kBool, "0", "check CRC32C before deleting cached files (SCR)", false,
     "SCR++ checks every file's CRC32C whenever it is read back; deleting reads nothing"},
    {"SCR_WATCHDOG_TIMEOUT", int_min(0), "0", "seconds without progress before SCR's scripts kill a run", false,
     "scr_run does not watch for hangs; use the resource manager's time limit"},
    {"SCR_WATCHDOG_TIMEOUT_PFS", int_min(0), "0", "watchdog timeout while writing to the file system (SCR)", false,
     "scr_run does not watch for hangs; use the resource manager's time limit"},
    {"SCR_LOG_ENABLE", kBool, "0", "1 records run events (checkpoints, flushes, restarts...) in the event logs"},
    {"SCR_LOG_TXT_ENABLE", kBool, "1", "with SCR_LOG_ENABLE, 1 writes the text event log <prefix>/.scr/log"},
    {"SCR_LOG_SYSLOG_ENABLE", kBool, "1", "with SCR_LOG_ENABLE, 1 sends events to syslog"},
    {"SCR_LOG_SYSLOG_PREFIX", kString, "SCR", "syslog identity of the events"},
    {"SCR_LOG_SYSLOG_FACILITY", {V::choice, 0, 0, kFacilities}, "LOG_LOCAL7", "syslog facility of the events"},
    {"SCR_LOG_SYSLOG_LEVEL", {V::choice, 0, 0, kLevels}, "LOG_INFO", "syslog level of the events"},
    {"SCR_LOG_SYSLOG_SOCKET", kPath, "/dev/log", "syslog socket the events are sent to (SCR++)"},
    {"SCR_LOG_JSON_ENABLE", kBool, "1", "with SCR_LOG_ENABLE, 1 writes <prefix>/.scr/log.jsonl, one JSON object per event (SCR++)"},
    {"SCR_LOG_DB_ENABLE", kBool, "0", "MySQL event log (SCR)", false,
     "SCR++ has no MySQL logging"},
    {"SCR_LOG_DB_DEBUG", int_min(0), "0", "MySQL event log verbosity (SCR)", false,
     "SCR++ has no MySQL logging"},
    {"SCR_LOG_DB_HOST", kString, "", "MySQL event log host (SCR)", false,
     "SCR++ has no MySQL logging"},
    {"SCR_LOG_DB_NAME", kString, "", "MySQL event log database (SCR)", false,
     "SCR++ has no MySQL logging"},
    {"SCR_LOG_DB_USER", kString, "", "MySQL event log user (SCR)", false,
     "SCR++ has no MySQL logging"},
    {"SCR_LOG_DB_PASS", kString, "", "MySQL event log password (SCR)", false,
     "SCR++ has no MySQL logging"},
};

constexpr ItemSpec kCkptItems[] = {
    {"ENABLED", kBool, "0 disables the descriptor (default 1)"},
    {"INTERVAL", int_min(1), "applies to checkpoint ids divisible by it; highest match wins (default 1)"},
    {"OUTPUT", kBool, "1 reserves the descriptor for output datasets (default 0)"},
    {"BYPASS", kBool, "1 writes datasets of this descriptor to the prefix (default SCR_CACHE_BYPASS)"},
    {"STORE", kPath, "store directory (default SCR_CACHE_BASE)"},
    {"GROUP", kName, "failure group (default SCR_GROUP)"},
    {"TYPE", {V::choice, 0, 0, kCopyTypes}, "redundancy scheme (default SCR_COPY_TYPE)"},
    {"SET_SIZE", int_range(1, kMaxSet), "set size (default SCR_SET_SIZE)"},
    {"SET_FAILURES", int_range(1, kMaxSet - 1), "RS failures per set (default SCR_SET_FAILURES)"},
    {"REPLICAS", int_range(1, kMaxSet - 1), "PARTNER copies (default SCR_REPLICAS)"},
};

constexpr ItemSpec kStoreItems[] = {
    {"GROUP", kName, "group of processes sharing the device (default NODE)"},
    {"COUNT", int_min(1), "datasets the store holds (default SCR_CACHE_SIZE)"},
    {"ENABLED", kBool, "0 disables the store and every CKPT descriptor that uses it (default 1)"},
    {"MKDIR", kBool, "1: SCR++ creates its directories in the store (default); 0 is refused"},
    {"VIEW", {V::choice, 0, 0, "PRIVATE|GLOBAL"}, "PRIVATE: one device per group (default); GLOBAL is refused"},
    {"FLUSH", {V::string}, "SCR's AXL transfer type of the store (SCR)",
     "SCR++ copies files itself, in a background thread when SCR_FLUSH_ASYNC=1"},
};

constexpr std::string_view kBuiltinGroups[] = {"NODE", "WORLD"};

constexpr TableSpec kTables[] = {
    {"CKPT", int_min(0), kCkptItems, false, {}, {}, "redundancy descriptor with that index"},
    {"STORE", kPath, kStoreItems, false, {}, {}, "store descriptor for that directory"},
    {"GROUPS", kName, {}, true, kName, kBuiltinGroups, "group values of that host"},
};

std::string item_names(const TableSpec& table) {
  std::string out;
  for (const auto& item : table.items) out += (out.empty() ? "" : ", ") + std::string(item.name);
  return out;
}

}  // namespace

std::span<const ParamSpec> all_params() { return kParams; }
std::span<const TableSpec> all_tables() { return kTables; }

const ParamSpec* find_param(std::string_view name) {
  for (const auto& p : kParams)
    if (p.name == name) return &p;
  return nullptr;
}

const TableSpec* find_table(std::string_view name) {
  for (const auto& t : kTables)
    if (t.name == name) return &t;
  return nullptr;
}

bool knows_item(const TableSpec& table, std::string_view item) {
  if (table.open_items) return true;
  for (const auto& spec : table.items)
    if (spec.name == item) return true;
  return false;
}

namespace {
size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

// The known name nearest a misspelt one, if one is near enough (a quarter of
// its letters wrong, at least two).
struct Closest {
  explicit Closest(std::string_view word)
      : upper(str::to_upper(word)), best_d(std::max<size_t>(2, upper.size() / 4) + 1) {}
  void consider(std::string_view name) {
    size_t d = edit_distance(upper, name);
    if (d < best_d) best_d = d, best = name;
  }
  std::string suggestion() const { return best.empty() ? "" : " (did you mean " + std::string(best) + "?)"; }

  std::string upper;
  std::string_view best;
  size_t best_d;
};
}  // namespace

Result<ValueSpec> item_value_spec(const TableSpec& table, std::string_view head,
                                  std::string_view item) {
  std::string entry = std::string(table.name) + "=" + std::string(head);
  for (const auto& spec : table.items)
    if (spec.name == item) return spec.value;
  if (!table.open_items) {
    Closest near(item);
    for (const auto& spec : table.items) near.consider(spec.name);
    return Error(Errc::invalid_argument, entry + ": unknown item '" + std::string(item) + "'" +
                                             near.suggestion() + " (known: " + item_names(table) + ")");
  }
  if (std::find(table.reserved_items.begin(), table.reserved_items.end(), item) !=
      table.reserved_items.end())
    return Error(Errc::invalid_argument,
                 entry + ": " + std::string(item) + " is built in and cannot be redefined");
  SCR_TRY(check_value(entry + " item", kName, item).status());
  return table.open_item_value;
}

Result<std::string> check_item(const TableSpec& table, std::string_view head,
                               std::string_view item, std::string_view raw) {
  SCR_ASSIGN_OR_RETURN(ValueSpec spec, item_value_spec(table, head, item));
  return check_value(std::string(table.name) + "=" + std::string(head) + " " + std::string(item),
                     spec, raw);
}


std::string did_you_mean(std::string_view key) {
  Closest near(key);
  for (const auto& p : kParams) near.consider(p.name);
  for (const auto& t : kTables) near.consider(t.name);
  return near.suggestion();
}

Status unknown_key(std::string_view key) {
  return Error(Errc::invalid_argument, "unknown key '" + std::string(key) + "'" + did_you_mean(key));
}

std::vector<std::string> unknown_scr_env_names(const std::vector<std::string>& env_names) {
  std::vector<std::string> out;
  for (const auto& name : env_names)
    if (str::starts_with(name, "SCR_") && !find_param(name)) out.push_back(name);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace scr::rt
