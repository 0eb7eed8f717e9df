#include "kvtree/file_list.hpp"

#include <algorithm>
#include <cstdio>

namespace scr::kv {
namespace {

constexpr std::string_view kMagic = "SCFL";
constexpr uint8_t kVersion = 1;
enum : uint8_t { kHasCrc = 1, kShared = 2, kHasAttrs = 4, kKnownFlags = 7 };
// flags, shared prefix, suffix length and size take a byte each at least.
constexpr size_t kMinRecord = 4;

void put_varint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}
uint64_t zigzag(int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63); }
int64_t unzigzag(uint64_t v) { return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1); }

void put_time(std::string& out, const FileTime& t) {
  put_varint(out, zigzag(t.sec));
  put_varint(out, zigzag(t.nsec));
}

void put_attrs(std::string& out, const FileAttrs& a) {
  put_varint(out, a.mode);
  put_varint(out, a.uid);
  put_varint(out, a.gid);
  put_time(out, a.atime);
  put_time(out, a.mtime);
  put_time(out, a.ctime);
}

class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  size_t remaining() const { return in_.size() - pos_; }
  bool done() const { return pos_ == in_.size(); }
  Result<uint8_t> byte() {
    if (remaining() < 1) return truncated();
    return static_cast<uint8_t>(in_[pos_++]);
  }
  Result<uint64_t> varint() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      SCR_ASSIGN_OR_RETURN(uint8_t b, byte());
      if (shift == 63 && b > 1) return bad("a number overflows 64 bits");
      v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    return bad("a number is longer than 10 bytes");
  }
  Result<uint32_t> u32_varint(const char* what) {
    SCR_ASSIGN_OR_RETURN(uint64_t v, varint());
    if (v > UINT32_MAX) return bad(std::string(what) + " is out of range");
    return static_cast<uint32_t>(v);
  }
  Result<uint32_t> u32_le() {
    if (remaining() < 4) return truncated();
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= static_cast<uint32_t>(static_cast<uint8_t>(in_[pos_ + i])) << (8 * i);
    pos_ += 4;
    return v;
  }
  Result<FileTime> time() {
    FileTime t;
    SCR_ASSIGN_OR_RETURN(uint64_t s, varint());
    SCR_ASSIGN_OR_RETURN(uint64_t ns, varint());
    t.sec = unzigzag(s);
    t.nsec = unzigzag(ns);
    return t;
  }
  Result<std::string_view> bytes(uint64_t n) {
    if (remaining() < n) return truncated();
    std::string_view s = in_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  Status bad(const std::string& why) const {
    return Error(Errc::corrupt, "file list is malformed at byte " + std::to_string(pos_) + ": " + why);
  }

 private:
  Status truncated() const { return bad("it is truncated"); }
  std::string_view in_;
  size_t pos_ = 0;
};

Result<FileAttrs> read_attrs(Reader& r) {
  FileAttrs a;
  SCR_ASSIGN_OR_RETURN(a.mode, r.u32_varint("a mode"));
  SCR_ASSIGN_OR_RETURN(a.uid, r.u32_varint("a uid"));
  SCR_ASSIGN_OR_RETURN(a.gid, r.u32_varint("a gid"));
  SCR_ASSIGN_OR_RETURN(a.atime, r.time());
  SCR_ASSIGN_OR_RETURN(a.mtime, r.time());
  SCR_ASSIGN_OR_RETURN(a.ctime, r.time());
  return a;
}

// The magic, the version and the record count, which must fit the bytes left.
Result<uint64_t> read_header(Reader& r) {
  SCR_ASSIGN_OR_RETURN(std::string_view magic, r.bytes(kMagic.size()));
  if (magic != kMagic) return r.bad("it does not start with \"SCFL\"");
  SCR_ASSIGN_OR_RETURN(uint8_t version, r.byte());
  if (version != kVersion) return r.bad("version " + std::to_string(version) + " is not supported");
  SCR_ASSIGN_OR_RETURN(uint64_t count, r.varint());
  if (count > r.remaining() / kMinRecord) return r.bad("it claims more records than its bytes can hold");
  return count;
}

