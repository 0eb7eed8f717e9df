#include "runtime/prefix/restart_table.hpp"

#include <algorithm>
#include <charconv>

#include "common/crc32c.hpp"
#include "io/files.hpp"
#include "io/path.hpp"
#include "kvtree/codec.hpp"
#include "kvtree/file_list.hpp"
#include "runtime/prefix/prefix_index.hpp"

namespace scr::rt {
namespace {

constexpr const char* kFormat = "scrpp-restart-table-1";

void put_u64(std::string& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
uint64_t get_u64(const unsigned char* p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= static_cast<uint64_t>(p[i]) << (8 * i);
  return v;
}

std::string numbers_text(const std::vector<uint64_t>& v) {
  std::string out;
  for (uint64_t n : v) {
    if (!out.empty()) out.push_back(' ');
    out += std::to_string(n);
  }
  return out;
}

// Exactly `count` numbers below `limit`, or an error.
Result<std::vector<uint64_t>> parse_numbers(const std::string& text, size_t count, uint64_t limit,
                                            const char* what) {
  std::vector<uint64_t> out;
  out.reserve(count);
  const char* p = text.data();
  const char* end = p + text.size();
  while (p < end) {
    uint64_t v = 0;
    auto [next, ec] = std::from_chars(p, end, v);
    if (ec != std::errc() || v >= limit || out.size() == count)
      return Error(Errc::corrupt, std::string("a piece's ") + what + " list is malformed");
    out.push_back(v);
    p = next;
    if (p < end && *p++ != ' ') return Error(Errc::corrupt, std::string("a piece's ") + what + " list is malformed");
  }
  if (out.size() != count) return Error(Errc::corrupt, std::string("a piece's ") + what + " list is short");
  return out;
}

uint64_t bucket_of(const std::string& key, uint64_t buckets) {
  return crc32c(key.data(), key.size()) % buckets;
}

// One piece: the files at `which` (indexes into `files`), in that order.
std::string encode_piece(const std::vector<TableFile>& files, const std::vector<uint64_t>& which, bool with_index) {
  std::vector<kv::FileRecord> records;
  std::vector<uint64_t> ranks;
  records.reserve(which.size());
  ranks.reserve(which.size());
  for (uint64_t i : which) {
    records.push_back({files[i].name, files[i].size, files[i].crc, false, std::nullopt});
    ranks.push_back(static_cast<uint64_t>(files[i].rank));
  }
  kv::Tree t;
  kv::put_file_list(t, "FILELIST", records);
  t.set("RANKS", numbers_text(ranks));
  if (with_index) t.set("INDEX", numbers_text(which));
  return kv::encode(t);
}

class Appender {
 public:
  explicit Appender(io::File& f) : f_(f) {}
  Result<uint64_t> add(const std::string& bytes) {
    uint64_t at = end_;
    SCR_TRY(f_.pwrite(bytes.data(), bytes.size(), end_));
    end_ += bytes.size();
    return at;
  }

 private:
  io::File& f_;
  uint64_t end_ = 0;
};

}  // namespace

std::string restart_table_path(const std::string& prefix, int id) {
  return io::path::join(prefix_scr_dir(prefix), kTableFilePrefix + std::to_string(id));
}

Status write_restart_table(io::Env& env, const std::string& path, int writers, const std::vector<TableFile>& files,
                           bool lookups, uint64_t piece) {
  if (piece == 0) return Error(Errc::invalid_argument, "a restart table's piece size must be positive");
  SCR_ASSIGN_OR_RETURN(auto file, env.open(path, io::OpenMode::create, 0600));
  Appender out(*file);
  std::string offsets;
  const uint64_t n = files.size();
  const uint64_t chunks = (n + piece - 1) / piece;
  for (uint64_t c = 0; c < chunks; ++c) {
    std::vector<uint64_t> which;
    for (uint64_t i = c * piece; i < std::min(n, (c + 1) * piece); ++i) which.push_back(i);
    SCR_ASSIGN_OR_RETURN(uint64_t at, out.add(encode_piece(files, which, false)));
    put_u64(offsets, at);
  }
  const uint64_t buckets = lookups ? std::max<uint64_t>(1, chunks) : 0;
  // Both kinds of bucket at once, by sorting the indexes by bucket: the
  // writer holds the list and one bucket's encoding, never all of them.
  for (bool by_base : {false, true}) {
    if (!lookups) break;
    std::vector<std::pair<uint64_t, uint64_t>> order;  // (bucket, index)
    order.reserve(n);
    for (uint64_t i = 0; i < n; ++i)
      order.push_back({bucket_of(by_base ? io::path::basename(files[i].name) : files[i].name, buckets), i});
    std::sort(order.begin(), order.end());
    size_t k = 0;
    for (uint64_t b = 0; b < buckets; ++b) {
      std::vector<uint64_t> which;
      for (; k < order.size() && order[k].first == b; ++k) which.push_back(order[k].second);
      SCR_ASSIGN_OR_RETURN(uint64_t at, out.add(encode_piece(files, which, true)));
      put_u64(offsets, at);
    }
  }
  SCR_ASSIGN_OR_RETURN(uint64_t offsets_at, out.add(offsets));
  kv::Tree head;
  head.set("FORMAT", kFormat);
  head.set_int("WRITERS", writers);
  head.set_uint("FILES", n);
  head.set_uint("PIECE", piece);
  head.set_uint("BUCKETS", buckets);
  head.set_uint("OFFSETS", offsets_at);
  SCR_ASSIGN_OR_RETURN(uint64_t head_at, out.add(kv::encode(head)));
  std::string tail;
  put_u64(tail, head_at);
  SCR_TRY(out.add(tail).status());
  return file->close();
}

Result<RestartTable> RestartTable::open(io::Env& env, const std::string& path) {
  auto bad = [&](const std::string& why) { return Error(Errc::corrupt, path + ": " + why); };
  RestartTable t;
  t.env_ = &env;
  t.path_ = path;
  SCR_ASSIGN_OR_RETURN(auto file, env.open(path, io::OpenMode::read));
  SCR_ASSIGN_OR_RETURN(uint64_t size, file->size());
  if (size < 8) return bad("too short for a restart file table");
  unsigned char tail[8];
  SCR_TRY(file->pread_exact(tail, sizeof tail, size - 8));
  uint64_t head_at = get_u64(tail);
  if (head_at >= size - 8) return bad("the header's offset lies outside the file");
  SCR_ASSIGN_OR_RETURN(kv::Tree head, io::read_tree_at(*file, head_at, nullptr));
  if (head.value("FORMAT") != kFormat) return bad("not a restart file table (format " + head.value_or("FORMAT", "missing") + ")");
  auto writers = head.get_int("WRITERS");
  auto files = head.get_uint("FILES");
  auto piece = head.get_uint("PIECE");
  auto buckets = head.get_uint("BUCKETS");
  auto offsets = head.get_uint("OFFSETS");
  if (!writers || *writers <= 0 || *writers > INT32_MAX || !files || !piece || *piece == 0 || !buckets || !offsets)
    return bad("the header lacks a valid WRITERS, FILES, PIECE, BUCKETS or OFFSETS");
  t.writers_ = static_cast<int>(*writers);
  t.files_ = *files;
  t.piece_ = *piece;
  t.chunks_ = (t.files_ + t.piece_ - 1) / t.piece_;
  t.buckets_ = *buckets;
  // Each piece takes some bytes, so counts beyond the file's size are lies
  // (and would overflow the arithmetic below).
  if (t.chunks_ > size || t.buckets_ > size || (t.buckets_ > 0 && t.buckets_ != std::max<uint64_t>(1, t.chunks_)))
    return bad("the header's counts do not fit the file");
  t.offsets_at_ = *offsets;
  t.end_ = head_at;
  if (t.offsets_at_ > t.end_ || (t.end_ - t.offsets_at_) / 8 != t.chunks_ + 2 * t.buckets_ ||
      (t.end_ - t.offsets_at_) % 8 != 0)
    return bad("the piece offsets do not fit the file");
  return t;
}

Result<const RestartTable::Piece*> RestartTable::load(Piece& slot, uint64_t number) {
  if (slot.number == number) return &slot;
  auto bad = [&](const std::string& why) {
    return Error(Errc::corrupt, path_ + ": piece " + std::to_string(number) + " " + why);
  };
  SCR_ASSIGN_OR_RETURN(auto file, env_->open(path_, io::OpenMode::read));
  unsigned char raw[8];
  SCR_TRY(file->pread_exact(raw, sizeof raw, offsets_at_ + 8 * number));
  uint64_t at = get_u64(raw);
  if (at >= offsets_at_) return bad("lies outside the file");
  uint64_t end = 0;
  SCR_ASSIGN_OR_RETURN(kv::Tree t, io::read_tree_at(*file, at, &end));
  if (end > offsets_at_) return bad("runs past the pieces");
  SCR_ASSIGN_OR_RETURN(std::vector<kv::FileRecord> records, kv::get_file_list(t, "FILELIST"));
  SCR_ASSIGN_OR_RETURN(std::vector<uint64_t> ranks,
                       parse_numbers(t.value_or("RANKS", ""), records.size(), static_cast<uint64_t>(writers_), "rank"));
  std::vector<uint64_t> index;
  bool listing = number < chunks_;
  if (listing) {
    uint64_t first = number * piece_;
    if (records.size() != std::min(piece_, files_ - first)) return bad("holds the wrong number of files");
    for (uint64_t i = 0; i < records.size(); ++i) index.push_back(first + i);
  } else {
    SCR_ASSIGN_OR_RETURN(index, parse_numbers(t.value_or("INDEX", ""), records.size(), files_, "index"));
  }
  slot.number = UINT64_MAX;  // a failed load leaves no stale piece behind
  slot.files.clear();
  slot.files.reserve(records.size());
  for (size_t i = 0; i < records.size(); ++i)
    slot.files.push_back({std::move(records[i].name), static_cast<int>(ranks[i]), records[i].size, records[i].crc, index[i]});
  slot.number = number;
  return &slot;
}

Result<TableFile> RestartTable::at(uint64_t i) {
  if (i >= files_)
    return Error(Errc::invalid_argument, "file index " + std::to_string(i) + " is out of range (the checkpoint has " +
                                             std::to_string(files_) + " files)");
  SCR_ASSIGN_OR_RETURN(const Piece* p, load(listed_, i / piece_));
  return p->files[i % piece_];
}

Result<std::optional<TableFile>> RestartTable::find(const std::string& name) {
  if (!has_lookups()) return Error(Errc::bad_state, path_ + " has no lookup buckets");
  SCR_ASSIGN_OR_RETURN(const Piece* p, load(named_, chunks_ + bucket_of(name, buckets_)));
  for (const auto& f : p->files)
    if (f.name == name) return std::optional<TableFile>(f);
  return std::optional<TableFile>();
}

Result<std::vector<std::string>> RestartTable::with_basename(const std::string& base) {
  if (!has_lookups()) return Error(Errc::bad_state, path_ + " has no lookup buckets");
  SCR_ASSIGN_OR_RETURN(const Piece* p, load(based_, chunks_ + buckets_ + bucket_of(base, buckets_)));
  std::vector<std::string> out;
  for (const auto& f : p->files)
    if (io::path::basename(f.name) == base) out.push_back(f.name);
  return out;
}

}  // namespace scr::rt
