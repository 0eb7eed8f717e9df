#include "kvtree/veloc_file.hpp"

#include <cstring>

#include "common/crc32.hpp"
#include "kvtree/codec.hpp"

namespace scr::kv::veloc {
namespace {

constexpr uint16_t kType = 1;
constexpr uint16_t kVersion = 1;
constexpr uint32_t kFlagCrc = 0x1;

Status corrupt(const std::string& why) { return Error(Errc::corrupt, "KVTree file: " + why); }

// Bounds-checked big-endian reader over the file's bytes.
class Reader {
 public:
  explicit Reader(std::span<const std::byte> b) : b_(b) {}
  size_t left() const { return b_.size() - at_; }
  size_t at() const { return at_; }
  template <class T>
  Result<T> number(const char* what) {
    if (left() < sizeof(T)) return corrupt(std::string("truncated ") + what);
    T v = 0;
    for (size_t i = 0; i < sizeof(T); ++i) v = static_cast<T>((v << 8) | std::to_integer<uint8_t>(b_[at_ + i]));
    at_ += sizeof(T);
    return v;
  }
  Result<std::string> key() {
    const auto* start = reinterpret_cast<const char*>(b_.data()) + at_;
    const void* nul = std::memchr(start, 0, left());
    if (!nul) return corrupt("a key runs past the end of the tree");
    std::string k(start, static_cast<const char*>(nul));
    at_ += k.size() + 1;
    return k;
  }

 private:
  std::span<const std::byte> b_;
  size_t at_ = 0;
};

// One level: its children's count, then each child's key and subtree. A
// repeated key merges, as KVTree's reader merges what it unpacks.
Status read_tree(Reader& in, Tree& out, int depth) {
  if (depth > kMaxDepth) return corrupt("nested deeper than " + std::to_string(kMaxDepth) + " levels");
  SCR_ASSIGN_OR_RETURN(uint32_t count, in.number<uint32_t>("child count"));
  // Each child takes at least its NUL and its own count: a count the bytes
  // cannot hold is refused before anything is built.
  if (count > in.left() / 5) return corrupt("a child count of " + std::to_string(count) + " exceeds the file");
  for (uint32_t i = 0; i < count; ++i) {
    SCR_ASSIGN_OR_RETURN(std::string key, in.key());
    Tree sub;
    SCR_TRY(read_tree(in, sub, depth + 1));
    Tree& slot = out.child(key);
    if (slot.empty()) slot = std::move(sub);
    else slot.merge(sub);
  }
  return Status::Ok();
}

void put_be(std::string& out, uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

void write_tree(std::string& out, const Tree& t) {
  put_be(out, t.size(), 4);
  for (const auto& [key, sub] : t.children()) {
    out.append(key);
    out.push_back('\0');
    write_tree(out, *sub);
  }
}

}  // namespace

bool looks_like(std::span<const std::byte> bytes) {
  if (bytes.empty()) return true;
  Reader in(bytes);
  auto magic = in.number<uint32_t>("magic");
  return magic.ok() && *magic == kMagic;
}

Result<Tree> decode(std::span<const std::byte> bytes) {
  if (bytes.empty()) return Tree();
  Reader in(bytes);
  SCR_ASSIGN_OR_RETURN(uint32_t magic, in.number<uint32_t>("header"));
  if (magic != kMagic) return corrupt("bad magic number");
  SCR_ASSIGN_OR_RETURN(uint16_t type, in.number<uint16_t>("header"));
  SCR_ASSIGN_OR_RETURN(uint16_t version, in.number<uint16_t>("header"));
  if (type != kType || version != kVersion)
    return corrupt("type " + std::to_string(type) + " version " + std::to_string(version) + " is not a tree file");
  SCR_ASSIGN_OR_RETURN(uint64_t size, in.number<uint64_t>("header"));
  SCR_ASSIGN_OR_RETURN(uint32_t flags, in.number<uint32_t>("header"));
  if (size != bytes.size())
    return corrupt("its header gives " + std::to_string(size) + " bytes, the file has " + std::to_string(bytes.size()));
  size_t tree_end = bytes.size();
  if (flags & kFlagCrc) {
    if (bytes.size() < kHeaderSize + 4) return corrupt("truncated checksum");
    tree_end -= 4;
    Reader tail(bytes.subspan(tree_end));
    uint32_t stored = *tail.number<uint32_t>("checksum");
    if (crc32(bytes.data(), tree_end) != stored) return corrupt("checksum mismatch (the file was changed or damaged)");
  }
  Reader tree_in(bytes.subspan(kHeaderSize, tree_end - kHeaderSize));
  Tree out;
  SCR_TRY(read_tree(tree_in, out, 0));
  if (tree_in.left() != 0) return corrupt(std::to_string(tree_in.left()) + " bytes follow the tree");
  return out;
}

std::string encode(const Tree& tree) {
  std::string body;
  write_tree(body, tree);
  std::string out;
  out.reserve(kHeaderSize + body.size() + 4);
  put_be(out, kMagic, 4);
  put_be(out, kType, 2);
  put_be(out, kVersion, 2);
  put_be(out, kHeaderSize + body.size() + 4, 8);
  put_be(out, kFlagCrc, 4);
  out += body;
  put_be(out, crc32(out.data(), out.size()), 4);
  return out;
}

}  // namespace scr::kv::veloc
