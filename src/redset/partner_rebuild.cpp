#include "redset/partner_rebuild.hpp"

#include <algorithm>
#include <optional>

#include "redset/agree.hpp"
#include "redset/buffer.hpp"
#include "redset/partner_layout.hpp"
#include "redset/pending.hpp"
#include "redset/streams.hpp"
#include "redset/views.hpp"

namespace scr::redset::detail {
namespace {

// Who sends what during a PARTNER rebuild. Every lost member needs its own
// files and the files of its left neighbours 1..replicas (for its redundancy
// file); each comes from the member's keeper: the member itself when intact,
// else its nearest intact right neighbour, which holds a replica.
struct Transfer {
  int owner;   // set rank whose files travel
  int source;  // keeper(owner)
  std::vector<int> dests;
};

std::vector<Transfer> plan_transfers(const Set& set, const SetLoss& loss) {
  int r = set.params().replicas;
  std::map<int, Transfer> by_owner;
  for (int e : loss.lost)
    for (int d = 0; d <= r; ++d) {
      int x = (e - d + set.ranks()) % set.ranks();
      Transfer& t = by_owner[x];
      t.owner = x;
      t.source = loss.keeper(set, x, r);
      t.dests.push_back(e);
    }
  std::vector<Transfer> out;
  for (auto& [x, t] : by_owner) out.push_back(std::move(t));
  return out;
}

class PartnerRebuild : public Rebuild {
 public:
  PartnerRebuild(io::Env& env, const Set& set, std::string dir, std::string redfile, SelfCheck self,
                 SetLoss loss, std::map<int, kv::Tree> entries)
      : env_(env),
        set_(set),
        dir_(std::move(dir)),
        redfile_(std::move(redfile)),
        self_(std::move(self)),
        loss_(std::move(loss)),
        entries_(std::move(entries)) {}

  Result<std::vector<FileEntry>> run() override {
    std::vector<Transfer> plan = plan_transfers(set_, loss_);
    SCR_TRY(agree_in_set(set_, self_.intact ? open_sources() : open_targets()));
    std::vector<OutStream> outs = self_.intact ? sends(plan) : std::vector<OutStream>{};
    std::vector<InStream> ins = self_.intact ? std::vector<InStream>{} : receives(plan);
    // A member sending its own files takes their checksums from that read.
    if (sends_own_) data_in_->track_crcs();
    Status moved = run_streams(set_.comm(), set_.params().piece_size, outs, ins, mpi::Patience::spin_first);
    // Every other intact member reads its files for their checksums here,
    // while the set's transfers still run (most members send nothing), not
    // after them in recover(): that check is the one read of their files
    // the rebuild makes.
    if (self_.intact && moved.ok()) take_read_crcs();
    SCR_TRY(agree_in_set(set_, moved));
    if (self_.intact) return self_.files;
    wrote_ = true;
    SCR_TRY(data_out_->commit());
    SCR_TRY(red_out_->commit());
    return data_out_->files();
  }

  bool wrote_own_files() const override { return wrote_; }
  std::optional<std::vector<uint32_t>> read_crcs() const override { return read_crcs_; }

 private:
  io::Env& env_;
  const Set& set_;
  std::string dir_, redfile_;
  SelfCheck self_;
  SetLoss loss_;
  std::map<int, kv::Tree> entries_;
  bool wrote_ = false;
  bool sends_own_ = false;
  std::optional<std::vector<uint32_t>> read_crcs_;
  // An intact member reads its files and the replicas in its redundancy file.
  std::optional<io::LogicalFile> data_in_;
  std::unique_ptr<io::File> red_in_;
  // A lost member writes both anew.
  std::optional<PendingFiles> data_out_;
  std::optional<PendingRedundancy> red_out_;
  kv::Tree new_header_;

  Status open_sources() {
    // The survey found every file present at its size.
    SCR_ASSIGN_OR_RETURN(auto data, open_measured_files(env_, dir_, self_.files));
    data_in_.emplace(std::move(data));
    SCR_ASSIGN_OR_RETURN(red_in_, env_.open(redfile_, io::OpenMode::read));
    return Status::Ok();
  }

