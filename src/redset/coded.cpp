#include "redset/coded.hpp"

#include <map>
#include <optional>

#include "mpi/comm.hpp"
#include "redset/agree.hpp"
#include "redset/coded_layout.hpp"
#include "redset/crcs.hpp"
#include "redset/headers.hpp"
#include "redset/layout.hpp"
#include "redset/pending.hpp"

namespace scr::redset::detail {
namespace {

// Same answer on every member: it depends on the set only.
Status check_geometry(const Set& set, int checks) {
  if (checks >= 1 && checks < set.ranks()) return Status::Ok();
  return Error(Errc::invalid_argument,
               std::string(scheme_name(set.scheme())) + " needs between 1 and set size - 1 check " +
                   "chunks per member; set " + std::to_string(set.group()) + " has " +
                   std::to_string(set.ranks()) + " members and " + std::to_string(checks));
}

class CodedRebuild : public Rebuild {
 public:
  CodedRebuild(io::Env& env, const Set& set, std::string dir, std::string redfile, SelfCheck self,
               SetLoss loss, std::map<int, kv::Tree> entries, Decoder decode)
      : env_(env),
        set_(set),
        dir_(std::move(dir)),
        redfile_(std::move(redfile)),
        self_(std::move(self)),
        loss_(std::move(loss)),
        entries_(std::move(entries)),
        decode_(std::move(decode)) {}

  Result<std::vector<FileEntry>> run() override {
    return self_.intact ? run_as_source() : run_as_lost();
  }
  std::optional<std::vector<uint32_t>> read_crcs() const override { return read_crcs_; }
  bool wrote_own_files() const override { return !self_.intact; }

 private:
  io::Env& env_;
  const Set& set_;
  std::string dir_, redfile_;
  SelfCheck self_;
  SetLoss loss_;
  std::map<int, kv::Tree> entries_;  // a lost member's metadata and its neighbours'
  Decoder decode_;
  std::optional<std::vector<uint32_t>> read_crcs_;

  // Every member must open its files before any message flows.
  Status agree(const Status& local) { return agree_in_set(set_, local); }

  Result<std::vector<FileEntry>> run_as_source() {
    // The survey found every file present at its size.
    auto data = open_measured_files(env_, dir_, self_.files);
    auto red = env_.open(redfile_, io::OpenMode::read);
    SCR_TRY(agree(!data.ok() ? data.status() : red.status()));
    // The checksums of what the decode reads: recover() checks them against
    // the header instead of reading every file once more.
    data->track_crcs();
    SymbolStore store(*data, **red, self_.header.data_offset, loss_.chunk);
    SCR_TRY(agree(decode_(store, loss_.chunk, loss_)));
    auto crcs = data->part_crcs(set_.params().piece_size);
    if (crcs) read_crcs_ = std::move(*crcs);
    return self_.files;
  }

  Result<std::vector<FileEntry>> run_as_lost() {
    std::optional<PendingFiles> data;
    std::optional<PendingRedundancy> red;
    Status opened = open_lost(data, red);
    SCR_TRY(agree(opened));
    SymbolStore store(data->logical(), red->file(), red->data_offset(), loss_.chunk);
    SCR_TRY(agree(decode_(store, loss_.chunk, loss_)));
    SCR_TRY(data->commit());
    SCR_TRY(red->commit());
    return data->files();
  }

  Status open_lost(std::optional<PendingFiles>& data, std::optional<PendingRedundancy>& red) {
    SCR_ASSIGN_OR_RETURN(auto files, files_from_tree(entries_[set_.rank()]));
    SCR_ASSIGN_OR_RETURN(auto pending_files, PendingFiles::create(env_, dir_, std::move(files), redfile_));
    data.emplace(std::move(pending_files));
    SCR_ASSIGN_OR_RETURN(
        auto pending_red,
        PendingRedundancy::create(env_, redfile_,
                                  coded_header(set_.shape(), set_.rank(), entries_, loss_.chunk)));
    red.emplace(std::move(pending_red));
    return Status::Ok();
  }
};

}  // namespace

Status apply_coded(io::Env& env, const Set& set, const std::string& dir, kv::Tree files,
                   const std::string& redfile, const std::string& spare, int checks,
                   std::vector<FileEntry>& own_out,
                   const Encoder& encode) {
  SCR_TRY(check_geometry(set, checks));
  Status reserved = reserve_file_crcs(files);
  auto own = files_from_tree(files);
  auto entries = gather_left_entries(set, member_entry(set, std::move(files)), checks);
  uint64_t largest = static_cast<uint64_t>(
      mpi::max(set.comm(), static_cast<int64_t>(own.ok() ? total_size(*own) : 0)));
  uint64_t chunk = chunk_size(largest, set.ranks() - checks);

  kv::Tree header = coded_header(set.shape(), set.rank(), std::move(entries), chunk);
  Result<io::LogicalFile> data = !reserved.ok() ? reserved : own.ok() ? open_measured_files(env, dir, *own) : own.status();
  Result<PendingRedundancy> red = data.ok() ? PendingRedundancy::create(env, redfile, header, spare) : data.status();
  SCR_TRY(agree_in_set(set, red.status()));
  data->track_crcs();
  SymbolStore store(*data, red->file(), red->data_offset(), chunk);
  SCR_TRY(agree_in_set(set, encode(store, chunk)));
  std::vector<uint32_t> crcs;
  SCR_TRY(record_encoded_crcs(set, *data, header, checks, *red, crcs));
  SCR_TRY(red->commit());
  own_out = with_crcs(std::move(*own), crcs);
  return Status::Ok();
}

Survey survey_coded(io::Env& env, const Set& set, const std::string& dir,
                    const std::string& redfile, int checks, Decoder decode, bool files_checked) {
  SCR_TRY(check_geometry(set, checks));
  SelfCheck self = check_self(env, set, dir, redfile, chunk_check(checks), files_checked);
  SetLoss loss = agree_loss(set, self, self.intact ? self.header.tree.uint_or("CHUNK", 0) : 0);
  if (loss.lost.empty()) return nothing_to_rebuild(std::move(self.files));
  SCR_TRY(check_tolerance(set.shape(), loss));
  SCR_ASSIGN_OR_RETURN(auto entries, fetch_lost_entries(set, loss, self));
  return std::unique_ptr<Rebuild>(new CodedRebuild(env, set, dir, redfile, std::move(self),
                                                   std::move(loss), std::move(entries),
                                                   std::move(decode)));
}

}  // namespace scr::redset::detail
