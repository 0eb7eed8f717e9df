// libFuzzer target for the compact file list (docs/formats/kvtree.md#file-lists):
// kv::decode_file_list must reject the input with Errc::corrupt and a message,
// or return records that survive encode/decode unchanged and print as text;
// kv::with_file_list_crcs must refuse exactly what decode refuses (also when
// given as many checksums as the header claims records, so that its record
// scanner is what refuses), and otherwise decode to what a decode, a change
// of every checksum and an encode give.
// Any mismatch aborts, which libFuzzer reports as a crash.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string_view>
#include <vector>

#include "kvtree/file_list.hpp"
#include "fuzz_checks.hpp"

namespace {

[[noreturn]] void fail(const char* what) { scr::fuzz::fail("file_list_fuzz", what); }

// The record count a list's header claims ("SCFL", version, varint), when it
// is small enough to hand over that many checksums.
std::optional<size_t> header_count(std::string_view in) {
  if (in.size() < 6 || in.substr(0, 4) != "SCFL") return std::nullopt;
  uint64_t v = 0;
  for (size_t i = 5, shift = 0; i < in.size() && shift < 64; ++i, shift += 7) {
    v |= static_cast<uint64_t>(static_cast<uint8_t>(in[i]) & 0x7f) << shift;
    if (!(static_cast<uint8_t>(in[i]) & 0x80)) return v <= in.size() ? std::optional<size_t>(v) : std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  auto files = scr::kv::decode_file_list(input);
  if (!files.ok()) {
    scr::fuzz::check_refusal("file_list_fuzz", files.status(), scr::Errc::corrupt);
    std::vector<size_t> counts{0, 1, 2};
    if (auto claimed = header_count(input)) counts.push_back(*claimed);
    for (size_t n : counts)
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
