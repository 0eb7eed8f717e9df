// Binary and text forms of a Tree. The byte layout is documented in
// docs/formats/kvtree.md; keep the two in step.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "common/status.hpp"
#include "kvtree/tree.hpp"

namespace scr::kv {

// Fixed-size envelope in front of every encoded tree.
inline constexpr size_t kEnvelopeSize = 24;
inline constexpr uint32_t kMagic = 0x54524353;  // "SCRT" little-endian
inline constexpr uint16_t kVersion = 1;
// Parser limits: a hostile or damaged file cannot make us recurse or allocate
// without bound.
inline constexpr int kMaxDepth = 64;
inline constexpr uint64_t kMaxPayload = 1ull << 32;

// Tree -> envelope + payload.
std::string encode(const Tree& tree);

// Validates the envelope (magic, version, header CRC) and returns the payload
// length that follows it.
Result<uint64_t> decode_envelope(std::span<const std::byte> envelope);

// Full decode of envelope + payload; `bytes` must hold exactly one encoding
// (trailing bytes are an error unless allow_trailing is set).
Result<Tree> decode(std::span<const std::byte> bytes, bool allow_trailing = false);
inline Result<Tree> decode(const std::string& bytes, bool allow_trailing = false) {
  return decode(std::as_bytes(std::span(bytes.data(), bytes.size())), allow_trailing);
}

// Decode a payload whose envelope was already checked, verifying its CRC.
Result<Tree> decode_payload(std::span<const std::byte> payload, uint32_t expected_crc);
// The payload CRC stored in a validated envelope.
uint32_t envelope_payload_crc(std::span<const std::byte> envelope);

// Indented text form, as scr_inspect prints headers (docs/formats/kvtree.md):
//   CHUNK = 2446678
//   DESC
//     0
//       ...
std::string to_text(const Tree& tree, int indent = 0);

}  // namespace scr::kv
