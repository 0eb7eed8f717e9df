#include "kvtree/codec.hpp"

#include <cstring>

#include "common/crc32c.hpp"
#include "kvtree/file_list.hpp"

namespace scr::kv {
namespace {

void put_u16(std::string& out, uint16_t v) {
  for (int i = 0; i < 2; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
void put_u32(std::string& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
void put_u64(std::string& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
uint64_t get_le(const std::byte* p, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; ++i) v |= static_cast<uint64_t>(p[i]) << (8 * i);
  return v;
}

void encode_node(const Tree& t, std::string& out) {
  put_u32(out, static_cast<uint32_t>(t.size()));
  for (const auto& [key, child] : t.children()) {
    put_u32(out, static_cast<uint32_t>(key.size()));
    out.append(key);
    encode_node(*child, out);
  }
}

class Reader {
 public:
  explicit Reader(std::span<const std::byte> data) : data_(data) {}
  size_t remaining() const { return data_.size() - pos_; }
  Result<uint32_t> u32() {
    if (remaining() < 4) return truncated();
    auto v = static_cast<uint32_t>(get_le(data_.data() + pos_, 4));
    pos_ += 4;
    return v;
  }
  Result<std::string> bytes(size_t n) {
    if (remaining() < n) return truncated();
    std::string s(reinterpret_cast<const char*>(data_.data() + pos_), n);
    pos_ += n;
    return s;
  }
  size_t pos() const { return pos_; }

 private:
  Status truncated() const {
    return Error(Errc::corrupt, "metadata tree payload is truncated at byte " + std::to_string(pos_));
  }
  std::span<const std::byte> data_;
  size_t pos_ = 0;
};

Status decode_node(Reader& r, Tree& t, int depth) {
  if (depth > kMaxDepth) return Error(Errc::corrupt, "metadata tree nests deeper than 64 levels");
  SCR_ASSIGN_OR_RETURN(uint32_t count, r.u32());
  // Each child needs at least 8 bytes (key length + child count).
  if (count > r.remaining() / 8)
    return Error(Errc::corrupt, "metadata tree claims " + std::to_string(count) +
                                    " children but only " + std::to_string(r.remaining()) +
                                    " bytes remain");
  std::string prev;
  for (uint32_t i = 0; i < count; ++i) {
    SCR_ASSIGN_OR_RETURN(uint32_t klen, r.u32());
    SCR_ASSIGN_OR_RETURN(std::string key, r.bytes(klen));
    // The encoder writes keys sorted and unique; anything else was altered.
    if (i > 0 && !(prev < key))
      return Error(Errc::corrupt, "metadata tree keys out of order at byte " + std::to_string(r.pos()));
    Tree& child = t.child(key);
    SCR_TRY(decode_node(r, child, depth + 1));
    prev = std::move(key);
  }
  return Status::Ok();
}

}  // namespace

std::string encode(const Tree& tree) {
  std::string payload;
  encode_node(tree, payload);
  std::string out;
  out.reserve(kEnvelopeSize + payload.size());
  put_u32(out, kMagic);
  put_u16(out, kVersion);
  put_u16(out, 0);
  put_u64(out, payload.size());
  put_u32(out, crc32c(payload.data(), payload.size()));
  put_u32(out, crc32c(out.data(), out.size()));
  out.append(payload);
  return out;
}

Result<uint64_t> decode_envelope(std::span<const std::byte> env) {
  if (env.size() < kEnvelopeSize)
    return Error(Errc::corrupt, "metadata tree is truncated: " + std::to_string(env.size()) +
                                    " bytes, the header alone needs " +
                                    std::to_string(kEnvelopeSize));
  if (get_le(env.data(), 4) != kMagic)
    return Error(Errc::corrupt, "not an SCR++ metadata tree (bad magic)");
  auto version = static_cast<uint16_t>(get_le(env.data() + 4, 2));
  if (version != kVersion)
    return Error(Errc::corrupt, "metadata tree version " + std::to_string(version) +
                                    " is not supported (expected " + std::to_string(kVersion) + ")");
  auto header_crc = static_cast<uint32_t>(get_le(env.data() + 20, 4));
  if (crc32c(env.data(), 20) != header_crc)
    return Error(Errc::corrupt, "metadata tree header checksum mismatch");
  // Reserved must be zero: with it pinned, a decodable encoding is exactly
  // what encode() produces for its tree (no second spelling of one tree).
  if (get_le(env.data() + 6, 2) != 0)
    return Error(Errc::corrupt, "metadata tree header has a non-zero reserved field");
  uint64_t len = get_le(env.data() + 8, 8);
  if (len > kMaxPayload) return Error(Errc::corrupt, "metadata tree length is implausible");
  return len;
}

uint32_t envelope_payload_crc(std::span<const std::byte> env) {
  return static_cast<uint32_t>(get_le(env.data() + 16, 4));
}

Result<Tree> decode_payload(std::span<const std::byte> payload, uint32_t expected_crc) {
  if (crc32c(payload.data(), payload.size()) != expected_crc)
    return Error(Errc::corrupt, "metadata tree checksum mismatch (data altered)");
  Reader r(payload);
  Tree t;
  SCR_TRY(decode_node(r, t, 0));
  if (r.remaining() != 0)
    return Error(Errc::corrupt, "metadata tree payload has " + std::to_string(r.remaining()) +
                                    " unexpected trailing bytes");
  return t;
}

Result<Tree> decode(std::span<const std::byte> bytes, bool allow_trailing) {
  SCR_ASSIGN_OR_RETURN(uint64_t len, decode_envelope(bytes));
  uint64_t have = bytes.size() - kEnvelopeSize;
  if (have < len)
    return Error(Errc::corrupt, "metadata tree is truncated: payload needs " + std::to_string(len) +
                                    " bytes, " + std::to_string(have) + " present");
  if (have > len && !allow_trailing)
    return Error(Errc::corrupt, "metadata tree has " + std::to_string(have - len) +
                                    " bytes after its end");
  return decode_payload(bytes.subspan(kEnvelopeSize, len), envelope_payload_crc(bytes));
}

namespace {
void text_node(const Tree& t, int indent, std::string& out) {
  std::string pad(static_cast<size_t>(indent), ' ');
  for (const auto& [key, child] : t.children()) {
    // A key whose only child is a leaf prints as KEY = VALUE.
    if (child->size() == 1 && child->children().begin()->second->empty()) {
      const std::string& value = child->children().begin()->first;
      // A file list is binary: shown as its records instead.
      if (auto files = decode_file_list(value); files.ok())
        out += pad + key + " (" + std::to_string(files->size()) + (files->size() == 1 ? " file)\n" : " files)\n") +
               file_list_text(*files, indent + 2);
      else
        out += pad + key + " = " + value + "\n";
    } else {
      out += pad + key + "\n";
      text_node(*child, indent + 2, out);
    }
  }
}
}  // namespace

std::string to_text(const Tree& tree, int indent) {
  std::string out;
  text_node(tree, indent, out);
  return out;
}

}  // namespace scr::kv
