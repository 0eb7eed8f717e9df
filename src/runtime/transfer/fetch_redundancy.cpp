#include "runtime/transfer/fetch_redundancy.hpp"

#include "common/log.hpp"
#include "io/files.hpp"
#include "io/path.hpp"
#include "redset/headers.hpp"
#include "redset/meta.hpp"
#include "redset/redset.hpp"
#include "runtime/prefix/prefix_index.hpp"
#include "runtime/prefix/summary.hpp"

namespace scr::rt {
namespace {

Status differs(const std::string& what) {
  return Error(Errc::corrupt, "the flushed redundancy file differs from this fetch: " + what);
}

// What a rebuild restores from a header and so must be what the fetch wrote:
// the content, and the mode, owner and modification time. (The access and
// change times no copy keeps.)
bool same_file(const redset::FileEntry& a, const redset::FileEntry& b) {
  return a.name == b.name && a.crc == b.crc && a.meta.size == b.meta.size && a.meta.mode == b.meta.mode &&
         a.meta.uid == b.meta.uid && a.meta.gid == b.meta.gid && a.meta.mtime.tv_sec == b.meta.mtime.tv_sec &&
         a.meta.mtime.tv_nsec == b.meta.mtime.tv_nsec;
}

// Local: the copied header is this member's of this set, its neighbours'
// descriptors are theirs in this set, and it records the files fetched, in
// order. `recorded` receives them as the catalog keeps them.
Status check_copy(io::Env& env, const redset::Set& set, const FlushedRedundancy& red, const kv::Tree& fetched,
                  std::vector<kv::FileRecord>& recorded) {
  SCR_ASSIGN_OR_RETURN(redset::Header header, redset::read_header(env, red.dst));
  SCR_TRY(redset::check_header(set, header.tree));
  redset::SetShape shape = set.shape();
  for (int d = 1; d <= shape.width(); ++d) {
    int left = shape.left(set.rank(), d);
    const kv::Tree* desc = header.tree.at({"DESC", std::to_string(left), "DESC"});
    if (!desc || *desc != shape.desc(left)) return differs("set member " + std::to_string(left));
  }
  SCR_ASSIGN_OR_RETURN(auto theirs, redset::entry_files(header.tree, set.rank()));
  SCR_ASSIGN_OR_RETURN(auto ours, redset::files_from_tree(fetched));
  if (theirs.size() != ours.size()) return differs("the number of files");
  recorded.clear();
  recorded.reserve(ours.size());
  for (size_t i = 0; i < ours.size(); ++i) {
    if (!ours[i].crc || !same_file(theirs[i], ours[i])) return differs(ours[i].name);
    recorded.push_back({ours[i].name, ours[i].meta.size, ours[i].crc});
  }
  return Status::Ok();
}

}  // namespace

std::optional<FlushedRedundancy> flushed_redundancy(const Job& job, const redset::Set& set, int id,
                                                    const kv::Tree& summary_entry, const std::string& dir) {
  if (set.scheme() == redset::Scheme::partner) return std::nullopt;
  auto listed = summary_redundancy(summary_entry);
  std::vector<std::string> wanted = redset::redundancy_files(set);
  if (!listed || listed->size() != 1 || wanted.size() != 1) return std::nullopt;
  const SummaryRedFile& file = listed->front();
  if (file.name != io::path::basename(wanted.front()) || !file.crc) return std::nullopt;
  return FlushedRedundancy{io::path::join(prefix_dataset_dir(job.settings.prefix, id), file.name),
                           io::path::join(dir, wanted.front()), file.size, *file.crc};
}

Status copy_flushed_redundancy(io::Env& env, const FlushedRedundancy& red) {
  io::CopyOptions opt;
  opt.fsync = false;     // the fetch's syncfs covers it
  opt.keep_meta = false;  // a file of SCR++'s own, private to the user
  opt.expect_crc32c = red.crc;
  std::string red_dir = io::path::dirname(red.dst);
  Status st = io::make_dirs_within(env, io::path::dirname(red_dir), red_dir, 0700);
  auto copied = st.ok() ? io::copy_file(env, red.src, red.dst, opt) : Result<uint64_t>(st);
  if (copied && *copied == red.size) return Status::Ok();
  (void)io::remove_file(env, red.dst);
  return copied ? Error(Errc::corrupt, red.src + " has " + std::to_string(*copied) + " bytes, the summary records " +
                                           std::to_string(red.size))
                : copied.status();
}

bool adopt_flushed_redundancy(const Job& job, CacheCatalog& cache, const ProtectionSet& ps, int id,
                              const std::optional<FlushedRedundancy>& red, const kv::Tree& fetched) {
  std::vector<kv::FileRecord> recorded;
  Status st = red ? check_copy(job.fs(), ps.set, *red, fetched, recorded)
                  : Error(Errc::not_found, "no flushed redundancy file to take");
  bool everyone = mpi::min(job.world, st.ok() ? 1 : 0) == 1;
  if (!everyone) {
    if (red) (void)io::remove_file(job.fs(), red->dst);
    if (red && !st.ok()) log::debug(1, st.message() + "; encoding the fetched checkpoint again");
    return false;
  }
  cache.record_protected(id, recorded, redset::redundancy_files(ps.set), ps.member_descs);
  return true;
}

}  // namespace scr::rt
