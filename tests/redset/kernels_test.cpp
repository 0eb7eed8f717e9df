// The ISA-L backed kernels against the plain reference versions: random data,
// every length class (empty, sub-vector, unaligned tails), misaligned
// pointers, random erasure lists.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "redset/kernels/gf256.hpp"
#include "redset/kernels/reference.hpp"
#include "redset/kernels/xor.hpp"

namespace {

namespace k = scr::redset::kernels;
namespace ref = scr::redset::kernels::reference;
using Bytes = std::vector<uint8_t>;

const size_t kLengths[] = {0, 1, 15, 31, 32, 33, 63, 64, 65, 127, 1000, 4096, 4099};
const size_t kShifts[] = {0, 1, 8, 16, 32};

Bytes random_bytes(std::mt19937& rng, size_t n) {
  Bytes b(n);
  for (auto& v : b) v = static_cast<uint8_t>(rng());
  return b;
}

k::GfMatrix random_matrix(std::mt19937& rng, int rows, int cols) {
  k::GfMatrix m(rows, cols);
  for (auto& v : m.v) v = static_cast<uint8_t>(rng());
  return m;
}

TEST(XorKernel, MatchesReferenceForAnyCountLengthAndAlignment) {
  std::mt19937 rng(11);
  for (int n = 0; n <= 9; ++n)
    for (size_t len : kLengths)
      for (size_t shift : kShifts) {
        std::vector<Bytes> store;
        std::vector<const uint8_t*> srcs;
        for (int i = 0; i < n; ++i) store.push_back(random_bytes(rng, len + 64));
        for (auto& s : store) srcs.push_back(s.data() + shift);
        Bytes want(len + 64, 0xEE), got(len + 64, 0xEE);
        ref::xor_gen(want.data() + shift, srcs, len);
        k::xor_gen(got.data() + shift, srcs, len);
        ASSERT_EQ(want, got) << "sources " << n << " length " << len << " shift " << shift;
      }
}

TEST(XorKernel, AccumulatesInPlace) {
  std::mt19937 rng(12);
  for (size_t len : kLengths)
    for (size_t shift : kShifts) {
      Bytes acc = random_bytes(rng, len + 64), add = random_bytes(rng, len + 64);
      Bytes want = acc;
      for (size_t i = 0; i < len; ++i) want[shift + i] ^= add[shift + i];
      k::xor_into(acc.data() + shift, add.data() + shift, len);
      ASSERT_EQ(want, acc) << "length " << len << " shift " << shift;
    }
}

TEST(GfKernel, FieldArithmeticMatchesReference) {
  for (int a = 0; a < 256; ++a)
    for (int b = 0; b < 256; ++b) ASSERT_EQ(ref::gf_mul(a, b), k::gf_mul(a, b)) << a << " * " << b;
  for (int a = 1; a < 256; ++a) {
    ASSERT_EQ(ref::gf_inv(a), k::gf_inv(a)) << a;
    ASSERT_EQ(1, k::gf_mul(a, k::gf_inv(a))) << a;
  }
}

TEST(GfKernel, InverseMatchesReferenceAndDetectsSingular) {
  std::mt19937 rng(13);
  for (int trial = 0; trial < 300; ++trial) {
    int n = 1 + trial % 12;
    k::GfMatrix m = random_matrix(rng, n, n);
    bool singular = trial % 7 == 0 && n > 1;
    if (singular) std::copy_n(&m.v[0], n, &m.v[n]);  // row 1 repeats row 0
    auto want = ref::invert(m);
    auto got = k::invert(m);
    ASSERT_EQ(want.has_value(), got.ok()) << "trial " << trial;
    if (singular) {
      EXPECT_FALSE(got.ok());
    }
    if (!want) continue;
    EXPECT_EQ(*want, *got);
    k::GfMatrix identity(n, n);
    for (int i = 0; i < n; ++i) identity.at(i, i) = 1;
    EXPECT_EQ(identity, k::multiply(m, *got));
  }
}

// Every choice of `data` rows of the generator must be invertible, or some
// loss of `checks` members could not be rebuilt.
TEST(GfKernel, CauchyGeneratorIsMaximumDistanceSeparable) {
  for (int data = 1; data <= 7; ++data)
    for (int checks = 1; checks <= 3; ++checks) {
      k::GfMatrix gen = k::cauchy_generator(data, checks);
      int total = data + checks;
      for (int i = 0; i < data; ++i)
        for (int j = 0; j < data; ++j) ASSERT_EQ(i == j ? 1 : 0, gen.at(i, j));
      std::vector<bool> pick(static_cast<size_t>(total), false);
      std::fill(pick.begin(), pick.begin() + data, true);
      do {
        std::vector<int> rows;
        for (int r = 0; r < total; ++r)
          if (pick[static_cast<size_t>(r)]) rows.push_back(r);
        ASSERT_TRUE(ref::invert(k::select_rows(gen, rows)).has_value())
            << "data " << data << " checks " << checks;
      } while (std::prev_permutation(pick.begin(), pick.end()));
    }
}

TEST(GfKernel, EncodeAndUpdateMatchReference) {
  std::mt19937 rng(14);
  for (size_t len : kLengths)
    for (size_t shift : kShifts) {
      int rows = 1 + static_cast<int>(rng() % 4), cols = 1 + static_cast<int>(rng() % 9);
      k::GfMatrix coef = random_matrix(rng, rows, cols);
      std::vector<Bytes> in;
      std::vector<const uint8_t*> srcs;
      for (int c = 0; c < cols; ++c) in.push_back(random_bytes(rng, len + 64));
      for (auto& b : in) srcs.push_back(b.data() + shift);
      std::vector<Bytes> want(rows, Bytes(len + 64, 0)), got = want, updated = want;
      auto ptrs = [&](std::vector<Bytes>& v) {
        std::vector<uint8_t*> p;
        for (auto& b : v) p.push_back(b.data() + shift);
        return p;
      };
      ref::encode(coef, srcs, ptrs(want), len);
      k::GfTables tables(coef);
      tables.encode(srcs, ptrs(got), len);
      for (int c = 0; c < cols; ++c) tables.update(c, srcs[c], ptrs(updated), len);
      ASSERT_EQ(want, got) << "length " << len << " shift " << shift;
      ASSERT_EQ(want, updated) << "length " << len << " shift " << shift;
    }
}

// Encode data blocks, erase up to `checks` random blocks (data or check),
// solve for them from `data` survivors and compare with what was erased.
TEST(GfKernel, DecodeRecoversRandomErasures) {
  std::mt19937 rng(15);
  const size_t len = 1031;
  for (int trial = 0; trial < 400; ++trial) {
    int data = 1 + static_cast<int>(rng() % 12), checks = 1 + static_cast<int>(rng() % 4);
    int total = data + checks;
    k::GfMatrix gen = k::cauchy_generator(data, checks);
    std::vector<Bytes> blocks;
    for (int d = 0; d < data; ++d) blocks.push_back(random_bytes(rng, len));
    std::vector<const uint8_t*> data_ptrs;
    for (auto& b : blocks) data_ptrs.push_back(b.data());
    for (int c = 0; c < checks; ++c) blocks.emplace_back(len);
    std::vector<uint8_t*> check_ptrs;
    for (int c = 0; c < checks; ++c) check_ptrs.push_back(blocks[data + c].data());
    std::vector<int> check_rows(checks);
    std::iota(check_rows.begin(), check_rows.end(), data);
    k::GfTables(k::select_rows(gen, check_rows)).encode(data_ptrs, check_ptrs, len);

    std::vector<int> order(total);
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), rng);
    int lost = 1 + static_cast<int>(rng() % checks);
    std::vector<int> wanted(order.begin(), order.begin() + lost);
    std::vector<int> known(order.begin() + lost, order.begin() + lost + data);

    auto coef = k::solve_for(gen, known, wanted);
    ASSERT_TRUE(coef.ok()) << coef.status().to_string();
    auto known_inverse = ref::invert(k::select_rows(gen, known));
    ASSERT_TRUE(known_inverse.has_value());
    EXPECT_EQ(k::multiply(k::select_rows(gen, wanted), *known_inverse), *coef);

    std::vector<const uint8_t*> srcs;
    for (int r : known) srcs.push_back(blocks[r].data());
    std::vector<Bytes> rebuilt(lost, Bytes(len));
    std::vector<uint8_t*> outs;
    for (auto& b : rebuilt) outs.push_back(b.data());
    k::GfTables(*coef).encode(srcs, outs, len);
    for (int i = 0; i < lost; ++i)
      ASSERT_EQ(blocks[wanted[i]], rebuilt[i]) << "trial " << trial << " block " << wanted[i];
  }
}

}  // namespace
