// Every parameter SCR 3.1 reads is accepted, and docs/config.md's table of
// them says the truth about each: "no effect" exactly where the registry
// says SCR++ ignores it (and SCR_Init warns), a status everywhere else.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "config_test_util.hpp"
#include "runtime/config/config.hpp"
#include "runtime/config/params.hpp"
#include "runtime/config/settings.hpp"

namespace scr::rt {
namespace {

// The names SCR 3.1 reads (its library, its scripts and its config files).
constexpr std::string_view kScr31Params[] = {
    "SCR_ENABLE", "SCR_DEBUG", "SCR_CONF_FILE", "SCR_PREFIX", "SCR_PREFIX_SIZE",
    "SCR_PREFIX_PURGE", "SCR_CNTL_BASE", "SCR_CACHE_BASE", "SCR_CACHE_SIZE", "SCR_CACHE_BYPASS",
    "SCR_CACHE_PURGE", "SCR_COPY_TYPE", "SCR_GROUP", "SCR_SET_SIZE", "SCR_SET_FAILURES",
    "SCR_MPI_BUF_SIZE", "SCR_FILE_BUF_SIZE", "SCR_COPY_METADATA", "SCR_AXL_MKDIR",
    "SCR_DISTRIBUTE", "SCR_FETCH", "SCR_FETCH_WIDTH", "SCR_FETCH_BYPASS", "SCR_FETCH_TYPE",
    "SCR_FLUSH", "SCR_FLUSH_WIDTH", "SCR_FLUSH_TYPE", "SCR_FLUSH_ASYNC", "SCR_FLUSH_ASYNC_BW",
    "SCR_FLUSH_ASYNC_PERCENT", "SCR_FLUSH_ASYNC_USLEEP", "SCR_FLUSH_ON_RESTART",
    "SCR_FLUSH_POSTSTAGE", "SCR_GLOBAL_RESTART", "SCR_CURRENT", "SCR_DROP_AFTER_CURRENT",
    "SCR_CRC_ON_COPY", "SCR_CRC_ON_FLUSH", "SCR_CRC_ON_DELETE", "SCR_CHECKPOINT_INTERVAL",
    "SCR_CHECKPOINT_SECONDS", "SCR_CHECKPOINT_OVERHEAD", "SCR_HALT_SECONDS", "SCR_HALT_EXIT",
    "SCR_JOB_ID", "SCR_JOB_NAME", "SCR_USER_NAME", "SCR_CLUSTER_NAME", "SCR_LOG_ENABLE",
    "SCR_LOG_TXT_ENABLE", "SCR_LOG_SYSLOG_ENABLE", "SCR_LOG_SYSLOG_PREFIX",
    "SCR_LOG_SYSLOG_FACILITY", "SCR_LOG_SYSLOG_LEVEL", "SCR_LOG_DB_ENABLE", "SCR_LOG_DB_DEBUG",
    "SCR_LOG_DB_HOST", "SCR_LOG_DB_NAME", "SCR_LOG_DB_USER", "SCR_LOG_DB_PASS", "SCR_RUNS",
    "SCR_MIN_NODES", "SCR_EXCLUDE_NODES", "SCR_WATCHDOG_TIMEOUT", "SCR_WATCHDOG_TIMEOUT_PFS",
};

// parameter -> third column of the "SCR 3.1 parameters in SCR++" table.
std::map<std::string, std::string> scr31_table() {
  std::ifstream in(std::string(SCR_SOURCE_DIR) + "/docs/config.md");
  std::string line;
  bool inside = false;
  std::map<std::string, std::string> rows;
  while (std::getline(in, line)) {
    if (line.rfind("## ", 0) == 0) inside = line == "## SCR 3.1 parameters in SCR++";
    if (!inside || line.rfind("| `", 0) != 0) continue;
    std::vector<std::string> cells;
    std::stringstream ss(line.substr(1));
    for (std::string cell; std::getline(ss, cell, '|');) cells.push_back(cell);
    if (cells.size() < 3) continue;
    auto key = cells[0].substr(cells[0].find('`') + 1);
    key = key.substr(0, key.find('`'));
    auto status = cells[2].substr(cells[2].find_first_not_of(' '));
    rows[key] = status;
  }
  return rows;
}

TEST(Scr31Params, EveryOneIsRegistered) {
  for (auto name : kScr31Params) EXPECT_NE(find_param(name), nullptr) << name;
}

TEST(Scr31Params, TheDocsTableMatchesTheRegistry) {
  auto rows = scr31_table();
  ASSERT_FALSE(rows.empty()) << "docs/config.md has no 'SCR 3.1 parameters in SCR++' table";
  for (auto name : kScr31Params) EXPECT_TRUE(rows.count(std::string(name))) << name << " is not in the table";
  for (const auto& [key, status] : rows) {
    if (find_table(key)) continue;
    const ParamSpec* spec = find_param(key);
    ASSERT_NE(spec, nullptr) << key << " is in the table but not a parameter";
    bool says_no_effect = status.rfind("no effect", 0) == 0;
    EXPECT_EQ(says_no_effect, !spec->no_effect.empty()) << key << ": table says '" << status << "'";
    if (!says_no_effect) {
      EXPECT_TRUE(status.rfind("same", 0) == 0 || status.rfind("different", 0) == 0)
          << key << ": status '" << status << "' is neither same, different nor no effect";
    }
  }
}

// A configuration setting every SCR 3.1 parameter to a valid value loads and
// resolves; each one without effect gives exactly one warning line naming it.
TEST(Scr31Params, AllSetAtOnceAreAcceptedAndWarnedAbout) {
  testing::TempDir dir;
  testing::FakeEnvironment fake;
  std::map<std::string, std::string> values = {
      {"SCR_CONF_FILE", ""}, {"SCR_PREFIX", "/work/prefix"}, {"SCR_CNTL_BASE", "/dev/shm"},
      {"SCR_CACHE_BASE", "/dev/shm"}, {"SCR_COPY_TYPE", "XOR"}, {"SCR_GROUP", "NODE"},
      {"SCR_SET_SIZE", "4"}, {"SCR_SET_FAILURES", "1"}, {"SCR_MPI_BUF_SIZE", "64KB"},
      {"SCR_FILE_BUF_SIZE", "2MB"}, {"SCR_FLUSH_TYPE", "PTHREAD"}, {"SCR_FETCH_TYPE", "SYNC"},
      {"SCR_FLUSH_ASYNC_BW", "100MB"}, {"SCR_FLUSH_ASYNC_PERCENT", "10"},
      {"SCR_CURRENT", "ckpt.4"}, {"SCR_JOB_ID", "1234"}, {"SCR_JOB_NAME", "run"},
      {"SCR_USER_NAME", "me"}, {"SCR_CLUSTER_NAME", "quartz"}, {"SCR_LOG_SYSLOG_PREFIX", "SCR"},
      {"SCR_LOG_SYSLOG_FACILITY", "LOG_LOCAL7"}, {"SCR_LOG_SYSLOG_LEVEL", "LOG_INFO"},
      {"SCR_LOG_DB_HOST", "db"}, {"SCR_LOG_DB_NAME", "scr"}, {"SCR_LOG_DB_USER", "u"},
      {"SCR_LOG_DB_PASS", "secret-pw"}, {"SCR_EXCLUDE_NODES", "n9"}, {"SCR_HALT_SECONDS", "60"},
      {"SCR_CHECKPOINT_SECONDS", "10"}, {"SCR_CHECKPOINT_OVERHEAD", "5"}, {"SCR_RUNS", "2"},
      {"SCR_MIN_NODES", "1"}, {"SCR_CACHE_SIZE", "2"}, {"SCR_PREFIX_SIZE", "3"},
      {"SCR_WATCHDOG_TIMEOUT", "60"}, {"SCR_WATCHDOG_TIMEOUT_PFS", "600"},
      {"SCR_FLUSH_ASYNC_USLEEP", "100"}, {"SCR_FLUSH_WIDTH", "8"}, {"SCR_FETCH_WIDTH", "8"},
      {"SCR_FLUSH", "2"}, {"SCR_CHECKPOINT_INTERVAL", "3"},
  };
  for (auto name : kScr31Params) {
    auto it = values.find(std::string(name));
    std::string v = it != values.end() ? it->second : "1";
    if (name == "SCR_ENABLE" || name == "SCR_DEBUG") v = name == "SCR_ENABLE" ? "1" : "0";
    if (!v.empty()) fake.vars[std::string(name)] = v;
  }
  auto config = Config::load(fake.sources(dir));
  ASSERT_TRUE(config.ok()) << config.status().to_string();
  auto settings = settings_from_config(*config);
  ASSERT_TRUE(settings.ok()) << settings.status().to_string();
  EXPECT_EQ(settings->mpi_piece_size, 64u << 10);
  EXPECT_EQ(settings->piece_size, 2u << 20);
  EXPECT_EQ(settings->cluster_name, "quartz");
  auto warnings = no_effect_warnings(*config);
  size_t expected = 0;
  for (const auto& p : all_params()) {
    if (p.no_effect.empty() || !fake.vars.count(std::string(p.name))) continue;
    ++expected;
    size_t lines = 0;
    for (const auto& w : warnings) lines += w.rfind(std::string(p.name) + " ", 0) == 0;
    EXPECT_EQ(lines, 1u) << p.name;
  }
  EXPECT_EQ(warnings.size(), expected);
  // Values are not repeated: one may be a secret.
  for (const auto& w : warnings) EXPECT_EQ(w.find("secret-pw"), std::string::npos) << w;
}

// As in SCR, a relative SCR_PREFIX names a directory below the working
// directory of the job: the paths SCR_Route_file hands out are absolute.
TEST(Scr31Params, ARelativePrefixIsTakenFromTheWorkingDirectory) {
  testing::TempDir dir;
  testing::FakeEnvironment fake;
  fake.vars["SCR_PREFIX"] = "rel/./pfx/";
  auto config = Config::load(fake.sources(dir));
  ASSERT_TRUE(config.ok()) << config.status().to_string();
  auto settings = settings_from_config(*config);
  ASSERT_TRUE(settings.ok()) << settings.status().to_string();
  EXPECT_EQ(settings->prefix, dir.path() + "/rel/pfx");
  // The runtime hands rank 0's configuration to every process as a tree: the
  // prefix is still rank 0's, whatever directory the receiver runs in.
  auto received = Config::from_tree(config->to_tree());
  ASSERT_TRUE(received.ok()) << received.status().to_string();
  auto theirs = settings_from_config(*received);
  ASSERT_TRUE(theirs.ok()) << theirs.status().to_string();
  EXPECT_EQ(theirs->prefix, dir.path() + "/rel/pfx");
  fake.vars["SCR_PREFIX"] = "/abs/pfx";
  config = Config::load(fake.sources(dir));
  ASSERT_TRUE(config.ok()) << config.status().to_string();
  EXPECT_EQ(settings_from_config(*config)->prefix, "/abs/pfx");
}

}  // namespace
}  // namespace scr::rt
