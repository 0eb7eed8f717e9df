// Datasets in the node-local cache: protecting them with their redundancy
// scheme, evicting old ones, deleting them.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string_view>
#include <vector>

#include "redset/set.hpp"
#include "runtime/cache/catalog.hpp"
#include "runtime/config/descriptors.hpp"
#include "runtime/job/job.hpp"

namespace scr::rt {

// The redundancy set of one descriptor, built at SCR_Init and kept (with
// every member's set descriptor) for the run: building one splits
// communicators, which every checkpoint would otherwise repeat.
struct ProtectionSet {
  redset::Set set;
  kv::Tree member_descs;  // REDDESC/<world rank> of each member
};
using ProtectionSets = std::map<const RedDesc*, ProtectionSet>;

// Waits until a dataset is no longer being flushed (the async flusher's
// wait_for): the cache never deletes files a flush still reads.
using WaitFlushed = std::function<Status(int id)>;

// Collective, at SCR_Init: build the redundancy set of every descriptor
// that caches (not bypass) once for the run (`sets`), so that no
// checkpoint splits communicators and a descriptor's fallback warnings are
// given once. A caching descriptor that cannot form its sets (its GROUP has
// no value for a node) fails SCR_Init with the reason; SCR too creates its
// descriptors at Init.
Status build_protection_sets(const Job& job, ProtectionSets& sets);

// The set of descriptor `p`, built now (collective over the job) when
// build_protection_sets did not (a bypass descriptor's, for a fetch).
Result<const ProtectionSet*> protection_set(const Job& job, ProtectionSets& sets, const RedDesc& p);
// Collective over the set: every member's descriptor (REDDESC/<world rank>),
// which every member keeps with each dataset it protects or rebuilds, so
// that a member whose node is lost, at any later time, can be told its own.
kv::Tree all_member_descs(const redset::Set& set);

// Collective. Apply the protection to dataset `id` (files already recorded
// in the catalog) and record every set member's redundancy descriptor with
// it, so a member whose node is lost can be told its own.
// `described`: the dataset's files as redset::describe_files gave them,
// when the caller has them already. The catalog records the files, their
// CRC32C and the redundancy files (record_protected); the caller commits.
Status protect_dataset(const Job& job, CacheCatalog& cache, ProtectionSets& sets, int id,
                       const RedDesc& p, std::optional<kv::Tree> described = std::nullopt);

// Local: delete this process's files of a dataset (application files and
// redundancy file) from cache, forget it in the catalog and commit.
// `spare`, if not empty: the redundancy file is renamed there instead of
// deleted, for the next encode to write over (redset::apply).
Status delete_cached(const Job& job, CacheCatalog& cache, int id, const std::string& spare = {});

// Collective: once no flush reads dataset `id` any more, delete the copy
// this process holds, if any; the outcome is agreed.
Status delete_cached_agreed(const Job& job, CacheCatalog& cache, int id, const WaitFlushed& wait_flushed,
                            const std::string& spare = {});

// This process's spare in `store`: the redundancy file of the checkpoint it
// evicted last, kept from the eviction (SCR_Start_output) until the next
// encode writes the new redundancy file over its pages (SCR_Complete_output),
// which on tmpfs costs half of writing new pages and spares the deletion.
// Below the job's cache directory, private like it.
std::string spare_file(const Job& job, const std::string& store);

// Local: remove this process's spares (SCR_Finalize).
void drop_spares(const Job& job);

// Local: removes every entry (file or directory) whose name starts with
// `prefix` from the job's cache directory in every store the descriptors
// name, as seen from this node: what a killed run left there. The first
// process of each node calls it at SCR_Init.
void sweep_cache_entries(const Job& job, std::string_view prefix);

// At SCR_Init: the first process of each node removes every spare a
// killed run left in the job's cache directories (of every store the
// descriptors name). Not synchronized: no process evicts before SCR_Init's
// collectives that follow.
void sweep_spares(const Job& job);

// Collective: make room for one more checkpoint in the store of `p` within
// that store's COUNT (SCR_CACHE_SIZE for the cache base) by deleting the
// oldest checkpoints cached in it. Other stores keep theirs. The redundancy
// file of the last one evicted stays as this process's spare in the store.
Status evict_for_checkpoint(const Job& job, CacheCatalog& cache, const RedDesc& p,
                            const WaitFlushed& wait_flushed);

// Datasets every process holds complete in cache, newest first, flagged as
// checkpoints. Collective (agreed across processes).
std::vector<int> cached_checkpoints(const Job& job, const CacheCatalog& cache);

}  // namespace scr::rt
