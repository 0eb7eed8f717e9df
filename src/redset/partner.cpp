// PARTNER: full copies of each member's files kept by its `replicas` right
// neighbours. A member's redundancy file holds its header and then the
// logical files of its left neighbours 1..replicas, in that order, at the
// offsets recorded under REPLICA/<set rank> (docs/formats/redset.md).
#include <algorithm>
#include <map>
#include <optional>

#include "mpi/comm.hpp"
#include "redset/agree.hpp"
#include "redset/headers.hpp"
#include "redset/pending.hpp"
#include "redset/schemes.hpp"
#include "redset/streams.hpp"
#include "redset/survey.hpp"
#include "redset/views.hpp"

namespace scr::redset::detail {
namespace {

Status check_replicas(const Set& set) {
  int r = set.params().replicas;
  if (r >= 1 && r < set.ranks()) return Status::Ok();
  return Error(Errc::invalid_argument, "PARTNER needs between 1 and set size - 1 replicas; set " +
                                           std::to_string(set.group()) + " has " +
                                           std::to_string(set.ranks()) + " members and " +
                                           std::to_string(r));
}

Result<uint64_t> entry_size(const kv::Tree& entry) {
  SCR_ASSIGN_OR_RETURN(auto files, files_from_tree(entry));
  return total_size(files);
}

// REPLICA/<left neighbour>/{OFFSET, SIZE}, nearest neighbour first.
Result<kv::Tree> replica_table(const Set& set, const std::map<int, kv::Tree>& entries) {
  kv::Tree table;
  uint64_t offset = 0;
  for (int d = 1; d <= set.params().replicas; ++d) {
    int x = set.left(d);
    auto it = entries.find(x);
    if (it == entries.end())
      return Error(Errc::corrupt, "no metadata for replica " + std::to_string(x));
    SCR_ASSIGN_OR_RETURN(uint64_t size, entry_size(it->second));
    kv::Tree& slot = table.child(std::to_string(x));
    slot.set_uint("OFFSET", offset);
    slot.set_uint("SIZE", size);
    offset += size;
  }
  return table;
}

uint64_t replicas_end(const kv::Tree& table) {
  uint64_t end = 0;
  for (const auto& [key, slot] : table.children())
    end = std::max(end, slot->uint_or("OFFSET", 0) + slot->uint_or("SIZE", 0));
  return end;
}

Result<kv::Tree> partner_header(const Set& set, const std::map<int, kv::Tree>& entries) {
  kv::Tree h = header_with(set, entries);
  SCR_ASSIGN_OR_RETURN(kv::Tree table, replica_table(set, entries));
  h.put("REPLICA", std::move(table));
  return h;
}

// The REPLICA table must be the one the header's own metadata implies, and the
// file must hold all of it.
HeaderCheck replica_check(const Set& set) {
  return [&set](const Header& h, uint64_t file_size) -> Status {
    std::map<int, kv::Tree> entries;
    for (int d = 1; d <= set.params().replicas; ++d)
      entries[set.left(d)] = *h.tree.at({"DESC", std::to_string(set.left(d))});
    SCR_ASSIGN_OR_RETURN(kv::Tree expected, replica_table(set, entries));
    const kv::Tree* table = h.tree.get("REPLICA");
    if (!table || *table != expected)
      return Error(Errc::corrupt, "REPLICA table is missing or wrong");
    if (file_size < h.data_offset || file_size - h.data_offset < replicas_end(expected))
      return Error(Errc::corrupt, "replica data is truncated");
    return Status::Ok();
  };
}

Status write_at(io::File& file, uint64_t at, const uint8_t* buf, size_t n) {
  return file.pwrite(buf, n, at);
}

}  // namespace

Status apply_partner(io::Env& env, const Set& set, const std::string& dir, const kv::Tree& files,
                     const std::string& redfile) {
  SCR_TRY(check_replicas(set));
  int r = set.params().replicas;
  auto own = files_from_tree(files);
  auto entries = gather_left_entries(set, member_entry(set, files), r);
  auto header = partner_header(set, entries);

  Result<io::LogicalFile> data = own.ok() ? open_files_read(env, dir, *own) : own.status();
  Result<PendingRedundancy> red = !data.ok()     ? data.status()
                                  : !header.ok() ? header.status()
                                                 : PendingRedundancy::create(env, redfile, *header);
  SCR_TRY(agree_in_set(set, red.status()));

  OutStream mine{
      {}, set.rank(), total_size(*own), [&](uint64_t off, size_t n, uint8_t* copy, ViewHold& hold) {
        return view_or_read(*data, off, n, copy, hold);
      }};
  for (int d = 1; d <= r; ++d) mine.to.push_back(set.right(d));
  std::vector<InStream> ins;
  for (int d = 1; d <= r; ++d) {
    const kv::Tree& slot = *header->at({"REPLICA", std::to_string(set.left(d))});
    uint64_t base = red->data_offset() + slot.uint_or("OFFSET", 0);
    ins.push_back({set.left(d), set.left(d), slot.uint_or("SIZE", 0),
                   [&red, base](uint64_t off, const uint8_t* buf, size_t n) {
                     return write_at(red->file(), base + off, buf, n);
                   }});
  }
  SCR_TRY(agree_in_set(set, run_streams(set.comm(), set.params().piece_size, {mine}, ins)));
  return red->commit();
}

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
    SCR_TRY(agree_in_set(set_, run_streams(set_.comm(), set_.params().piece_size, outs, ins)));
    if (self_.intact) return self_.files;
    SCR_TRY(data_out_->commit());
    SCR_TRY(red_out_->commit());
    return data_out_->files();
  }

 private:
  io::Env& env_;
  const Set& set_;
  std::string dir_, redfile_;
  SelfCheck self_;
  SetLoss loss_;
  std::map<int, kv::Tree> entries_;
  // An intact member reads its files and the replicas in its redundancy file.
  std::optional<io::LogicalFile> data_in_;
  std::unique_ptr<io::File> red_in_;
  // A lost member writes both anew.
  std::optional<PendingFiles> data_out_;
  std::optional<PendingRedundancy> red_out_;
  kv::Tree new_header_;

  Status open_sources() {
    SCR_ASSIGN_OR_RETURN(auto data, open_files_read(env_, dir_, self_.files));
    data_in_.emplace(std::move(data));
    SCR_ASSIGN_OR_RETURN(red_in_, env_.open(redfile_, io::OpenMode::read));
    return Status::Ok();
  }

  Status open_targets() {
    SCR_ASSIGN_OR_RETURN(auto files, files_from_tree(entries_[set_.rank()]));
    SCR_ASSIGN_OR_RETURN(new_header_, partner_header(set_, entries_));
    SCR_ASSIGN_OR_RETURN(auto data, PendingFiles::create(env_, dir_, std::move(files)));
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
             return write_at(red_out_->file(), base + off, buf, n);
           }});
    }
    return ins;
  }
};

}  // namespace

Survey survey_partner(io::Env& env, const Set& set, const std::string& dir,
                      const std::string& redfile) {
  SCR_TRY(check_replicas(set));
  int r = set.params().replicas;
  SelfCheck self = check_self(env, set, dir, redfile, replica_check(set));
  SetLoss loss = agree_loss(set, self, 0);
  if (loss.lost.empty()) return nothing_to_rebuild(std::move(self.files));
  for (int e : loss.lost)
    if (loss.keeper(set, e, r) < 0)
      return too_many_lost(set, loss,
                           "PARTNER with " + std::to_string(r) +
                               " replicas cannot rebuild a member lost together with the " +
                               std::to_string(r) + " members to its right that keep its copies");
  SCR_ASSIGN_OR_RETURN(auto entries, fetch_lost_entries(set, loss, self));
  return std::unique_ptr<Rebuild>(new PartnerRebuild(env, set, dir, redfile, std::move(self),
                                                     std::move(loss), std::move(entries)));
}

}  // namespace scr::redset::detail
