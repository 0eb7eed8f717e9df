// The cache catalog: the one owner of this process's cache metadata.
//
// It holds this process's filemap (runtime/prefix/dataset.hpp: the codec of
// filemap_<rank>.scr) and, during SCR_Init, the filemaps of other ranks it
// adopted from its node's control directory (ranks that now run elsewhere);
// the counters of dataset and checkpoint ids; and the layout of the node's
// control and cache directories. Every change goes through one of its verbs
// (begin, record_routed, record_protected, record_fetched, record_rebuilt,
// adopt, transition, forget, ...), which change memory only; each step of
// the cache protocol then commits once: commit() writes the filemap
// (atomically: a crash leaves the previous or the new one), commit_agreed()
// also agrees on the outcome over the job. Nothing else in the runtime
// writes a filemap or names its keys.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "io/env.hpp"
#include "mpi/comm.hpp"
#include "runtime/prefix/dataset.hpp"
#include "runtime/prefix/identity.hpp"

namespace scr::rt {

// Where a job's cache metadata and cached datasets live on this node.
struct CacheLayout {
  std::string cntl_dir;       // the node's control directory of the job
  std::string default_store;  // SCR_CACHE_BASE: the store of an entry naming none
  Identity id;                // whose job directories these are (job_dir)
};

// The ids a new dataset gets.
struct NewIds {
  int id = 0;
  int ckpt = 0;  // 0 for an output-only dataset
};

class CacheCatalog {
 public:
  // Starts over, empty, for world rank `rank`: nothing is read from disk
  // until adopt_node_filemaps.
  void open(io::Env& env, CacheLayout layout, int rank);

  // ---- Layout.
  std::string filemap_path(int rank) const;
  std::string cache_dir(const std::string& store) const;
  std::string dataset_dir(const std::string& store, int id) const;
  // The directory of a dataset this process holds (in the store it names),
  // or of one a filemap it holds lists.
  std::string dataset_dir(int id) const { return dataset_dir(own_, id); }
  std::string dataset_dir(const Filemap& fm, int id) const;
  const std::string& default_store() const { return layout_.default_store; }

  // ---- This process's datasets, read.
  const Filemap& own() const { return own_; }
  std::vector<int> ids() const { return own_.ids(); }
  bool has(int id) const { return own_.has(id); }
  CacheState state(int id) const { return own_.state(id); }
  bool bypass(int id) const { return own_.bypass(id); }
  std::vector<std::string> files(int id) const { return own_.files(id); }
  std::vector<kv::FileRecord> file_records(int id) const { return own_.file_records(id); }
  std::vector<std::string> redundancy_files(int id) const { return own_.redundancy_files(id); }
  std::optional<DatasetInfo> info(int id) const { return own_.info(id); }
  const kv::Tree* descriptor(int id) const { return own_.desc(id); }
  const kv::Tree* member_descs(int id) const { return own_.member_descs(id); }
  std::string store(int id) const { return own_.store(id, layout_.default_store); }
  // The id of the newest dataset named `name` this process holds, or 0.
  int find_name(const std::string& name) const;

  // ---- Verbs: each changes memory only; the caller commits the step.
  // SCR_Start_output of a cached dataset: routed, in `store`. A rebuild
  // begins with the agreed descriptor too (an entry this process had keeps
  // its state).
  void begin(int id, const kv::Tree& desc, const std::string& store);
  // The files routed in its output phase (at Complete, before protection).
  void record_routed(int id, const std::vector<std::string>& names);
  // Protected by its redundancy scheme: each file's size and CRC32C, the
  // redundancy files, every set member's redundancy descriptor.
  void record_protected(int id, const std::vector<kv::FileRecord>& files,
                        const std::vector<std::string>& redundancy_files, const kv::Tree& member_descs);
  // Totals over all processes, in the descriptor.
  void record_totals(int id, int64_t bytes, int64_t files);
  // A fetch from the prefix begins: into `store`, or read in place there.
  void begin_fetch(int id, const kv::Tree& desc, const std::string& store, bool in_place);
  void record_fetched(int id, const std::vector<kv::FileRecord>& files);
  // A rebuild restored this rank's files of a dataset (begun with its
  // agreed descriptor), with every member's redundancy descriptor.
  void record_rebuilt(int id, const std::vector<kv::FileRecord>& files,
                      const std::vector<std::string>& redundancy_files, const kv::Tree& member_descs);
  // This rank's copy of a dataset, handed over by the process that held it
  // (Filemap::encode of the owner's entry). Only a protected copy (complete
  // or flushed) is taken: Errc::bad_state otherwise, Errc::corrupt when the
  // entry cannot be read.
  Status adopt(int id, const kv::Tree& encoded);
  // Errc::bad_state, naming both states, when the lifecycle forbids it.
  Status transition(int id, CacheState to);
  void forget(int id);
  // Forgets the entries of checkpoints read in place from the prefix older
  // than `id` (the prefix keeps their files).
  void forget_in_place_before(int id);

  // ---- Commits.
  // Writes this process's filemap.
  Status commit();
  // Collective over `world`: commit() on every process, then the agreed outcome.
  Status commit_agreed(const mpi::Comm& world);

  // ---- Outside a job (scr_scavenge, on each node after the job ended).
  // Marks dataset `id` FLUSHED in the filemap at `path` (owner `rank`) and
  // saves it; a filemap without the dataset is left alone.
  static Status mark_flushed_in(io::Env& env, const std::string& path, int rank, int id);

  // ---- Filemaps of other ranks (SCR_Init only).
  // Every filemap in the node's control directory by owner rank (a damaged
  // one is skipped with a warning). Read by one process per node.
  std::map<int, kv::Tree> read_node_filemaps() const;
  // This process's share of them: its own becomes its filemap, the others
  // are adopted. Replaces whatever the catalog held.
  void take_filemaps(std::map<int, kv::Tree> filemaps);
  const std::vector<Filemap>& adopted() const { return adopted_; }
  const Filemap* adopted_of(int owner) const;
  // Every filemap this process holds: its own first, then adopted ones.
  std::vector<const Filemap*> held() const;
  // Forget a dataset in an adopted filemap (its copy was handed over or
  // deleted).
  void forget_adopted(int owner, int id);
  // Forget a dataset in every filemap held; the dataset directories they
  // named are returned (the caller removes the files).
  std::vector<std::string> forget_everywhere(int id);
  // Done with the adopted filemaps: one still listing a dataset (a copy
  // whose owner could not take it) is written back for a later run, the
  // others are removed from the control directory. Best effort.
  void release_adopted();

  // ---- Ids: never reused.
  // The ids a new dataset gets, taken (reserve_ids) once it has begun.
  NewIds next_ids(bool checkpoint) const { return {dataset_id_ + 1, checkpoint ? checkpoint_id_ + 1 : 0}; }
  // Ids at least these are taken (by the prefix, the cache or a fetch).
  void reserve_ids(int id, int ckpt);
  int last_id() const { return dataset_id_; }
  int last_checkpoint() const { return checkpoint_id_; }

 private:
  io::Env* env_ = nullptr;
  CacheLayout layout_;
  int rank_ = 0;
  Filemap own_ = Filemap::empty("", 0);
  std::vector<Filemap> adopted_;
  int dataset_id_ = 0;     // last id handed out or seen
  int checkpoint_id_ = 0;
};

}  // namespace scr::rt
