#include "runtime/cache/distribute.hpp"
#include "runtime/cache/outcome.hpp"

#include <algorithm>
#include <climits>

#include "common/log.hpp"
#include "common/strings.hpp"
#include "io/files.hpp"
#include "io/path.hpp"
#include "runtime/cache/file_transfer.hpp"

namespace scr::rt {
namespace {

// Does this holding have every file (application and redundancy) of `id`?
// For our own holding only the redundancy files are looked at: an
// application file missing from it is rebuilt by the redundancy scheme (every
// file is checked against its CRC32C there), and a checkpoint of many files
// does not pay a stat per file here.
bool complete_copy(io::Env& fs, const CacheCatalog& cache, const Filemap& fm, int id, bool own) {
  if (!fm.has(id) || fm.state(id) == CacheState::routed) return false;
  std::string dir = cache.dataset_dir(fm, id);
  auto names = fm.redundancy_files(id);
  if (!own) {
    auto files = fm.files(id);
    names.insert(names.end(), files.begin(), files.end());
  }
  for (const auto& n : names) {
    auto info = fs.stat(io::path::join(dir, n));
    if (!info || !info->is_regular()) return false;
  }
  return true;
}

}  // namespace

void scatter_filemaps(const Job& job, CacheCatalog& cache) {
  // World ranks of this node's processes, in node order.
  int me = job.rank();
  std::vector<int> node_ranks = mpi::allgather_ints(job.node, me);

  std::map<int, kv::Tree> send;  // node rank -> FM/<owner> = filemap
  if (job.node.rank() == 0) {
    size_t spread = 0;
    for (auto& [owner, tree] : cache.read_node_filemaps()) {
      auto here = std::find(node_ranks.begin(), node_ranks.end(), owner);
      int to = here != node_ranks.end() ? static_cast<int>(here - node_ranks.begin())
                                        : static_cast<int>(spread++ % node_ranks.size());
      send[to].child("FM").put(std::to_string(owner), std::move(tree));
    }
  }
  auto got = mpi::exchange_trees(job.node, send);
  std::map<int, kv::Tree> mine;
  if (auto it = got.find(0); it != got.end())
    if (const kv::Tree* fms = it->second.get("FM"))
      for (const auto& [owner_s, tree] : fms->children())
        mine[static_cast<int>(str::parse_int(owner_s).value())] = *tree;
  cache.take_filemaps(std::move(mine));
}

namespace {

// Application and redundancy files of dataset id in a filemap.
std::vector<std::string> all_files(const Filemap& fm, int id) {
  auto names = fm.files(id);
  auto red = fm.redundancy_files(id);
  names.insert(names.end(), red.begin(), red.end());
  return names;
}

// The directory of the dataset an offered entry (Filemap::encode) names.
std::string entry_dir(const CacheCatalog& cache, const kv::Tree& encoded, int id) {
  auto entry = Filemap::decode(encoded);
  std::string store = entry && !entry->store.empty() ? entry->store : cache.default_store();
  return cache.dataset_dir(store, id);
}

}  // namespace

Status distribute_files(const Job& job, CacheCatalog& cache, int id) {
  const int me = job.rank();
  // 1. Offer every complete copy we hold to its owner, with its entry.
  std::map<int, kv::Tree> offers;
  for (const Filemap& fm : cache.adopted()) {
    int owner = fm.owner();
    if (owner < 0 || owner >= job.ranks() || !complete_copy(job.fs(), cache, fm, id, false)) continue;
    offers[owner].set("NODE", job.id.node);
    offers[owner].put("ENTRY", Filemap::encode(*fm.entry_of(id)));
  }
  auto offered = mpi::exchange_trees(job.world, offers);

  // 2. Pick a source: our own copy, else one on our node (no data moves),
  //    else the lowest-ranked holder elsewhere.
  int source = complete_copy(job.fs(), cache, cache.own(), id, true) ? me : -1;
  bool local = source == me;
  for (const auto& [holder, o] : offered) {
    if (local) break;
    if (o.value_or("NODE", "") == job.id.node) {
      source = holder;
      local = true;
    } else if (source < 0) {
      source = holder;
    }
  }
  std::map<int, kv::Tree> picks;
  if (source >= 0 && source != me) picks[source].set_int("COPY", local ? 0 : 1);
  auto picked_by = mpi::exchange_trees(job.world, picks);
  Status adopted;
  if (local && source != me) adopted = cache.adopt(id, *offered.at(source).get("ENTRY"));

  // 3. Holders send to the owners that need a copy, one owner per round.
  std::vector<int> serve;
  for (const auto& [owner, t] : picked_by)
    if (t.int_or("COPY", 0)) serve.push_back(owner);
  std::map<int, kv::Tree> rounds;
  for (size_t i = 0; i < serve.size(); ++i) rounds[serve[i]].set_int("ROUND", static_cast<int64_t>(i));
  auto told = mpi::exchange_trees(job.world, rounds);
  int my_round = told.empty() ? -1 : static_cast<int>(told.begin()->second.int_or("ROUND", -1));
  int nrounds = static_cast<int>(mpi::max(job.world, static_cast<int64_t>(serve.size())));
  bool received = false;  // this process got its files from a remote holder
  bool noroom = false;    // ... or could not write them (no space, I/O error)
  for (int round = 0; round < nrounds; ++round) {
    FileBundle out, in;
    int dest = round < static_cast<int>(serve.size()) ? serve[static_cast<size_t>(round)] : mpi::kNoPeer;
    int src = round == my_round ? source : mpi::kNoPeer;
    if (dest != mpi::kNoPeer) {
      const Filemap& fm = *cache.adopted_of(dest);
      out.dir = cache.dataset_dir(fm, id);
      out.names = all_files(fm, id);
    }
    const kv::Tree* entry = src != mpi::kNoPeer ? offered.at(src).get("ENTRY") : nullptr;
    if (entry) in.dir = entry_dir(cache, *entry, id);
    Status st = swap_files(job.fs(), job.world, dest, out, src, &in, job.settings.mpi_piece_size);
    if (entry && st.ok()) {
      adopted = cache.adopt(id, *entry);
      received = adopted.ok();
    }
    if (!st.ok()) {
      // Leave nothing half-copied; the redundancy scheme may still rebuild it.
      log::warn("moving files of dataset " + std::to_string(id) + ": " + st.message());
      if (storage_failed(st)) noroom = true;
      for (const auto& n : in.names) (void)io::remove_file(job.fs(), io::path::join(in.dir, n));
    }
  }

  // Owners tell the holder they copied from whether the copy arrived: a
  // holder never deletes the only good copy of files its owner could not
  // write (a full spare, say).
  std::map<int, kv::Tree> acks;
  if (source >= 0 && source != me && !local) acks[source].set_int("OK", received ? 1 : 0);
  auto acked = mpi::exchange_trees(job.world, acks);

  // 4. Holders let go: a copy handed over on its owner's node stays where it
  //    is; copies sent elsewhere or not needed are deleted, unless the send
  //    failed: then the copy stays, listed in its filemap, for a later run
  //    or scr_scavenge.
  std::vector<int> let_go;
  for (const Filemap& fm : cache.adopted()) {
    if (!fm.has(id)) continue;
    int owner = fm.owner();
    auto pick = picked_by.find(owner);
    bool stays = pick != picked_by.end() && pick->second.int_or("COPY", 0) == 0;
    bool sent = pick != picked_by.end() && pick->second.int_or("COPY", 0) == 1;
    auto ack = acked.find(owner);
    if (sent && (ack == acked.end() || !ack->second.int_or("OK", 0))) {
      log::warn("the files of rank " + std::to_string(owner) + " of dataset " + std::to_string(id) +
                " did not reach it; this node keeps its copy");
      continue;
    }
    if (!stays) {
      std::string dir = cache.dataset_dir(fm, id);
      for (const auto& n : all_files(fm, id)) (void)io::remove_file(job.fs(), io::path::join(dir, n));
    }
    let_go.push_back(owner);
  }
  for (int owner : let_go) cache.forget_adopted(owner, id);
  if (!adopted.ok()) log::warn(adopted.message());
  SCR_TRY(cache.commit_agreed(job.world));
  // Files that could not be written where they belong are not lost: say so,
  // so the rebuild keeps what the other nodes hold instead of deleting it.
  if (mpi::any_true(job.world, noroom))
    return Error(Errc::no_space, "files of dataset " + std::to_string(id) +
                                     " could not be moved to their new node (no space or an I/O error there)");
  return Status::Ok();
}

Result<kv::Tree> agree_descriptor(const Job& job, const CacheCatalog& cache, int id) {
  const kv::Tree* desc = nullptr;
  for (const Filemap* fm : cache.held())
    if (!desc) desc = fm->desc(id);
  int64_t owner = mpi::min(job.world, desc ? job.rank() : INT_MAX);
  if (owner == INT_MAX) return Error(Errc::not_found, "no process holds its descriptor");
  kv::Tree out = desc ? *desc : kv::Tree();
  mpi::bcast_tree(job.world, out, static_cast<int>(owner));
  return out;
}

}  // namespace scr::rt
