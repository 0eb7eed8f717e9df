// PARTNER: full copies of each member's files kept by its `replicas` right
// neighbours (layout in partner_layout.hpp). Survives any loss that leaves,
// for every lost member, one of the members keeping its copy.
#include "redset/agree.hpp"
#include "redset/crcs.hpp"
#include "redset/headers.hpp"
#include "redset/partner_layout.hpp"
#include "redset/partner_rebuild.hpp"
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

}  // namespace

Status apply_partner(io::Env& env, const Set& set, const std::string& dir, kv::Tree files,
                     const std::string& redfile, const std::string& spare, std::vector<FileEntry>& own_out) {
  SCR_TRY(check_replicas(set));
  int r = set.params().replicas;
  Status reserved = reserve_file_crcs(files);
  auto own = files_from_tree(files);
  auto entries = gather_left_entries(set, member_entry(set, std::move(files)), r);
  auto header = partner_header(set, std::move(entries));

  Result<io::LogicalFile> data = !reserved.ok() ? reserved : own.ok() ? open_measured_files(env, dir, *own) : own.status();
  Result<PendingRedundancy> red = !data.ok()     ? data.status()
                                  : !header.ok() ? header.status()
                                                 : PendingRedundancy::create(env, redfile, *header, spare);
  SCR_TRY(agree_in_set(set, red.status()));
  data->track_crcs();

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
                     return red->file().pwrite(buf, n, base + off);
                   }});
  }
  SCR_TRY(agree_in_set(set, run_streams(set.comm(), set.params().piece_size, {mine}, ins, mpi::Patience::busy)));
  std::vector<uint32_t> crcs;
  SCR_TRY(record_encoded_crcs(set, *data, *header, r, *red, crcs));
  SCR_TRY(red->commit());
  own_out = with_crcs(std::move(*own), crcs);
  return Status::Ok();
}

Survey survey_partner(io::Env& env, const Set& set, const std::string& dir,
                      const std::string& redfile, bool files_checked) {
  SCR_TRY(check_replicas(set));
  SelfCheck self = check_self(env, set, dir, redfile, replica_check(set), files_checked);
  SetLoss loss = agree_loss(set, self, 0);
  if (loss.lost.empty()) return nothing_to_rebuild(std::move(self.files));
  SCR_TRY(check_tolerance(set.shape(), loss));
  SCR_ASSIGN_OR_RETURN(auto entries, fetch_lost_entries(set, loss, self));
  return partner_rebuild(env, set, dir, redfile, std::move(self), std::move(loss),
                         std::move(entries));
}

}  // namespace scr::redset::detail
