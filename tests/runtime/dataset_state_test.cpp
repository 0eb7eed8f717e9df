// A cached dataset's lifecycle (runtime/prefix/dataset.hpp), changed through the
// cache catalog: every transition the runtime makes is allowed, every other
// one is refused with bad_state and leaves the state as it was, and the state
// survives a commit and a load under the flags filemaps have always carried.
#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <utility>

#include "../io/temp_dir.hpp"
#include "io/env.hpp"
#include "runtime/cache/catalog.hpp"
#include "runtime/prefix/dataset.hpp"

namespace {

using scr::Errc;
using scr::rt::CacheCatalog;
using scr::rt::CacheState;
using scr::rt::Filemap;
using scr::testing::TempDir;

constexpr CacheState kAll[] = {CacheState::routed, CacheState::complete, CacheState::flushing,
                               CacheState::flushed};

// The transitions the runtime makes: Complete; a fetch or a rebuild of a
// flushed dataset; sync flush; async flush begun, done, failed.
const std::set<std::pair<CacheState, CacheState>> kAllowed = {
    {CacheState::routed, CacheState::complete},   {CacheState::routed, CacheState::flushed},
    {CacheState::complete, CacheState::flushed},  {CacheState::complete, CacheState::flushing},
    {CacheState::flushing, CacheState::flushed},  {CacheState::flushing, CacheState::complete}};

// Brings dataset 7 of a new catalog (whose filemap goes to `cntl`) to `s`
// along allowed steps.
std::unique_ptr<CacheCatalog> at(CacheState s, const std::string& cntl = "/nonexistent") {
  auto fm = std::make_unique<CacheCatalog>();
  fm->open(scr::io::Env::posix(), {cntl, "/nonexistent/cache", {}}, 0);
  fm->begin(7, scr::kv::Tree(), "/nonexistent/cache");
  if (s != CacheState::routed) {
    EXPECT_TRUE(fm->transition(7, CacheState::complete).ok());
  }
  if (s != CacheState::routed && s != CacheState::complete) {
    EXPECT_TRUE(fm->transition(7, s).ok());
  }
  EXPECT_EQ(fm->state(7), s);
  return fm;
}

TEST(DatasetState, EveryTransitionIsAllowedOrRefused) {
  for (CacheState from : kAll)
    for (CacheState to : kAll) {
      SCOPED_TRACE(std::string(scr::rt::state_name(from)) + " -> " + scr::rt::state_name(to));
      bool want = from == to || kAllowed.count({from, to});
      EXPECT_EQ(scr::rt::transition_allowed(from, to), want);
      auto fm = at(from);
      scr::Status st = fm->transition(7, to);
      if (want) {
        EXPECT_TRUE(st.ok()) << st.message();
        EXPECT_EQ(fm->state(7), to);
      } else {
        EXPECT_EQ(st.code(), Errc::bad_state);
        EXPECT_EQ(fm->state(7), from) << "a refused transition changed the state";
      }
    }
}

TEST(DatasetState, SurvivesSaveAndLoadAsTheFlagsFilemapsCarry) {
  TempDir dir;
  std::string path = dir / "filemap_0.scr";
  for (CacheState s : kAll) {
    auto fm = at(s, dir.path());
    ASSERT_EQ(fm->filemap_path(0), path);
    ASSERT_TRUE(fm->commit().ok());
    auto loaded = Filemap::load(scr::io::Env::posix(), path, 0);
    ASSERT_TRUE(loaded.ok());
    EXPECT_EQ(loaded->state(7), s);
    const scr::kv::Tree& d = *loaded->find(7);
    EXPECT_EQ(d.int_or("COMPLETE", 0) != 0, s != CacheState::routed);
    EXPECT_EQ(d.int_or("FLUSHING", 0) != 0, s == CacheState::flushing);
    EXPECT_EQ(d.int_or("FLUSHED", 0) != 0, s == CacheState::flushed);
  }
  // A dataset the filemap does not have is not complete.
  EXPECT_EQ(at(CacheState::flushed)->state(8), CacheState::routed);
}

TEST(DatasetState, BypassIsAnAttributeNotAState) {
  auto fm = at(CacheState::routed);
  EXPECT_FALSE(fm->bypass(7));
  fm->begin_fetch(7, scr::kv::Tree(), "/nonexistent/cache", true);
  EXPECT_TRUE(fm->bypass(7));
  EXPECT_EQ(fm->state(7), CacheState::routed);
  ASSERT_TRUE(fm->transition(7, CacheState::flushed).ok());
  EXPECT_TRUE(fm->bypass(7));
}

}  // namespace
