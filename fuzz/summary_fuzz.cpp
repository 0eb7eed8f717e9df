// libFuzzer target for the flush summary's codec (runtime/prefix/summary.hpp,
// docs/formats/prefix.md#summaryscr), the one reader of summary.scr files
// that a fetch, a restart at another size, the prefix window and the tools
// trust. The input is a metadata tree payload (its CRC computed here, so the
// fuzzer reaches the tree's shape rather than forging checksums).
// rt::Summary::parse must reject a tree with Errc::corrupt and a message, or
// accept one whose every writer entry then reads back cleanly: a positive
// writer count, a descriptor with ID and NAME, file lists that match their
// FILES counts, redundancy names that are plain names. A summary re-parsed
// from its own tree must be the same. Any mismatch aborts.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>

#include "common/crc32c.hpp"
#include "fuzz_checks.hpp"
#include "kvtree/codec.hpp"
#include "runtime/prefix/summary.hpp"

namespace {

[[noreturn]] void fail(const char* what) { scr::fuzz::fail("summary_fuzz", what); }

void check_rejection(const scr::Status& st) { scr::fuzz::check_refusal("summary_fuzz", st, scr::Errc::corrupt); }

void check_summary(const scr::rt::Summary& s) {
  if (s.writers() <= 0) fail("accepted a summary without writers");
  if (!s.desc().has("ID") || !s.desc().has("NAME")) fail("accepted a summary without descriptor");
  for (int r = 0; r < s.writers(); ++r) {
    auto files = scr::rt::summary_files(s.rank(r));
    if (!files.ok()) fail("accepted a writer entry whose file list does not read");
    auto red = scr::rt::summary_redundancy(s.rank(r));
    if (!red.ok()) fail("accepted a writer entry whose redundancy list does not read");
    for (const auto& f : *red)
      if (f.name.empty() || f.name.find('/') != std::string::npos || f.name == "." || f.name == "..")
        fail("accepted a redundancy file name that is not a plain name");
  }
  auto again = scr::rt::Summary::parse(s.tree(), "again");
  if (!again.ok()) fail("a summary's own tree does not parse again");
  if (again->writers() != s.writers() || again->id() != s.id()) fail("a summary changed across parses");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto bytes = std::as_bytes(std::span(data, size));
  // A whole file as it lies in the prefix, and a bare payload.
  for (auto tree : {scr::kv::decode(bytes), scr::kv::decode_payload(bytes, scr::crc32c(data, size))}) {
    if (!tree.ok()) continue;
    auto summary = scr::rt::Summary::parse(std::move(tree).value(), "fuzz input");
    if (summary.ok()) check_summary(*summary);
    else check_rejection(summary.status());
  }
  return 0;
}
