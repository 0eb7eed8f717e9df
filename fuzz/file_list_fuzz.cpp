// libFuzzer target for the compact file list (docs/formats/kvtree.md#file-lists):
// kv::decode_file_list must reject the input with Errc::corrupt and a message,
// or return records that survive encode/decode unchanged and print as text;
// kv::with_file_list_crcs must refuse exactly what decode refuses, and
// otherwise equal a decode, a change of every checksum and an encode.
// Any mismatch aborts, which libFuzzer reports as a crash.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "kvtree/file_list.hpp"
#include "fuzz_checks.hpp"

namespace {

[[noreturn]] void fail(const char* what) { scr::fuzz::fail("file_list_fuzz", what); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  auto files = scr::kv::decode_file_list(input);
  if (!files.ok()) {
    scr::fuzz::check_refusal("file_list_fuzz", files.status(), scr::Errc::corrupt);
    for (size_t n = 0; n < 3; ++n)
      if (scr::kv::with_file_list_crcs(input, std::vector<uint32_t>(n, 7)).ok())
        fail("a list decode refuses got its checksums rewritten");
    return 0;
  }
  std::vector<uint32_t> crcs;
  for (size_t i = 0; i < files->size(); ++i) crcs.push_back(static_cast<uint32_t>(i * 2654435761u));
  auto with = scr::kv::with_file_list_crcs(input, crcs);
  if (!with.ok()) fail("checksums of a list that decodes were not rewritten");
  auto expected = *files;
  for (size_t i = 0; i < expected.size(); ++i) expected[i].crc = crcs[i];
  auto rewritten = scr::kv::decode_file_list(*with);
  if (!rewritten.ok() || *rewritten != expected) fail("rewritten checksums differ from decode, change, encode");
  for (const auto& f : *files)
    if (f.name.empty() || f.name.size() > scr::kv::kMaxRecordName) fail("a decoded name is out of bounds");
  auto back = scr::kv::decode_file_list(scr::kv::encode_file_list(*files));
  if (!back.ok()) fail("re-encoded list does not decode");
  if (*back != *files) fail("list changed across encode/decode");
  (void)scr::kv::file_list_text(*files, 2);
  return 0;
}
