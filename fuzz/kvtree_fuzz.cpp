// libFuzzer target for the metadata tree codec (docs/formats/kvtree.md).
//
// Three views of each input:
//  1. the whole input as an encoding: kv::decode must reject it cleanly or
//     return a tree whose encoding is byte-for-byte the input (the format has
//     exactly one encoding per tree: sorted unique keys, reserved field 0);
//  2. the same with trailing bytes allowed: the re-encoding must be a prefix;
//  3. the input as a bare payload with its CRC computed here, so the fuzzer
//     reaches the node parser without having to forge checksums.
// Any mismatch aborts, which libFuzzer reports as a crash.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>

#include "common/crc32c.hpp"
#include "common/status.hpp"
#include "kvtree/codec.hpp"
#include "fuzz_checks.hpp"

namespace {

[[noreturn]] void fail(const char* what) { scr::fuzz::fail("kvtree_fuzz", what); }

void check_rejection(const scr::Status& st) { scr::fuzz::check_refusal("kvtree_fuzz", st, scr::Errc::corrupt); }

void check_tree(const scr::kv::Tree& tree) {
  std::string again = scr::kv::encode(tree);
  auto back = scr::kv::decode(again);
  if (!back.ok()) fail("re-encoded tree does not decode");
  if (*back != tree) fail("tree changed across encode/decode");
  (void)scr::kv::to_text(tree);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto bytes = std::as_bytes(std::span(data, size));
  const std::string input(reinterpret_cast<const char*>(data), size);

  auto whole = scr::kv::decode(bytes);
  if (whole.ok()) {
    if (scr::kv::encode(*whole) != input) fail("decoded input is not the canonical encoding");
    check_tree(*whole);
  } else {
    check_rejection(whole.status());
  }

  auto prefix = scr::kv::decode(bytes, /*allow_trailing=*/true);
  if (prefix.ok()) {
    std::string enc = scr::kv::encode(*prefix);
    if (input.compare(0, enc.size(), enc) != 0) fail("trailing decode is not a prefix encoding");
    if (whole.ok() && *whole != *prefix) fail("trailing decode disagrees with strict decode");
  } else {
    check_rejection(prefix.status());
    if (whole.ok()) fail("strict decode accepted what trailing decode rejected");
  }

  auto payload = scr::kv::decode_payload(bytes, scr::crc32c(data, size));
  if (payload.ok()) {
    std::string enc = scr::kv::encode(*payload);
    if (enc.compare(scr::kv::kEnvelopeSize, std::string::npos, input) != 0)
      fail("decoded payload is not the canonical payload");
    check_tree(*payload);
  } else {
    check_rejection(payload.status());
  }
  return 0;
}