  // The CRC32C of each of this member's files: from the stream's read when it
  // sent them, else read now. A read that fails leaves nothing, and
  // recover() checks the files itself (and tells a damaged one from a
  // missing one).
  void take_read_crcs() {
    size_t piece = set_.params().piece_size;
    if (!sends_own_) {
      data_in_->track_crcs();
      AlignedBuffer copy(piece);
      for (uint64_t off = 0; off < data_in_->size(); off += piece) {
        size_t n = static_cast<size_t>(std::min<uint64_t>(piece, data_in_->size() - off));
        ViewHold hold;
        if (!view_or_read(*data_in_, off, n, copy.data(), hold).ok()) return;
      }
    }
    auto crcs = data_in_->part_crcs(piece);
    if (crcs) read_crcs_ = std::move(*crcs);
  }

  Status open_targets() {
    SCR_ASSIGN_OR_RETURN(auto files, files_from_tree(entries_[set_.rank()]));
    SCR_ASSIGN_OR_RETURN(new_header_, partner_header(set_, entries_));
    SCR_ASSIGN_OR_RETURN(auto data, PendingFiles::create(env_, dir_, std::move(files), redfile_));
    data_out_.emplace(std::move(data));
    SCR_ASSIGN_OR_RETURN(auto red, PendingRedundancy::create(env_, redfile_, new_header_));
    red_out_.emplace(std::move(red));
    return Status::Ok();
  }

  std::vector<OutStream> sends(const std::vector<Transfer>& plan) {
    std::vector<OutStream> outs;
    for (const Transfer& t : plan) {
      if (t.source != set_.rank()) continue;
      if (t.owner == set_.rank()) {
        sends_own_ = true;
        outs.push_back({t.dests, t.owner, total_size(self_.files),
                        [this](uint64_t off, size_t n, uint8_t* copy, ViewHold& hold) {
                          return view_or_read(*data_in_, off, n, copy, hold);
                        }});
        continue;
      }
      const kv::Tree& slot = *self_.header.tree.at({"REPLICA", std::to_string(t.owner)});
      uint64_t base = self_.header.data_offset + slot.uint_or("OFFSET", 0);
      outs.push_back({t.dests, t.owner, slot.uint_or("SIZE", 0),
                      [this, base](uint64_t off, size_t n, uint8_t* copy, ViewHold& hold) {
                        return view_or_read(*red_in_, base + off, n, copy, hold);
                      }});
    }
    return outs;
  }

  std::vector<InStream> receives(const std::vector<Transfer>& plan) {
    std::vector<InStream> ins;
    for (const Transfer& t : plan) {
      if (std::find(t.dests.begin(), t.dests.end(), set_.rank()) == t.dests.end()) continue;
      uint64_t size = entry_size(entries_[t.owner]).value();
      if (t.owner == set_.rank()) {
        ins.push_back({t.source, t.owner, size, [this](uint64_t off, const uint8_t* buf, size_t n) {
                         return data_out_->logical().write_pad(off, buf, n);
                       }});
        continue;
      }
      const kv::Tree& slot = *new_header_.at({"REPLICA", std::to_string(t.owner)});
      uint64_t base = red_out_->data_offset() + slot.uint_or("OFFSET", 0);
      ins.push_back(
          {t.source, t.owner, size, [this, base](uint64_t off, const uint8_t* buf, size_t n) {
             return red_out_->file().pwrite(buf, n, base + off);
           }});
    }
    return ins;
  }
};

}  // namespace

std::unique_ptr<Rebuild> partner_rebuild(io::Env& env, const Set& set, std::string dir,
                                         std::string redfile, SelfCheck self, SetLoss loss,
                                         std::map<int, kv::Tree> entries) {
  return std::make_unique<PartnerRebuild>(env, set, std::move(dir), std::move(redfile),
                                          std::move(self), std::move(loss), std::move(entries));
}

}  // namespace scr::redset::detail
