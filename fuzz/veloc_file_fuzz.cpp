// libFuzzer target for KVTree's file format, as SCR 3.1 writes its metadata
// (src/kvtree/veloc_file.hpp, docs/formats/scr31.md).
//
// Two views of each input:
//  1. the input as a file: decode must refuse it as corrupt, or return a tree
//     that encode() writes and decode() reads back unchanged;
//  2. the input as a tree body, wrapped here in a valid header and checksum,
//     so the fuzzer reaches the tree parser without forging CRCs.
#include <cstddef>
#include <cstdint>
#include <string>

#include "common/crc32.hpp"
#include "common/status.hpp"
#include "fuzz_checks.hpp"
#include "kvtree/veloc_file.hpp"

namespace {

[[noreturn]] void fail(const char* what) { scr::fuzz::fail("veloc_file_fuzz", what); }

void check(const scr::Result<scr::kv::Tree>& t) {
  if (!t.ok()) {
    scr::fuzz::check_refusal("veloc_file_fuzz", t.status(), scr::Errc::corrupt);
    return;
  }
  auto back = scr::kv::veloc::decode(scr::kv::veloc::encode(*t));
  if (!back.ok()) fail("an encoded tree does not decode");
  if (*back != *t) fail("a tree changed across encode/decode");
}

std::string be(uint64_t v, int bytes) {
  std::string out;
  for (int i = bytes - 1; i >= 0; --i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  check(scr::kv::veloc::decode(input));
  std::string file = be(scr::kv::veloc::kMagic, 4) + be(1, 2) + be(1, 2) +
                     be(scr::kv::veloc::kHeaderSize + size + 4, 8) + be(1, 4) + input;
  file += be(scr::crc32(file.data(), file.size()), 4);
  check(scr::kv::veloc::decode(file));
  return 0;
}