// One record; `prev` is the previous record's name (names are front-coded:
// sorted lists share long prefixes).
Result<FileRecord> read_record(Reader& r, const std::string& prev) {
  FileRecord f;
  SCR_ASSIGN_OR_RETURN(uint8_t flags, r.byte());
  if (flags & ~kKnownFlags) return r.bad("unknown record flags");
  SCR_ASSIGN_OR_RETURN(uint64_t shared, r.varint());
  SCR_ASSIGN_OR_RETURN(uint64_t suffix, r.varint());
  if (shared > prev.size()) return r.bad("a name shares more than the previous name holds");
  if (suffix > kMaxRecordName || shared + suffix > kMaxRecordName) return r.bad("a name is too long");
  if (shared + suffix == 0) return r.bad("a name is empty");
  SCR_ASSIGN_OR_RETURN(std::string_view tail, r.bytes(suffix));
  f.name.reserve(shared + suffix);
  f.name.assign(prev, 0, shared);
  f.name.append(tail);
  SCR_ASSIGN_OR_RETURN(f.size, r.varint());
  if (flags & kHasCrc) {
    SCR_ASSIGN_OR_RETURN(f.crc, r.u32_le());
  }
  f.shared = flags & kShared;
  if (flags & kHasAttrs) {
    SCR_ASSIGN_OR_RETURN(f.attrs, read_attrs(r));
  }
  return f;
}

}  // namespace

std::string encode_file_list(const std::vector<FileRecord>& files) {
  std::string out(kMagic);
  out.push_back(static_cast<char>(kVersion));
  put_varint(out, files.size());
  std::string_view prev;
  for (const auto& f : files) {
    uint8_t flags = (f.crc ? kHasCrc : 0) | (f.shared ? kShared : 0) | (f.attrs ? kHasAttrs : 0);
    out.push_back(static_cast<char>(flags));
    size_t common = std::mismatch(prev.begin(), prev.end(), f.name.begin(), f.name.end()).first - prev.begin();
    put_varint(out, common);
    put_varint(out, f.name.size() - common);
    out.append(f.name, common);
    put_varint(out, f.size);
    if (f.crc)
      for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((*f.crc >> (8 * i)) & 0xff));
    if (f.attrs) put_attrs(out, *f.attrs);
    prev = f.name;
  }
  return out;
}

Result<std::vector<FileRecord>> decode_file_list(std::string_view bytes) {
  Reader r(bytes);
  SCR_ASSIGN_OR_RETURN(uint64_t count, read_header(r));
  std::vector<FileRecord> files;
  files.reserve(count);
  for (uint64_t i = 0; i < count; ++i) {
    static const std::string kNone;
    SCR_ASSIGN_OR_RETURN(FileRecord f, read_record(r, files.empty() ? kNone : files.back().name));
    files.push_back(std::move(f));
  }
  if (!r.done()) return r.bad("bytes follow the last record");
  return files;
}

namespace {

// A bounds-checked cursor that reports a bad byte by position only: the
// rewrite below runs over every record of lists of many thousands, where
// building a Result per byte read would cost more than the copy itself.
class Scan {
 public:
  explicit Scan(std::string_view in) : in_(in) {}
  size_t pos() const { return pos_; }
  bool done() const { return pos_ == in_.size(); }
  bool byte(uint8_t& b) {
    if (pos_ >= in_.size()) return false;
    b = static_cast<uint8_t>(in_[pos_++]);
    return true;
  }
  // The varint rules of Reader::varint (at most 10 bytes, no overflow).
  bool varint(uint64_t& v) {
    v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      uint8_t b;
      if (!byte(b) || (shift == 63 && b > 1)) return false;
      v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return true;
    }
    return false;
  }
  bool u32_varint() {
    uint64_t v;
    return varint(v) && v <= UINT32_MAX;
  }
  bool skip(uint64_t n) {
    if (in_.size() - pos_ < n) return false;
    pos_ += n;
    return true;
  }

 private:
  std::string_view in_;
  size_t pos_ = 0;
};

// Skips one record's attributes as read_attrs reads them.
bool skip_attrs(Scan& s) {
  uint64_t v;
  return s.u32_varint() && s.u32_varint() && s.u32_varint() && s.varint(v) && s.varint(v) && s.varint(v) &&
         s.varint(v) && s.varint(v) && s.varint(v);
}

}  // namespace

