// Geometry of the XOR/RS layout and the RS stripe jobs: pure functions, no MPI.
#include "redset/layout.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "redset/rs_jobs.hpp"

namespace {

using scr::redset::Pieces;
using scr::redset::StripeLayout;
using scr::redset::Symbol;

// Every member holds each of its p-k data chunks and k check rows in exactly
// one stripe, and every stripe has one symbol of every member.
TEST(StripeLayout, EverySymbolOnceEveryStripeFull) {
  for (int p = 2; p <= 9; ++p)
    for (int k = 1; k < p; ++k) {
      StripeLayout layout(p, k);
      for (int m = 0; m < p; ++m) {
        std::set<int> data, checks;
        for (int s = 0; s < p; ++s) {
          Symbol sym = layout.symbol_of(m, s);
          auto& seen = sym.kind == Symbol::Kind::data ? data : checks;
          EXPECT_TRUE(seen.insert(sym.index).second) << "p " << p << " k " << k;
          EXPECT_EQ(m, layout.member_at(s, layout.position(m, s)));
        }
        EXPECT_EQ(p - k, static_cast<int>(data.size()));
        EXPECT_EQ(k, static_cast<int>(checks.size()));
      }
    }
}

TEST(StripeLayout, XorPutsDataChunkTInStripeRankMinusOneMinusT) {
  StripeLayout layout(5, 1);
  for (int m = 0; m < 5; ++m)
    for (int t = 0; t < 4; ++t) {
      int stripe = ((m - 1 - t) % 5 + 5) % 5;
      Symbol sym = layout.symbol_of(m, stripe);
      EXPECT_EQ(Symbol::Kind::data, sym.kind);
      EXPECT_EQ(t, sym.index);
    }
}

TEST(ChunkSize, HoldsTheLargestFileInAlignedChunks) {
  for (uint64_t largest : {0ull, 1ull, 63ull, 64ull, 65ull, 1000ull, 1ull << 20, (1ull << 20) + 3})
    for (int n = 1; n <= 8; ++n) {
      uint64_t chunk = scr::redset::chunk_size(largest, n);
      EXPECT_EQ(0u, chunk % scr::redset::kSymbolAlign);
      EXPECT_GE(chunk * n, largest);
      EXPECT_LT(chunk * n, largest + n * scr::redset::kSymbolAlign);
    }
}

TEST(Pieces, CoverTheChunkExactly) {
  for (uint64_t chunk : {0ull, 64ull, 4096ull, 4160ull, 100000ull * 64})
    for (size_t piece : {size_t{1}, size_t{100}, size_t{4096}, size_t{1} << 20}) {
      Pieces pieces(chunk, piece);
      EXPECT_EQ(0u, pieces.size() % scr::redset::kSymbolAlign);
      uint64_t covered = 0;
      for (uint64_t q = 0; q < pieces.count(); ++q) {
        EXPECT_EQ(covered, pieces.offset(q));
        EXPECT_GT(pieces.length(q), 0u);
        covered += pieces.length(q);
      }
      EXPECT_EQ(chunk, covered);
    }
}

TEST(RsJobs, EncodeGathersDataAtTheFirstHolder) {
  for (int p = 2; p <= 8; ++p)
    for (int k = 1; k < p; ++k) {
      StripeLayout layout(p, k);
      auto jobs = scr::redset::encode_jobs(p, k);
      ASSERT_EQ(p, static_cast<int>(jobs.size()));
      for (int s = 0; s < p; ++s) {
        EXPECT_EQ(s, jobs[s].gatherer);
        EXPECT_EQ(p - k, static_cast<int>(jobs[s].sources.size()));
        ASSERT_EQ(k, static_cast<int>(jobs[s].outputs.size()));
        for (auto& src : jobs[s].sources) EXPECT_EQ(Symbol::Kind::data, src.symbol.kind);
        for (int j = 0; j < k; ++j) EXPECT_EQ(layout.member_at(s, j), jobs[s].outputs[j].member);
      }
    }
}

// Every subset of at most k lost members: gatherers and sources are
// survivors, outputs are exactly the lost members' symbols, and no survivor
// gathers more than its share of stripes.
TEST(RsJobs, RebuildUsesSurvivorsOnlyAndSpreadsTheWork) {
  for (int p = 2; p <= 8; ++p)
    for (int k = 1; k < p; ++k)
      for (unsigned mask = 1; mask < (1u << p); ++mask) {
        std::vector<int> lost;
        for (int m = 0; m < p; ++m)
          if (mask & (1u << m)) lost.push_back(m);
        if (static_cast<int>(lost.size()) > k) continue;
        auto jobs = scr::redset::rebuild_jobs(p, k, lost);
        ASSERT_TRUE(jobs.ok()) << jobs.status().to_string();
        auto is_lost = [&](int m) { return std::count(lost.begin(), lost.end(), m) > 0; };
        std::map<int, int> gathered;
        for (int s = 0; s < p; ++s) {
          const auto& job = (*jobs)[s];
          EXPECT_FALSE(is_lost(job.gatherer));
          ++gathered[job.gatherer];
          EXPECT_EQ(p - k, static_cast<int>(job.sources.size()));
          for (auto& src : job.sources) EXPECT_FALSE(is_lost(src.member));
          ASSERT_EQ(lost.size(), job.outputs.size());
          for (size_t i = 0; i < lost.size(); ++i) EXPECT_EQ(lost[i], job.outputs[i].member);
        }
        int survivors = p - static_cast<int>(lost.size());
        for (auto& [member, count] : gathered) EXPECT_LE(count, (p + survivors - 1) / survivors);
      }
}

}  // namespace
