// How a node agent's answer crosses the remote method (tools/scr_scavenge/
// wire.hpp): it survives banners, pdsh's "host: " prefixes and other output;
// a cut-off, damaged or missing answer is refused, never half read; the
// survey facts of a redundancy file travel whole (redset/member_facts_tree.hpp).
#include <gtest/gtest.h>

#include <algorithm>

#include "redset/member_facts_tree.hpp"
#include "tools/scr_scavenge/agent.hpp"
#include "tools/scr_scavenge/wire.hpp"

namespace {

using namespace scr;
using namespace scr::tools::scavenge;

kv::Tree sample() {
  kv::Tree t;
  t.set("NODE", "n1");
  kv::Tree& fm = t.child("FM", 0);
  fm.set("PATH", "/dev/shm/u/scr.7/filemap_3.scr");
  for (int i = 0; i < 300; ++i) fm.child("FILE", i).set("NAME", "rank_" + std::to_string(i) + ".ckpt");
  return t;
}

TEST(ScavengeWire, AnAnswerArrivesWholeThroughBannersAndPdshPrefixes) {
  std::string framed = frame_answer(sample());
  ASSERT_GT(std::count(framed.begin(), framed.end(), '\n'), 2) << "spread over several lines";
  std::string pdsh;
  for (const auto& line : {std::string("Welcome to n1"), std::string("")}) pdsh += "n1: " + line + "\n";
  size_t at = 0;
  while (at < framed.size()) {
    size_t nl = framed.find('\n', at);
    pdsh += "n1: " + framed.substr(at, nl - at) + "\n";
    at = nl + 1;
  }
  auto got = read_answer("motd line\n" + pdsh + "trailing\n", "n1");
  ASSERT_TRUE(got.ok()) << got.status().message();
  EXPECT_EQ(sample(), *got);
  auto plain = read_answer(framed, "n1");
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(sample(), *plain);
}

TEST(ScavengeWire, ACutOffDamagedOrMissingAnswerIsRefused) {
  std::string framed = frame_answer(sample());
  EXPECT_FALSE(read_answer("", "n1").ok());
  EXPECT_FALSE(read_answer("rsh: n1: node is down\n", "n1").ok());
  // The end line lost: cut off.
  std::string cut = framed.substr(0, framed.rfind("SCRPP_AGENT_END"));
  auto c = read_answer(cut, "n1");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(std::string::npos, c.status().message().find("cut off"));
  // A whole line lost: the CRC of the encoding finds it.
  size_t second = framed.find('\n') + 1;
  std::string dropped = framed.substr(0, second) + framed.substr(framed.find('\n', second) + 1);
  EXPECT_FALSE(read_answer(dropped, "n1").ok());
  // One digit changed.
  std::string flipped = framed;
  size_t digit = flipped.find(' ') + 40;
  flipped[digit] = flipped[digit] == '0' ? '1' : '0';
  EXPECT_FALSE(read_answer(flipped, "n1").ok());
  // Not hex at all.
  std::string bad = framed;
  bad[bad.find(' ') + 1] = 'z';
  EXPECT_FALSE(read_answer(bad, "n1").ok());
}

TEST(ScavengeWire, SurveyFactsTravelWhole) {
  redset::MemberFacts f;
  f.redundancy_file = "/dev/shm/u/scr.7/scr.dataset.3/reddesc.er.3.xor.0_4_4.redset";
  kv::Tree header;
  header.set_int("RANK", 2);
  header.set_uint("CHUNK", 4096);
  f.header = redset::Header{header, 512};
  f.size = 4608;
  f.files_present = true;
  auto back = redset::facts_from_tree(redset::facts_tree(f));
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(f.redundancy_file, back->redundancy_file);
  ASSERT_TRUE(back->header.has_value());
  EXPECT_EQ(header, back->header->tree);
  EXPECT_EQ(512u, back->header->data_offset);
  EXPECT_EQ(std::optional<uint64_t>(4608), back->size);
  EXPECT_TRUE(back->files_present);

  redset::MemberFacts lost;
  lost.redundancy_file = "/x";
  lost.header_error = "/x: No such file or directory";
  auto l = redset::facts_from_tree(redset::facts_tree(lost));
  ASSERT_TRUE(l.ok());
  EXPECT_FALSE(l->header.has_value());
  EXPECT_EQ(lost.header_error, l->header_error);
  EXPECT_FALSE(l->files_present);
  EXPECT_FALSE(redset::facts_from_tree(kv::Tree()).ok()) << "facts without a file name";
}

}  // namespace

namespace {

int agent(std::vector<std::string> words) {
  std::vector<const char*> argv{"scr_scavenge"};
  for (const auto& w : words) argv.push_back(w.c_str());
  return scr::tools::scavenge::run_agent(static_cast<int>(argv.size()), argv.data());
}

TEST(ScavengeAgent, RefusesNamesThatWouldLeaveItsDirectories) {
  std::vector<std::string> base{"--agent", "scan", "--prefix", "/tmp", "--cntl-base", "/tmp",
                                "--cache-base", "/tmp"};
  auto with = [&](const std::string& user, const std::string& job) {
    auto w = base;
    w.insert(w.end(), {"--user", user, "--job-id", job});
    return w;
  };
  EXPECT_EQ(1, agent(with("root", "../x")));
  EXPECT_EQ(1, agent(with("../root", "7")));
  EXPECT_EQ(1, agent(with("root", "")));
  EXPECT_EQ(1, agent({"--agent", "copy", "--prefix", "/tmp", "--cntl-base", "/tmp", "--cache-base",
                      "/tmp", "--user", "root", "--job-id", "7"}))
      << "copy without --id";
  EXPECT_EQ(1, agent({"--agent", "fly", "--prefix", "/tmp", "--cntl-base", "/tmp", "--cache-base",
                      "/tmp", "--user", "root", "--job-id", "7", "--id", "1"}));
}

}  // namespace
