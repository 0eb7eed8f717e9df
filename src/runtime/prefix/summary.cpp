#include "runtime/prefix/summary.hpp"

#include <optional>

#include "common/log.hpp"
#include "io/files.hpp"
#include "io/path.hpp"
#include "kvtree/codec.hpp"
#include "runtime/prefix/prefix_index.hpp"
#include "runtime/prefix/scr31/dataset_files.hpp"

namespace scr::rt {
namespace {

const kv::Tree kEmpty;

}  // namespace

std::string summary_path(const std::string& prefix, int id) {
  return io::path::join(prefix_dataset_dir(prefix, id), "summary.scr");
}

std::string own_summary_path(const std::string& prefix, int id) {
  return io::path::join(prefix_dataset_dir(prefix, id), "summary.scrpp");
}

Result<std::vector<kv::FileRecord>> summary_files(const kv::Tree& rank_entry) {
  SCR_ASSIGN_OR_RETURN(std::vector<kv::FileRecord> files, kv::get_file_list(rank_entry, "FILELIST"));
  if (rank_entry.int_or("FILES", 0) != static_cast<int64_t>(files.size()))
    return Error(Errc::corrupt, "summary lists " + std::to_string(files.size()) + " files where FILES = " +
                                    rank_entry.value_or("FILES", "(absent)"));
  return files;
}

void set_summary_files(kv::Tree& rank_entry, const std::vector<kv::FileRecord>& files) {
  rank_entry.set_int("FILES", static_cast<int64_t>(files.size()));
  kv::put_file_list(rank_entry, "FILELIST", files);
}

Result<std::vector<SummaryRedFile>> summary_redundancy(const kv::Tree& rank_entry) {
  std::vector<SummaryRedFile> out;
  const kv::Tree* list = rank_entry.get("REDFILE");
  if (!list) return out;
  for (const auto& [name, meta] : list->children()) {
    auto size = meta->get_uint("SIZE");
    if (!size) return Error(Errc::corrupt, "redundancy file " + name + " has no valid SIZE");
    if (!io::path::is_plain_name(name))
      return Error(Errc::corrupt, "redundancy file name '" + name + "' is not a plain file name");
    std::optional<uint32_t> crc;
    if (meta->has("CRC")) {
      auto value = meta->get_uint("CRC");
      if (!value || *value > UINT32_MAX) return Error(Errc::corrupt, "redundancy file " + name + " has no valid CRC");
      crc = static_cast<uint32_t>(*value);
    }
    out.push_back({name, *size, crc});
  }
  return out;
}

void add_summary_redundancy(kv::Tree& rank_entry, const std::string& name, uint64_t size,
                            std::optional<uint32_t> crc) {
  kv::Tree& entry = rank_entry.child("REDFILE").child(name);
  entry.set_uint("SIZE", size);
  if (crc) entry.set_uint("CRC", *crc);
}

Summary::Summary(const kv::Tree& desc, int writers) : writers_(writers) {
  tree_.put("DSET", desc);
  tree_.set_int("RANKS", writers);
}

Result<Summary> Summary::parse(kv::Tree tree, const std::string& where) {
  auto bad = [&](const std::string& why) { return Error(Errc::corrupt, where + ": " + why); };
  const kv::Tree* desc = tree.get("DSET");
  if (!desc || !desc->get_int("ID") || !desc->has("NAME"))
    return bad("no dataset descriptor (DSET with ID and NAME)");
  auto ranks = tree.get_int("RANKS");
  if (!ranks || *ranks <= 0 || *ranks > INT32_MAX) return bad("no valid RANKS count");
  for (int64_t r = 0; r < *ranks; ++r) {
    const kv::Tree* entry = tree.at({"RANK", std::to_string(r)});
    std::string who = "rank " + std::to_string(r) + " of " + std::to_string(*ranks);
    if (!entry) return bad(who + " has no file list");
    if (auto files = summary_files(*entry); !files) return bad(who + ": " + files.status().message());
    if (auto red = summary_redundancy(*entry); !red) return bad(who + ": " + red.status().message());
  }
  Summary s;
  s.tree_ = std::move(tree);
  s.writers_ = static_cast<int>(*ranks);
  return s;
}

Result<Summary> Summary::read(io::Env& env, const std::string& prefix, int id) {
  // A file that does not parse is a damaged summary, not a bad argument.
  auto damaged = [](const Status& st) {
    return st.code() == Errc::invalid_argument ? Error(Errc::corrupt, st.message()) : st;
  };
  const std::string own = own_summary_path(prefix, id), shared = summary_path(prefix, id);
  bool have_own = env.exists(own);
  // summary.scr: SCR 3.1's layout (SCR++ writes it too), or an earlier
  // SCR++'s summary.
  std::optional<kv::Tree> theirs;
  io::TreeFormat format = io::TreeFormat::scrpp;
  if (env.exists(shared)) {
    auto tree = io::read_any_tree(env, shared, &format);
    if (!tree && !have_own) return damaged(tree.status());
    if (!tree) log::warn(tree.status().message() + "; reading " + own + " alone");
    else theirs = std::move(tree).value();
  } else if (!have_own) {
    return Error(Errc::not_found, "dataset " + std::to_string(id) + " has no summary in " + prefix_dataset_dir(prefix, id));
  }
  if (have_own) {
    auto tree = io::read_tree(env, own);
    if (tree) {
      // SCR 3.1 reuses the id of a dataset it could not restart from: its
      // summary.scr then names another dataset than SCR++'s file beside it.
      const kv::Tree* desc = tree->get("DSET");
      const kv::Tree* other = theirs && format == io::TreeFormat::veloc ? theirs->get("DSET") : nullptr;
      if (!other || !desc ||
          (other->value("NAME") == desc->value("NAME") && other->value("CREATED") == desc->value("CREATED")))
        return parse(std::move(tree).value(), own);
      log::warn(own + " describes another dataset than SCR 3.1's summary.scr beside it (SCR 3.1 reused id " +
                std::to_string(id) + "): reading SCR 3.1's");
    } else {
      // SCR 3.1's summary beside it still describes the dataset, as it does
      // for SCR 3.1 itself: intact data is not marked failed for a damaged
      // copy of SCR++'s own record (only the per-file CRC32Cs are lost).
      Status st = damaged(tree.status());
      if (st.code() != Errc::corrupt || !theirs || format != io::TreeFormat::veloc) return st;
      log::warn(st.message() + "; reading SCR 3.1's summary " + shared +
                " instead (as for a dataset SCR 3.1 wrote: its file count and total size are checked, CRC32Cs are unknown)");
    }
  }
  if (format == io::TreeFormat::scrpp) return parse(std::move(*theirs), shared);
  // A name SCR++ will not read (invalid_argument) stays that: it says nothing
  // about the data.
  SCR_ASSIGN_OR_RETURN(kv::Tree ours, scr31::read_dataset_files(env, prefix, id, *theirs));
  return parse(std::move(ours), shared);
}

Status Summary::stage(const std::string& prefix, io::StagedFiles& files) const {
  SCR_TRY(files.stage(own_summary_path(prefix, id()), kv::encode(tree_)));
  // What SCR 3.1 reads to restart from the dataset (docs/formats/scr31.md).
  return scr31::stage_dataset_files(prefix, tree_, files);
}

Status Summary::write(io::Env& env, const std::string& prefix) const {
  io::StagedFiles files(env);
  SCR_TRY(stage(prefix, files));
  SCR_TRY(files.put_in_place());
  files.keep();
  return Status::Ok();
}

const kv::Tree& Summary::desc() const {
  const kv::Tree* d = tree_.get("DSET");
  return d ? *d : kEmpty;
}

int Summary::id() const { return static_cast<int>(desc().int_or("ID", 0)); }

const kv::Tree& Summary::rank(int r) const {
  const kv::Tree* entry = tree_.at({"RANK", std::to_string(r)});
  return entry ? *entry : kEmpty;
}

void Summary::set_rank(int r, kv::Tree entry) { tree_.child("RANK").put(std::to_string(r), std::move(entry)); }

bool summary_files_in_place(io::Env& env, const std::string& prefix, int id) {
  auto summary = Summary::read(env, prefix, id);
  if (!summary) return false;
  for (int r = 0; r < summary->writers(); ++r) {
    auto files = summary_files(summary->rank(r));
    if (!files) return false;
    for (const kv::FileRecord& f : *files) {
      auto info = env.stat(io::path::join(prefix, f.name));
      if (!info || info->size != f.size) return false;
    }
  }
  return true;
}

}  // namespace scr::rt
