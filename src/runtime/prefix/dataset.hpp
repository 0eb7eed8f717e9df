// Dataset descriptors and the per-process filemap.
//
// A dataset descriptor (same on every process) records ID, NAME, FLAGS,
// CKPT (checkpoint id, 0 for output-only), CREATED (microseconds since the
// epoch), USER, JOBID, and, once complete, COMPLETE, SIZE and FILES totals.
//
// The filemap (one per process, in the control directory of its node, file
// filemap_<rank>.scr) lists the datasets the process holds in cache:
//   DSET/<id>/DESC       the dataset descriptor
//   DSET/<id>/FILES      = number of application files
//   DSET/<id>/FILELIST   = those files (prefix-relative names, sorted, each
//                        with its CRC32C taken at Complete) as one compact
//                        file list (kvtree/file_list.hpp)
//   DSET/<id>/REDDESC/<world rank>/...  redundancy descriptors of every member
//                        of this process's set (so lost members find theirs)
//   DSET/<id>/STORE      = cache base the dataset lives in
//   DSET/<id>/COMPLETE, FLUSHING, FLUSHED   its CacheState (below)
//   DSET/<id>/BYPASS     = 1: read in place in the prefix, nothing cached
//   RANK = owner world rank
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "io/env.hpp"
#include "kvtree/file_list.hpp"
#include "kvtree/tree.hpp"
#include "runtime/prefix/dataset_table.hpp"

namespace scr::rt {

inline constexpr int kFlagCheckpoint = 1 << 0;
inline constexpr int kFlagOutput = 1 << 1;

struct DatasetInfo {
  int id = 0;
  std::string name;
  int flags = 0;
  int ckpt = 0;
  bool bypass = false;  // written to the prefix directly, never cached (BYPASS)
  std::string store;    // the cache base it was written to ("" with bypass)
  bool is_checkpoint() const { return flags & kFlagCheckpoint; }
  bool is_output() const { return flags & kFlagOutput; }
  static DatasetInfo from_tree(const kv::Tree& desc);
};

// What SCR_Start_output settles about a new dataset; rank 0 makes its
// descriptor from it and broadcasts that.
struct NewDataset {
  int id = 0;
  std::string name;
  int flags = 0;
  int ckpt = 0;
  std::string user, job_id, cluster, job_name;
  std::string store;    // the cache base, for a cached dataset
  bool bypass = false;  // written to the prefix directly
};
kv::Tree make_descriptor(const NewDataset& d);

int64_t now_usecs();

// The life of a dataset a process holds, as its filemap records it:
//   routed    SCR_Start_output made it; its files are being written (an
//             interrupted one is removed whole at the next Init)
//   complete  SCR_Complete_output protected it, or a rebuild restored it
//   flushing  an asynchronous flush is copying it to the prefix
//   flushed   it is in the prefix too (a flush, or a fetch from there)
// Deleting it erases its entry. Every change goes through
// CacheCatalog::transition (Filemap::advance), which refuses a transition
// the lifecycle does not have.
enum class CacheState : uint8_t { routed, complete, flushing, flushed };
const char* state_name(CacheState state);
// routed -> complete | flushed; complete -> flushing | flushed;
// flushing -> flushed | complete (the flush failed or was given up); and any
// state to itself.
bool transition_allowed(CacheState from, CacheState to);

class CacheCatalog;

// One dataset as a filemap records it, typed: what a process hands another
// with a copy of the files (runtime/cache/distribute.cpp) and what the
// catalog adopts.
struct CacheEntry {
  kv::Tree desc;                       // the dataset descriptor (DatasetInfo reads it)
  std::string store;                   // the cache base it lives in ("" when none is recorded)
  std::vector<kv::FileRecord> files;   // application files with size and CRC32C
  std::vector<std::string> redundancy_files;
  kv::Tree member_descs;               // <world rank> = that set member's redundancy descriptor
  CacheState state = CacheState::routed;
  bool bypass = false;
};

// The codec of one process's filemap (format above, docs/formats/prefix.md).
// The runtime changes filemaps only through CacheCatalog
// (runtime/cache/catalog.hpp), which alone may write them; the operator tools
// read them here (scr_scavenge marks a dataset flushed through the catalog's
// mark_flushed_in). The codec lives in the prefix room, below the cache,
// because the tools read it; CacheCatalog, a room above, is its one friend.
class Filemap : public DatasetTable {
 public:
  static Result<Filemap> load(io::Env& env, const std::string& path, int rank);
  static Filemap empty(const std::string& path, int rank);
  static Filemap from_tree(const std::string& path, int rank, kv::Tree tree);
  Status save(io::Env& env) const;
  const std::string& path() const { return path_; }
  // The world rank whose filemap this is (RANK), -1 when it records none.
  int owner() const;

  // Read-only: a filemap's entries change through the typed calls below.
  const kv::Tree* find(int id) const { return DatasetTable::find(id); }

  // The dataset descriptor of an entry (nullptr when it has none).
  const kv::Tree* desc(int id) const;
  std::optional<DatasetInfo> info(int id) const;
  // The store an entry names, or `fallback` when it names none.
  std::string store(int id, const std::string& fallback) const;
  // Application files of a dataset, sorted by name, with their size and
  // CRC32C once the dataset is protected.
  std::vector<kv::FileRecord> file_records(int id) const;
  std::vector<std::string> files(int id) const;
  // Redundancy files this process keeps with the dataset (names in its dir).
  std::vector<std::string> redundancy_files(int id) const;
  // <world rank> = redundancy descriptor of each member of the set (nullptr
  // when the entry records none).
  const kv::Tree* member_descs(int id) const;
  // The state of a dataset the filemap has (routed for one it lacks).
  CacheState state(int id) const;
  // Errc::bad_state, naming both states, when the lifecycle forbids it.
  Status advance(int id, CacheState to);
  // A dataset read in place in the prefix (bypass or SCR_FETCH_BYPASS).
  bool bypass(int id) const;

  // The whole entry, typed (nullopt when the filemap lacks it), and its
  // form on the wire; decode checks the file list.
  std::optional<CacheEntry> entry_of(int id) const;
  static Result<CacheEntry> decode(const kv::Tree& entry);
  static kv::Tree encode(const CacheEntry& entry);

 private:
  friend class CacheCatalog;
  // Written by the catalog's verbs only.
  void put_desc(int id, const kv::Tree& desc, const std::string& store);
  void set_totals(int id, int64_t bytes, int64_t files);
  // set_files with bare names (duplicates dropped, order kept),
  // set_file_records with sizes and CRC32Cs. Written once per dataset, at
  // Complete, fetch or rebuild: never per routed file.
  void set_files(int id, const std::vector<std::string>& names);
  void set_file_records(int id, const std::vector<kv::FileRecord>& records);
  void set_redundancy_files(int id, const std::vector<std::string>& names);
  void set_member_descs(int id, const kv::Tree& descs);
  void mark_bypass(int id);
  void put(int id, const CacheEntry& entry);
  using DatasetTable::erase;

  // Values of an indexed list (KEY/0, KEY/1, ...) of a dataset, in order.
  std::vector<std::string> list(int id, const char* key) const;
  std::string path_;
};

}  // namespace scr::rt
