// Group, store and redundancy descriptors built from configuration, their
// validation, and the INTERVAL/OUTPUT selection rule.
#include <gtest/gtest.h>

#include "config_test_util.hpp"
#include "runtime/config/descriptors.hpp"
#include "runtime/config/settings.hpp"

namespace scr::rt {
namespace {

using testing::FailsWith;

constexpr DatasetKind kOutput{.checkpoint = false, .output = true};
constexpr DatasetKind kBoth{.checkpoint = true, .output = true};

Config with(std::initializer_list<std::string> lines) {
  Config c;
  for (const auto& line : lines) {
    auto r = c.apply_app_config(line);
    EXPECT_TRUE(r.ok()) << line << ": " << r.status().to_string();
  }
  return c;
}

Descriptors build(const Config& c) {
  auto d = build_descriptors(c);
  EXPECT_TRUE(d.ok()) << d.status().to_string();
  return d.ok() ? *d : Descriptors{};
}

// A configuration build_descriptors refuses, and what its message must name.
struct Refused {
  std::initializer_list<std::string> lines;
  std::vector<std::string> needles;
};

template <size_t N>
void expect_refused(const Refused (&cases)[N]) {
  for (const auto& c : cases) {
    Status st = build_descriptors(with(c.lines)).status();
    EXPECT_FALSE(st.ok()) << *c.lines.begin();
    for (const auto& n : c.needles)
      EXPECT_NE(st.message().find(n), std::string::npos)
          << "config: " << *c.lines.begin() << "\nmessage: " << st.message() << "\nlacks: " << n;
  }
}

TEST(Descriptors, DefaultsWithoutCkptLines) {
  Descriptors d = build(Config());
  EXPECT_TRUE(d.groups.has("NODE"));
  EXPECT_TRUE(d.groups.has("WORLD"));
  EXPECT_FALSE(d.groups.has("POWER"));
  ASSERT_EQ(d.stores.size(), 1u);
  EXPECT_EQ(d.stores[0].path, "/dev/shm");
  EXPECT_EQ(d.stores[0].group, "NODE");
  EXPECT_EQ(d.stores[0].count, 1);
  ASSERT_EQ(d.reds.size(), 1u);
  const RedDesc& r = d.reds[0];
  EXPECT_EQ(r.index, 0);
  EXPECT_TRUE(r.enabled);
  EXPECT_EQ(r.interval, 1);
  EXPECT_FALSE(r.output);
  EXPECT_TRUE(r.bypass);  // SCR_CACHE_BYPASS=1 is SCR 3.1's default
  EXPECT_EQ(r.params.scheme, redset::Scheme::xor_code);
  EXPECT_EQ(r.params.set_size, 8);
  EXPECT_EQ(r.params.failures, 2);
  EXPECT_EQ(r.params.replicas, 1);
  EXPECT_EQ(r.store, "/dev/shm");
  EXPECT_EQ(r.group, "NODE");
}

TEST(Descriptors, DefaultDescriptorFollowsParameters) {
  Descriptors d = build(with({"SCR_COPY_TYPE=partner", "SCR_REPLICAS=2", "SCR_SET_SIZE=4",
                              "SCR_GROUP=WORLD", "SCR_CACHE_BASE=/tmp/cache/", "SCR_CACHE_SIZE=3",
                              "SCR_CACHE_BYPASS=1"}));
  ASSERT_EQ(d.reds.size(), 1u);
  EXPECT_EQ(d.reds[0].params.scheme, redset::Scheme::partner);
  EXPECT_EQ(d.reds[0].params.replicas, 2);
  EXPECT_EQ(d.reds[0].params.set_size, 4);
  EXPECT_EQ(d.reds[0].group, "WORLD");
  EXPECT_EQ(d.reds[0].store, "/tmp/cache");
  EXPECT_TRUE(d.reds[0].bypass);
  ASSERT_NE(d.find_store("/tmp/cache"), nullptr);
  EXPECT_EQ(d.find_store("/tmp/cache")->count, 3);
}

TEST(Descriptors, StoresGroupsAndCkptLines) {
  Descriptors d = build(with({
      "GROUPS=host1 POWER=psu1 SWITCH=sw0",
      "GROUPS=host2 POWER=psu1",
      "STORE=/dev/shm GROUP=NODE COUNT=2",
      "STORE=/ssd GROUP=POWER COUNT=4",
      "CKPT=0 TYPE=XOR SET_SIZE=16",
      "CKPT=1 INTERVAL=4 TYPE=RS SET_SIZE=8 SET_FAILURES=3 STORE=/ssd GROUP=POWER",
      "CKPT=2 OUTPUT=1 TYPE=SINGLE ENABLED=0 BYPASS=1",
  }));
  EXPECT_TRUE(d.groups.has("POWER"));
  EXPECT_TRUE(d.groups.has("SWITCH"));
  EXPECT_EQ(*d.groups.member_key("host2", "POWER"), "psu1");
  EXPECT_EQ(*d.groups.member_key("host9", "NODE"), "host9");
  EXPECT_EQ(*d.groups.member_key("host9", "WORLD"), *d.groups.member_key("host1", "WORLD"));
  EXPECT_TRUE(FailsWith(d.groups.member_key("host2", "SWITCH").status(), {"host2", "SWITCH"}));
  EXPECT_TRUE(FailsWith(d.groups.member_key("host1", "RACK").status(), {"RACK"}));

  ASSERT_EQ(d.stores.size(), 2u);
  EXPECT_EQ(d.find_store("/dev/shm")->count, 2);
  EXPECT_EQ(d.find_store("/ssd")->group, "POWER");

  ASSERT_EQ(d.reds.size(), 3u);
  EXPECT_EQ(d.reds[0].params.set_size, 16);
  EXPECT_EQ(d.reds[0].params.failures, 2);  // unset items take SCR_* defaults
  EXPECT_EQ(d.reds[1].params.scheme, redset::Scheme::rs);
  EXPECT_EQ(d.reds[1].interval, 4);
  EXPECT_EQ(d.reds[1].params.failures, 3);
  EXPECT_EQ(d.reds[1].store, "/ssd");
  EXPECT_EQ(d.reds[1].store_count, 4);  // the COUNT of its store
  EXPECT_EQ(d.reds[0].store_count, 2);
  EXPECT_FALSE(d.reds[2].enabled);
  EXPECT_TRUE(d.reds[2].output);
  EXPECT_TRUE(d.reds[2].bypass);
}

TEST(Descriptors, ValidationNamesTheDescriptor) {
  const Refused cases[] = {
      {{"CKPT=0 TYPE=RS SET_SIZE=200 SET_FAILURES=100"}, {"CKPT=0", "SET_SIZE + SET_FAILURES <= 256"}},
      {{"CKPT=0 TYPE=RS SET_SIZE=2 SET_FAILURES=2"}, {"CKPT=0", "SET_FAILURES < SET_SIZE"}},
      {{"CKPT=0 TYPE=PARTNER SET_SIZE=2 REPLICAS=2"}, {"CKPT=0", "REPLICAS < SET_SIZE"}},
      {{"CKPT=0 GROUP=RACK"}, {"CKPT=0", "group 'RACK' is not defined"}},
      {{"CKPT=0 STORE=/nvme"}, {"CKPT=0", "store '/nvme' is not defined"}},
      {{"CKPT=0 INTERVAL=2"}, {"INTERVAL=1"}},
      {{"CKPT=0 ENABLED=0", "CKPT=1 INTERVAL=2"}, {"INTERVAL=1"}},
      {{"STORE=/ssd GROUP=RACK"}, {"STORE=/ssd", "RACK"}},
      {{"SCR_GROUP=RACK"}, {"default redundancy descriptor", "SCR_GROUP=RACK", "not defined"}},
      {{"SCR_COPY_TYPE=RS", "SCR_SET_SIZE=250", "SCR_SET_FAILURES=10"},
       {"default redundancy descriptor", "SCR_COPY_TYPE=RS", "<= 256"}},
  };
  expect_refused(cases);
  // A defined group and store make the same descriptors valid.
  EXPECT_TRUE(build_descriptors(with({"GROUPS=h RACK=r1", "STORE=/nvme", "CKPT=0 GROUP=RACK STORE=/nvme"})).ok());
  EXPECT_TRUE(build_descriptors(with({"CKPT=0 TYPE=RS SET_SIZE=200 SET_FAILURES=56"})).ok());
}

// SCR 3.1's own multi-descriptor configuration, as its documentation writes
// it: SCR_COPY_TYPE=FILE selects the CKPT lines, and its STORE lines may carry
// SCR's other store items.
TEST(Descriptors, ScrConfigWithCopyTypeFileAndStoreItems) {
  Config c = with({
      "SCR_COPY_TYPE=FILE",
      "STORE=/dev/shm GROUP=NODE COUNT=1 ENABLED=1 MKDIR=1 VIEW=PRIVATE",
      "STORE=/ssd GROUP=NODE COUNT=3 FLUSH=PTHREAD",
      "CKPT=0 TYPE=SINGLE STORE=/dev/shm",
      "CKPT=1 INTERVAL=4 STORE=/ssd",
  });
  Descriptors d = build(c);
  ASSERT_EQ(d.reds.size(), 2u);
  EXPECT_EQ(d.reds[0].params.scheme, redset::Scheme::single);
  EXPECT_EQ(d.reds[1].params.scheme, redset::Scheme::xor_code);  // no TYPE: XOR, SCR's default
  EXPECT_EQ(d.reds[1].store_count, 3);
  EXPECT_TRUE(d.reds[0].enabled && d.reds[1].enabled);
  // FLUSH selects SCR's transfer library: accepted, and said to have no effect, once.
  auto warnings = no_effect_warnings(c);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("FLUSH"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[0].find("no effect"), std::string::npos) << warnings[0];
}

TEST(Descriptors, StoreItemsScrPlusPlusCannotServeAreRefused) {
  const Refused cases[] = {
      {{"SCR_COPY_TYPE=FILE"}, {"SCR_COPY_TYPE=FILE", "CKPT"}},
      {{"STORE=/ssd MKDIR=0", "CKPT=0 STORE=/ssd"}, {"STORE=/ssd", "MKDIR=0"}},
      {{"STORE=/bb VIEW=GLOBAL", "CKPT=0"}, {"STORE=/bb", "VIEW=GLOBAL"}},
      // Every descriptor for all checkpoints sits on a disabled store.
      {{"STORE=/ssd ENABLED=0", "CKPT=0 STORE=/ssd"}, {"INTERVAL=1", "STORE"}},
      {{"STORE=/dev/shm ENABLED=0"}, {"default redundancy descriptor", "/dev/shm", "ENABLED=0"}},
  };
  expect_refused(cases);
}

TEST(Descriptors, DisablingAStoreDisablesItsDescriptors) {
  Descriptors d = build(with({"STORE=/ssd ENABLED=0", "CKPT=0", "CKPT=1 INTERVAL=2 STORE=/ssd"}));
  ASSERT_EQ(d.reds.size(), 2u);
  EXPECT_TRUE(d.reds[0].enabled);
  EXPECT_FALSE(d.reds[1].enabled);
  EXPECT_EQ(select(d.reds, 2).index, 0);  // the /ssd level is never chosen
}

TEST(Descriptors, ErrorsCiteTheConfigFileLine) {
  testing::TempDir dir;
  testing::FakeEnvironment fake;
  dir.write(".scrconf", "# site\nCKPT=0 TYPE=XOR\n\nCKPT=1 INTERVAL=2 GROUP=RACK\n");
  auto c = Config::load(fake.sources(dir));
  ASSERT_TRUE(c.ok()) << c.status().to_string();
  EXPECT_TRUE(FailsWith(build_descriptors(*c).status(),
                        {"CKPT=1", dir.file(".scrconf") + ":4", "RACK"}));
}

TEST(Descriptors, IntervalSelectionHighestMatchWins) {
  Descriptors d = build(with({"CKPT=0 TYPE=XOR", "CKPT=1 INTERVAL=4 TYPE=RS",
                              "CKPT=2 INTERVAL=8 TYPE=PARTNER", "CKPT=3 INTERVAL=16 ENABLED=0",
                              "CKPT=4 OUTPUT=1 TYPE=SINGLE"}));
  EXPECT_EQ(select(d.reds, 1).index, 0);
  EXPECT_EQ(select(d.reds, 3).index, 0);
  EXPECT_EQ(select(d.reds, 4).index, 1);
  EXPECT_EQ(select(d.reds, 12).index, 1);
  EXPECT_EQ(select(d.reds, 8).index, 2);
  EXPECT_EQ(select(d.reds, 16).index, 2);  // interval 16 is disabled
  EXPECT_EQ(select(d.reds, 5, kOutput).index, 4);
  EXPECT_EQ(select(d.reds, 16, kOutput).index, 4);
  EXPECT_EQ(select(d.reds, 4, kBoth).index, 4);  // an output checkpoint: OUTPUT=1 first
}

TEST(Descriptors, SelectionTiesAndNoOutputDescriptor) {
  Descriptors d = build(with({"CKPT=0 TYPE=XOR", "CKPT=1 TYPE=RS", "CKPT=2 INTERVAL=2"}));
  EXPECT_EQ(select(d.reds, 3).index, 0);  // equal intervals: lowest index
  // No OUTPUT=1: a checkpoint that is output too takes the interval rule, an
  // output that is no checkpoint the first descriptor with INTERVAL=1.
  EXPECT_EQ(select(d.reds, 2, kBoth).index, 2);
  EXPECT_EQ(select(d.reds, 2, kOutput).index, 0);
}

// As in SCR 3.1, a descriptor marked OUTPUT=1 also serves the checkpoints
// its INTERVAL divides, and may be the only one.
TEST(Descriptors, AnOutputDescriptorServesCheckpointsToo) {
  Descriptors d = build(with({"STORE=/ssd", "CKPT=0 INTERVAL=1", "CKPT=1 INTERVAL=4 STORE=/ssd OUTPUT=1"}));
  EXPECT_EQ(select(d.reds, 3).index, 0);
  EXPECT_EQ(select(d.reds, 4).index, 1);
  EXPECT_EQ(select(d.reds, 8).store, "/ssd");
  EXPECT_EQ(select(d.reds, 5, kOutput).index, 1);
  // SCR 3.1's documented example: every 8th checkpoint PARTNER, every 4th
  // (not 8th) and every output RS, all others XOR.
  Descriptors doc = build(with({"STORE=/ssd", "GROUPS=h SWITCH=s", "CKPT=0 INTERVAL=1 TYPE=XOR SET_SIZE=4",
                                "CKPT=1 INTERVAL=4 STORE=/ssd TYPE=RS SET_SIZE=4 SET_FAILURES=1 OUTPUT=1",
                                "CKPT=2 INTERVAL=8 GROUP=SWITCH STORE=/ssd TYPE=PARTNER BYPASS=1"}));
  EXPECT_EQ(select(doc.reds, 3).index, 0);
  EXPECT_EQ(select(doc.reds, 12).index, 1);
  EXPECT_EQ(select(doc.reds, 16).index, 2);
  EXPECT_EQ(select(doc.reds, 16, kOutput).index, 1);
  EXPECT_EQ(select(doc.reds, 16, kBoth).index, 1);
  Descriptors only = build(with({"CKPT=0 INTERVAL=1 OUTPUT=1 TYPE=XOR"}));
  EXPECT_EQ(select(only.reds, 7).index, 0);
  EXPECT_EQ(select(only.reds, 7, kOutput).index, 0);
}

TEST(Descriptors, SchemeNames) {
  EXPECT_STREQ(redset::scheme_name(redset::Scheme::single), "SINGLE");
  EXPECT_STREQ(redset::scheme_name(redset::Scheme::partner), "PARTNER");
  EXPECT_STREQ(redset::scheme_name(redset::Scheme::xor_code), "XOR");
  EXPECT_STREQ(redset::scheme_name(redset::Scheme::rs), "RS");
}

}  // namespace
}  // namespace scr::rt
