// The parameter registry and value validation: every kind accepts its good
// values in canonical form and rejects bad ones with a message naming the key.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "common/strings.hpp"
#include "config_test_util.hpp"
#include "runtime/config/config.hpp"
#include "runtime/config/params.hpp"

namespace scr::rt {
namespace {

using testing::FailsWith;

std::string canon(std::string_view key, std::string_view raw) {
  const ParamSpec* spec = find_param(key);
  EXPECT_NE(spec, nullptr) << key;
  auto r = check_value(key, spec->value, raw);
  EXPECT_TRUE(r.ok()) << r.status().to_string();
  return r.ok() ? *r : "";
}

Status reject(std::string_view key, std::string_view raw) {
  const ParamSpec* spec = find_param(key);
  EXPECT_NE(spec, nullptr) << key;
  return check_value(key, spec->value, raw).status();
}

TEST(Params, RequiredKeysAreRegistered) {
  for (const char* key :
       {"SCR_PREFIX", "SCR_CNTL_BASE", "SCR_CACHE_BASE", "SCR_CACHE_SIZE", "SCR_CACHE_BYPASS",
        "SCR_COPY_TYPE", "SCR_SET_SIZE", "SCR_SET_FAILURES", "SCR_GROUP", "SCR_FLUSH",
        "SCR_FLUSH_ASYNC", "SCR_FLUSH_ASYNC_BW", "SCR_FLUSH_ASYNC_MAX", "SCR_FLUSH_ON_RESTART",
        "SCR_FETCH", "SCR_FETCH_BYPASS", "SCR_GLOBAL_RESTART", "SCR_CURRENT", "SCR_DISTRIBUTE",
        "SCR_CACHE_PURGE", "SCR_PREFIX_SIZE", "SCR_CRC_ON_COPY", "SCR_CRC_ON_FLUSH",
        "SCR_HALT_SECONDS", "SCR_HALT_EXIT", "SCR_CHECKPOINT_INTERVAL", "SCR_CHECKPOINT_SECONDS",
        "SCR_CHECKPOINT_OVERHEAD", "SCR_DEBUG", "SCR_ENABLE", "SCR_CONF_FILE", "SCR_JOB_ID",
        "SCR_JOB_NAME", "SCR_USER_NAME", "SCR_SIM_NODES", "SCR_END_TIME", "SCR_RUNS",
        "SCR_MIN_NODES", "SCR_REPLICAS", "SCR_PIECE_SIZE", "SCR_FAULT_INJECT"})
    EXPECT_NE(find_param(key), nullptr) << key;
  for (const char* table : {"CKPT", "STORE", "GROUPS"}) EXPECT_NE(find_table(table), nullptr);
  EXPECT_EQ(find_param("SCR_NOPE"), nullptr);
}

TEST(Params, NamesAreUniqueAndDocumented) {
  std::set<std::string_view> seen;
  for (const auto& p : all_params()) {
    EXPECT_TRUE(seen.insert(p.name).second) << "duplicate " << p.name;
    EXPECT_FALSE(p.doc.empty()) << p.name;
  }
}

TEST(Params, EveryDefaultPassesItsOwnValidation) {
  ConfigLayer defaults = builtin_defaults("/work/dir");
  for (const auto& p : all_params()) {
    if (p.default_value.empty()) {
      EXPECT_FALSE(defaults.param(p.name)) << p.name;
      continue;
    }
    ASSERT_TRUE(defaults.param(p.name)) << p.name << " default '" << p.default_value << "'";
  }
  EXPECT_EQ(*defaults.param("SCR_PREFIX"), "/work/dir");
  EXPECT_EQ(*defaults.param("SCR_COPY_TYPE"), "XOR");
  EXPECT_EQ(*defaults.param("SCR_CACHE_BASE"), "/dev/shm");
  // The system file is where SCR 3.1 built with the same prefix reads it
  // (<sysconfdir>/scr.conf, CMake's SCR_CONFIG_FILE).
  EXPECT_EQ(*defaults.param("SCR_SYSTEM_CONF_FILE"), SCR_CONFIG_FILE_OF_BUILD);
}

TEST(Params, DocsListEveryKey) {
  std::ifstream in(std::string(SCR_SOURCE_DIR) + "/docs/config.md");
  ASSERT_TRUE(in.good()) << "docs/config.md missing";
  std::stringstream text;
  text << in.rdbuf();
  for (const auto& p : all_params())
    EXPECT_NE(text.str().find("`" + std::string(p.name) + "`"), std::string::npos) << p.name;
  for (const auto& t : all_tables())
    EXPECT_NE(text.str().find("`" + std::string(t.name) + "="), std::string::npos) << t.name;
}

TEST(ParamValues, IntegerCanonicalAndRange) {
  EXPECT_EQ(canon("SCR_CACHE_SIZE", " 4 "), "4");
  EXPECT_EQ(canon("SCR_RUNS", "-1"), "-1");
  EXPECT_TRUE(FailsWith(reject("SCR_CACHE_SIZE", "abc"), {"SCR_CACHE_SIZE=abc: not an integer"}));
  EXPECT_TRUE(FailsWith(reject("SCR_CACHE_SIZE", "1.5"), {"SCR_CACHE_SIZE", "not an integer"}));
  EXPECT_TRUE(FailsWith(reject("SCR_CACHE_SIZE", "0"), {"SCR_CACHE_SIZE=0", "between 1 and 2147483647"}));
  EXPECT_TRUE(FailsWith(reject("SCR_SET_SIZE", "257"), {"SCR_SET_SIZE=257", "between 1 and 256"}));
  EXPECT_TRUE(FailsWith(reject("SCR_FLUSH", "-3"), {"SCR_FLUSH", "between 0 and 2147483647"}));
  // Counts are parsed into their real range, never narrowed.
  EXPECT_TRUE(FailsWith(reject("SCR_PREFIX_SIZE", "4294967297"), {"SCR_PREFIX_SIZE=4294967297", "2147483647"}));
  EXPECT_TRUE(FailsWith(reject("SCR_FLUSH", "4294967295"), {"SCR_FLUSH=4294967295", "2147483647"}));
  EXPECT_TRUE(FailsWith(reject("SCR_CACHE_SIZE", "2147483648"), {"SCR_CACHE_SIZE"}));
  EXPECT_EQ(canon("SCR_CACHE_SIZE", "2147483647"), "2147483647");
  EXPECT_TRUE(FailsWith(reject("SCR_FLUSH", "9223372036854775808"), {"SCR_FLUSH", "not an integer"}));
  EXPECT_EQ(canon("SCR_END_TIME", "9223372036854775807"), "9223372036854775807");
  EXPECT_TRUE(FailsWith(reject("SCR_FLUSH", "99999999999999999999"), {"SCR_FLUSH", "not an integer"}));
}

TEST(ParamValues, BooleanCanonical) {
  EXPECT_EQ(canon("SCR_FLUSH_ASYNC", "1"), "1");
  EXPECT_EQ(canon("SCR_FLUSH_ASYNC", "yes"), "1");
  EXPECT_EQ(canon("SCR_FLUSH_ASYNC", "OFF"), "0");
  EXPECT_TRUE(FailsWith(reject("SCR_FLUSH_ASYNC", "2"), {"SCR_FLUSH_ASYNC=2", "boolean"}));
  EXPECT_TRUE(FailsWith(reject("SCR_ENABLE", "maybe"), {"SCR_ENABLE=maybe"}));
}

TEST(ParamValues, BytesKeepUnitAndRejectGarbage) {
  EXPECT_EQ(canon("SCR_FLUSH_ASYNC_BW", "64MB"), "64MB");
  EXPECT_EQ(canon("SCR_PIECE_SIZE", "4096"), "4096");
  EXPECT_TRUE(FailsWith(reject("SCR_PIECE_SIZE", "lots"), {"SCR_PIECE_SIZE=lots", "byte count"}));
  EXPECT_TRUE(FailsWith(reject("SCR_PIECE_SIZE", "1.2.3MB"), {"SCR_PIECE_SIZE", "byte count"}));
  EXPECT_TRUE(FailsWith(reject("SCR_PIECE_SIZE", "10XB"), {"SCR_PIECE_SIZE", "byte count"}));
  EXPECT_TRUE(FailsWith(reject("SCR_PIECE_SIZE", "0"), {"SCR_PIECE_SIZE=0", "between"}));
  EXPECT_TRUE(FailsWith(reject("SCR_PIECE_SIZE", "4095"), {"SCR_PIECE_SIZE=4095", "between 4096"}));
  EXPECT_TRUE(FailsWith(reject("SCR_PIECE_SIZE", "2GB"), {"SCR_PIECE_SIZE=2GB", "between"}));
  EXPECT_TRUE(FailsWith(reject("SCR_FLUSH_ASYNC_BW", "-5MB"), {"SCR_FLUSH_ASYNC_BW"}));
}

TEST(ParamValues, SecondsAndPercent) {
  EXPECT_EQ(canon("SCR_HALT_SECONDS", "1.5"), "1.5");
  EXPECT_TRUE(FailsWith(reject("SCR_HALT_SECONDS", "-1"), {"SCR_HALT_SECONDS=-1"}));
  EXPECT_TRUE(FailsWith(reject("SCR_HALT_SECONDS", "soon"), {"SCR_HALT_SECONDS=soon", "seconds"}));
  EXPECT_TRUE(FailsWith(reject("SCR_HALT_SECONDS", "1e300"), {"SCR_HALT_SECONDS"}));
  EXPECT_EQ(canon("SCR_CHECKPOINT_OVERHEAD", "12.5"), "12.5");
  EXPECT_TRUE(FailsWith(reject("SCR_CHECKPOINT_OVERHEAD", "101"), {"SCR_CHECKPOINT_OVERHEAD=101", "100"}));
  EXPECT_TRUE(FailsWith(reject("SCR_CHECKPOINT_OVERHEAD", "x"), {"SCR_CHECKPOINT_OVERHEAD=x"}));
}

TEST(ParamValues, ChoiceIsCaseInsensitive) {
  EXPECT_EQ(canon("SCR_COPY_TYPE", "rs"), "RS");
  EXPECT_EQ(canon("SCR_COPY_TYPE", "Partner"), "PARTNER");
  EXPECT_TRUE(FailsWith(reject("SCR_COPY_TYPE", "FOO"),
                        {"SCR_COPY_TYPE=FOO", "SINGLE, PARTNER, XOR, RS"}));
}

TEST(ParamValues, PathsNormalizeAndStringsMustBeNonEmpty) {
  EXPECT_EQ(canon("SCR_CACHE_BASE", "/dev//shm/"), "/dev/shm");
  EXPECT_EQ(canon("SCR_JOB_NAME", "my job"), "my job");
  EXPECT_TRUE(FailsWith(reject("SCR_PREFIX", "  "), {"SCR_PREFIX", "empty value"}));
  EXPECT_TRUE(FailsWith(reject("SCR_JOB_ID", ""), {"SCR_JOB_ID", "empty value"}));
  EXPECT_TRUE(FailsWith(reject("SCR_PREFIX", "a /"), {"SCR_PREFIX", "blank"}));
  EXPECT_TRUE(FailsWith(reject("SCR_PREFIX", "/a\r/b"), {"SCR_PREFIX", "control character"}));
  EXPECT_TRUE(FailsWith(reject("SCR_JOB_NAME", std::string("a\0b", 3)), {"control character"}));
}

TEST(ParamValues, NameListsAndNames) {
  EXPECT_EQ(canon("SCR_SIM_NODES", "n0, n1 ,n2"), "n0,n1,n2");
  EXPECT_TRUE(FailsWith(reject("SCR_SIM_NODES", "n0,,n2"), {"SCR_SIM_NODES"}));
  EXPECT_TRUE(FailsWith(reject("SCR_SIM_NODES", "n0,../x"), {"SCR_SIM_NODES", "../x"}));
  EXPECT_EQ(canon("SCR_GROUP", "POWER"), "POWER");
  EXPECT_TRUE(FailsWith(reject("SCR_GROUP", "a/b"), {"SCR_GROUP=a/b", "not a name"}));
}

TEST(TableItems, ValidateNamesAndValues) {
  const TableSpec& ckpt = *find_table("CKPT");
  EXPECT_EQ(*check_item(ckpt, "0", "TYPE", "xor"), "XOR");
  EXPECT_TRUE(FailsWith(check_item(ckpt, "0", "TYPE", "FOO").status(), {"CKPT=0 TYPE=FOO", "RS"}));
  EXPECT_TRUE(FailsWith(check_item(ckpt, "0", "COLOR", "red").status(),
                        {"CKPT=0", "unknown item 'COLOR'", "SET_SIZE"}));
  EXPECT_TRUE(FailsWith(check_item(ckpt, "0", "SETSIZE", "4").status(),
                        {"unknown item 'SETSIZE' (did you mean SET_SIZE?)"}));
  EXPECT_TRUE(FailsWith(check_item(ckpt, "1", "SET_SIZE", "x").status(), {"CKPT=1 SET_SIZE=x"}));
  const TableSpec& groups = *find_table("GROUPS");
  EXPECT_EQ(*check_item(groups, "host1", "POWER", "psu1"), "psu1");
  EXPECT_TRUE(FailsWith(check_item(groups, "host1", "NODE", "x").status(), {"GROUPS=host1", "NODE", "built in"}));
}

TEST(Params, UnknownScrEnvironmentNames) {
  auto unknown = unknown_scr_env_names(
      {"PATH", "SCR_FLUSH", "SCR_FLUSH_ASYNCH", "SCR_SYSTEM_CONF_FILE", "SCRATCH", "SCR_ZZ"});
  EXPECT_EQ(unknown, (std::vector<std::string>{"SCR_FLUSH_ASYNCH", "SCR_ZZ"}));
}

}  // namespace
}  // namespace scr::rt

