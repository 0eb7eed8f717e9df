// PARTNER, offline (partner_rebuild.cpp without MPI): a lost member's
// logical file is copied out of the redundancy file of its keeper, the
// nearest intact member to its right, which holds a replica; its new
// redundancy file gets the logical files of its `replicas` left neighbours,
// each from that neighbour's keeper (the neighbour itself when intact).
#include <algorithm>
#include <functional>
#include <map>

#include "redset/buffer.hpp"
#include "redset/offline_set.hpp"
#include "redset/partner_layout.hpp"

namespace scr::redset::offline::detail {
namespace {

using Reader = std::function<Status(uint64_t offset, uint8_t* buf, size_t n)>;
using Writer = std::function<Status(uint64_t offset, const uint8_t* buf, size_t n)>;

// Where each member's logical file survives, opened once per keeper.
class Keepers {
 public:
  Keepers(io::Env& env, const Survey& survey, const SetState& set)
      : env_(env), survey_(survey), set_(set) {}

  // Member x's logical file: x's own files, or the replica its keeper holds.
  Result<Reader> copy_of(int x) {
    int keeper = set_.loss.keeper(set_.shape.ranks(), x, set_.shape.replicas);
    auto& files = opened_[keeper];
    if (!files) {
      SCR_ASSIGN_OR_RETURN(files, open_intact(env_, survey_, set_, keeper));
    }
    IntactFiles* f = files.get();
    if (keeper == x)
      return Reader(
          [f](uint64_t off, uint8_t* buf, size_t n) { return f->data.read_pad(off, buf, n); });
    const kv::Tree* slot = set_.headers.at(keeper).tree.at({"REPLICA", std::to_string(x)});
    uint64_t base = f->data_offset + slot->uint_or("OFFSET", 0);
    return Reader([f, base](uint64_t off, uint8_t* buf, size_t n) {
      return f->redundancy->pread_exact(buf, n, base + off);
    });
  }

 private:
  io::Env& env_;
  const Survey& survey_;
  const SetState& set_;
  std::map<int, std::unique_ptr<IntactFiles>> opened_;
};

Status stream(const Reader& read, const Writer& write, uint64_t size, AlignedBuffer& buf,
              const Options& options) {
  for (uint64_t off = 0; off < size; off += buf.size()) {
    size_t n = static_cast<size_t>(std::min<uint64_t>(buf.size(), size - off));
    SCR_TRY(read(off, buf.data(), n));
    SCR_TRY(write(off, buf.data(), n));
    if (options.progress) options.progress(n);
  }
  return Status::Ok();
}

// One lost member: its own files, then the replicas its redundancy file keeps.
Status fill(LostFiles& lost, const SetState& set, const kv::Tree& header, Keepers& keepers,
            AlignedBuffer& buf, const Options& options) {
  SCR_ASSIGN_OR_RETURN(uint64_t own_size, entry_size(set.entries.at(lost.member)));
  SCR_ASSIGN_OR_RETURN(Reader own, keepers.copy_of(lost.member));
  PendingFiles& data = *lost.data;
  SCR_TRY(stream(
      own,
      [&data](uint64_t off, const uint8_t* b, size_t n) {
        return data.logical().write_pad(off, b, n);
      },
      own_size, buf, options));
  PendingRedundancy& red = *lost.redundancy;
  for (int d = 1; d <= set.shape.replicas; ++d) {
    int x = set.shape.left(lost.member, d);
    const kv::Tree& slot = *header.at({"REPLICA", std::to_string(x)});
    uint64_t base = red.data_offset() + slot.uint_or("OFFSET", 0);
    SCR_ASSIGN_OR_RETURN(Reader replica, keepers.copy_of(x));
    SCR_TRY(stream(
        replica,
        [&red, base](uint64_t off, const uint8_t* b, size_t n) {
          return red.file().pwrite(b, n, base + off);
        },
        slot.uint_or("SIZE", 0), buf, options));
  }
  return Status::Ok();
}

}  // namespace

Status rebuild_partner(io::Env& env, const Survey& survey, const SetState& set,
                       const Target& target, const Options& options,
                       std::vector<RebuiltRank>* out) {
  Keepers keepers(env, survey, set);
  AlignedBuffer buf(normalized_piece(options.piece_size));
  std::vector<std::unique_ptr<LostFiles>> lost;
  for (int e : set.loss.lost) {
    SCR_ASSIGN_OR_RETURN(kv::Tree header, partner_header(set.shape, e, header_entries(set, e)));
    SCR_ASSIGN_OR_RETURN(auto files, open_lost(env, set, e, target, header));
    SCR_TRY(fill(*files, set, header, keepers, buf, options));
    lost.push_back(std::move(files));
  }
  return commit_lost(lost, options, out);
}

}  // namespace scr::redset::offline::detail
