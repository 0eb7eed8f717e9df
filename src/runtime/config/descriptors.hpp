// Group, store and redundancy descriptors (docs/config.md#descriptors), built from a Config and
// validated before any MPI work starts, so a bad CKPT line fails at SCR_Init
// with a message naming the line instead of deep inside an encoder.
//   groups: which processes fail together / share a device (NODE, WORLD, GROUPS)
//   stores: node-local directories datasets are cached in (STORE lines)
//   redundancy: scheme, set size, store and failure group per checkpoint (CKPT lines)
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.hpp"
#include "redset/params.hpp"
#include "runtime/config/config.hpp"

namespace scr::rt {

inline constexpr std::string_view kNodeGroup = "NODE";
inline constexpr std::string_view kWorldGroup = "WORLD";

struct GroupDescs {
  // From GROUPS lines: host -> group name -> the host's value for that group.
  std::map<std::string, std::map<std::string, std::string>, std::less<>> by_host;
  // NODE, WORLD and every group named on a GROUPS line.
  std::set<std::string, std::less<>> names;

  bool has(std::string_view name) const { return names.count(name) > 0; }
  // The string the processes on `host` are split by for `group`: the host
  // itself for NODE, one shared value for WORLD, the GROUPS value otherwise.
  // Errors when the group is unknown or the host has no value for it.
  Result<std::string> member_key(std::string_view host, std::string_view group) const;
};

struct StoreDesc {
  std::string path;                      // normalized directory, the store's name
  std::string group{kNodeGroup};         // processes sharing the device
  int count = 1;                         // datasets the store may hold
  bool enabled = true;                   // ENABLED=0: its descriptors are disabled
};

// A redundancy descriptor (CKPT=<index> ... lines, or the SCR_* defaults):
// which datasets it protects, where they are cached and with which scheme.
// The one model of a descriptor: the runtime protects datasets with it and
// builds its redundancy sets from `params`.
struct RedDesc {
  int index = 0;          // CKPT=<index>
  bool enabled = true;
  int interval = 1;       // applies to checkpoint ids divisible by it
  bool output = false;    // reserved for output datasets
  bool bypass = false;    // write straight to the prefix: no cache, no redundancy
  std::string store;      // a StoreDesc path (cache base directory)
  int store_count = 1;    // datasets that store keeps (its COUNT)
  std::string group;      // failure group: members of a set come from different ones
  // Scheme, SET_SIZE, SET_FAILURES (RS parity blocks), REPLICAS (PARTNER
  // copies); the piece size is the runtime's (Settings::mpi_piece_size).
  redset::Params params;
};

struct Descriptors {
  GroupDescs groups;
  std::vector<StoreDesc> stores;  // sorted by path; always includes SCR_CACHE_BASE
  std::vector<RedDesc> reds;      // sorted by index; never empty
  const StoreDesc* find_store(std::string_view path) const;
};

// With no CKPT lines there is one descriptor built from SCR_COPY_TYPE,
// SCR_SET_SIZE, SCR_SET_FAILURES, SCR_REPLICAS, SCR_GROUP and SCR_CACHE_BASE.
// Errors name the descriptor and where it was configured.
Result<Descriptors> build_descriptors(const Config& config);

// What a dataset is, by its SCR_Start_output flags.
struct DatasetKind {
  bool checkpoint = true;
  bool output = false;
};

// The descriptor for a dataset, chosen as SCR 3.1 chooses it: an output
// dataset (a checkpoint or not) takes the first enabled OUTPUT=1 descriptor
// if there is one; otherwise a checkpoint takes, among the enabled
// descriptors whose INTERVAL divides checkpoint_id, OUTPUT=1 ones included,
// the one with the highest INTERVAL (lowest index on ties), and a dataset
// that is not a checkpoint the first enabled descriptor with INTERVAL=1.
// `reds` must come from build_descriptors, which guarantees a match by
// requiring an enabled descriptor with INTERVAL=1.
const RedDesc& select(const std::vector<RedDesc>& reds, int checkpoint_id, DatasetKind kind = {});

}  // namespace scr::rt