namespace scr::rt {
namespace {

// Every numeric parameter, at each bound, one past it, and at the values
// where a narrowing conversion would wrap (2^31, 2^32 +- 1, 2^63): a value
// is accepted exactly when it lies in the parameter's range, and the
// canonical text is the number itself -- nothing is ever narrowed or wrapped.
TEST(ParamValues, EveryNumericParameterAtAndPastItsBounds) {
  const std::vector<std::string> wide = {"2147483648", "4294967295", "4294967296", "4294967297",
                                         "9223372036854775807", "-1", "-2147483649"};
  int checked = 0;
  for (const ParamSpec& p : all_params()) {
    if (p.value.type != ValueType::integer && p.value.type != ValueType::bytes) continue;
    ++checked;
    const int64_t lo = p.value.min, hi = p.value.max;
    std::vector<std::string> values = wide;
    for (int64_t v : {lo, hi}) values.push_back(std::to_string(v));
    if (lo > std::numeric_limits<int64_t>::min()) values.push_back(std::to_string(lo - 1));
    if (hi < std::numeric_limits<int64_t>::max()) values.push_back(std::to_string(hi + 1));
    values.push_back("9223372036854775808");  // 2^63: past every range
    for (const std::string& raw : values) {
      auto parsed = str::parse_int(raw);
      bool in_range = parsed && *parsed >= lo && *parsed <= hi;
      auto r = check_value(p.name, p.value, raw);
      EXPECT_EQ(r.ok(), in_range) << p.name << "=" << raw;
      if (r.ok()) {
        EXPECT_EQ(*r, raw) << p.name;
      } else {
        EXPECT_NE(r.status().message().find(std::string(p.name) + "=" + raw), std::string::npos)
            << r.status().message();
      }
    }
    // The runtime holds counts in int: no integer parameter may reach past
    // INT32_MAX unless the runtime keeps it in 64 bits.
    if (p.value.type == ValueType::integer && p.name != "SCR_END_TIME") {
      EXPECT_LE(hi, INT32_MAX) << p.name << " would be narrowed";
    }
  }
  EXPECT_GT(checked, 15);
}

// Byte counts take SCR's unit suffixes (powers of 1024) and keep them.
TEST(ParamValues, ByteCountsWithUnitsAtTheirBounds) {
  EXPECT_EQ(canon("SCR_PIECE_SIZE", "1MB"), "1MB");
  EXPECT_EQ(canon("SCR_PIECE_SIZE", "4KB"), "4KB");
  EXPECT_EQ(canon("SCR_PIECE_SIZE", "1GB"), "1GB");
  EXPECT_TRUE(FailsWith(reject("SCR_PIECE_SIZE", "2GB"), {"SCR_PIECE_SIZE=2GB"}));
  EXPECT_TRUE(FailsWith(reject("SCR_PIECE_SIZE", "3KB"), {"SCR_PIECE_SIZE=3KB"}));
  EXPECT_TRUE(FailsWith(reject("SCR_PIECE_SIZE", "-1MB"), {"SCR_PIECE_SIZE=-1MB"}));
  EXPECT_TRUE(FailsWith(reject("SCR_PIECE_SIZE", "1XB"), {"SCR_PIECE_SIZE=1XB"}));
  EXPECT_EQ(canon("SCR_FLUSH_ASYNC_BW", "200MB"), "200MB");
  EXPECT_TRUE(FailsWith(reject("SCR_FLUSH_ASYNC_BW", "16EB"), {"SCR_FLUSH_ASYNC_BW=16EB"}));
}

}  // namespace
}  // namespace scr::rt