Result<std::string> with_file_list_crcs(std::string_view bytes, const std::vector<uint32_t>& crcs) {
  Reader r(bytes);
  SCR_ASSIGN_OR_RETURN(uint64_t count, read_header(r));
  if (count != crcs.size())
    return Error(Errc::corrupt, std::to_string(crcs.size()) + " checksums for a list of " + std::to_string(count) +
                                    " files");
  std::string out(bytes.substr(0, bytes.size() - r.remaining()));
  out.reserve(bytes.size() + 4 * crcs.size());
  Scan s(bytes);
  (void)s.skip(out.size());
  auto bad = [&](const char* why) {
    return Error(Errc::corrupt, "file list is malformed at byte " + std::to_string(s.pos()) + ": " + why);
  };
  uint64_t prev_length = 0;  // of the previous name, which the next may share
  for (uint32_t crc : crcs) {
    // The checks of read_record, on lengths only; the record's bytes are
    // copied as they are, its flags and checksum slot aside.
    uint8_t flags;
    uint64_t shared, suffix, size;
    if (!s.byte(flags)) return bad("it is truncated");
    if (flags & ~kKnownFlags) return bad("unknown record flags");
    size_t from = s.pos();
    if (!s.varint(shared) || !s.varint(suffix)) return bad("a name length is truncated or too long");
    if (shared > prev_length) return bad("a name shares more than the previous name holds");
    if (suffix > kMaxRecordName || shared + suffix > kMaxRecordName) return bad("a name is too long");
    if (shared + suffix == 0) return bad("a name is empty");
    if (!s.skip(suffix) || !s.varint(size)) return bad("a record is truncated or its size too long");
    out.push_back(static_cast<char>(flags | kHasCrc));
    out.append(bytes.substr(from, s.pos() - from));
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((crc >> (8 * i)) & 0xff));
    if ((flags & kHasCrc) && !s.skip(4)) return bad("it is truncated");
    if (flags & kHasAttrs) {
      from = s.pos();
      if (!skip_attrs(s)) return bad("a record's mode, owner or times are truncated or out of range");
      out.append(bytes.substr(from, s.pos() - from));
    }
    prev_length = shared + suffix;
  }
  if (!s.done()) return bad("bytes follow the last record");
  return out;
}

std::string file_list_text(const std::vector<FileRecord>& files, int indent) {
  std::string pad(static_cast<size_t>(indent), ' ');
  std::string out;
  auto field = [&](const char* key, const std::string& value) { out += pad + "  " + key + " = " + value + "\n"; };
  auto time = [](const FileTime& t) { return std::to_string(t.sec) + "." + std::to_string(t.nsec); };
  for (const auto& f : files) {
    out += pad + f.name + "\n";
    field("SIZE", std::to_string(f.size));
    if (f.crc) {
      char hex[16];
      std::snprintf(hex, sizeof hex, "0x%08x", *f.crc);
      field("CRC", hex);
    }
    if (f.shared) field("SHARED", "1");
    if (f.attrs) {
      char mode[16];
      std::snprintf(mode, sizeof mode, "0%o", f.attrs->mode);
      field("MODE", mode);
      field("UID", std::to_string(f.attrs->uid));
      field("GID", std::to_string(f.attrs->gid));
      field("ATIME", time(f.attrs->atime));
      field("MTIME", time(f.attrs->mtime));
      field("CTIME", time(f.attrs->ctime));
    }
  }
  return out;
}

void put_file_list(Tree& tree, std::string_view key, const std::vector<FileRecord>& files) {
  tree.set(key, encode_file_list(files));
}

Result<std::string_view> file_list_bytes(const Tree& tree, std::string_view key) {
  static const std::string kEmpty = encode_file_list({});
  const Tree* sub = tree.get(key);
  if (!sub) return std::string_view(kEmpty);
  if (sub->size() != 1 || !sub->children().begin()->second->empty())
    return Error(Errc::corrupt, std::string(key) + " does not hold one file list");
  return std::string_view(sub->children().begin()->first);
}

Result<std::vector<FileRecord>> get_file_list(const Tree& tree, std::string_view key) {
  SCR_ASSIGN_OR_RETURN(std::string_view bytes, file_list_bytes(tree, key));
  return decode_file_list(bytes);
}

}  // namespace scr::kv
