// Runs a libFuzzer target without libFuzzer, in every CI build: each seed in
// the corpus directories given on the command line, then a fixed number of
// deterministic mutations of each (bit flips, byte changes, truncations,
// duplicated spans). The targets abort on any broken invariant, so a parser
// regression fails this test even where clang and libFuzzer are absent.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

std::vector<uint8_t> read_all(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<uint8_t> mutate(std::vector<uint8_t> in, std::mt19937& rng) {
  auto pick = [&](size_t n) { return n == 0 ? 0 : static_cast<size_t>(rng() % n); };
  switch (rng() % 5) {
    case 0:
      if (!in.empty()) in[pick(in.size())] ^= static_cast<uint8_t>(1u << (rng() % 8));
      break;
    case 1:
      if (!in.empty()) in[pick(in.size())] = static_cast<uint8_t>(rng());
      break;
    case 2:
      in.resize(pick(in.size() + 1));
      break;
    case 3: {
      if (in.empty()) break;
      size_t a = pick(in.size()), n = 1 + pick(std::min<size_t>(16, in.size() - a));
      std::vector<uint8_t> span(in.begin() + static_cast<long>(a), in.begin() + static_cast<long>(a + n));
      in.insert(in.begin() + static_cast<long>(pick(in.size() + 1)), span.begin(), span.end());
      break;
    }
    default:
      in.insert(in.begin() + static_cast<long>(pick(in.size() + 1)), static_cast<uint8_t>(rng()));
  }
  return in;
}

}  // namespace

int main(int argc, char** argv) {
  const int kMutations = 40000;
  size_t seeds = 0, runs = 0;
  std::mt19937 rng(20261121);
  for (int i = 1; i < argc; ++i) {
    for (const auto& entry : std::filesystem::directory_iterator(argv[i])) {
      if (!entry.is_regular_file()) continue;
      std::vector<uint8_t> seed = read_all(entry.path());
      ++seeds;
      LLVMFuzzerTestOneInput(seed.data(), seed.size());
      std::vector<uint8_t> cur = seed;
      for (int m = 0; m < kMutations; ++m) {
        cur = mutate(m % 8 == 0 ? seed : cur, rng);
        LLVMFuzzerTestOneInput(cur.data(), cur.size());
        ++runs;
      }
    }
  }
  if (seeds == 0) {
    std::fprintf(stderr, "no seed inputs found\n");
    return 1;
  }
  std::printf("%zu seeds, %zu mutated inputs: no failure\n", seeds, runs);
  return 0;
}
