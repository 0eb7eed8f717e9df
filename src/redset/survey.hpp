// The read-only half of recover() for PARTNER, XOR and RS: each member checks
// its own files, the set agrees on who lost what, and lost members fetch their
// metadata from the headers that keep copies of it. Nothing is written here.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "io/env.hpp"
#include "kvtree/tree.hpp"
#include "redset/meta.hpp"
#include "redset/set.hpp"
#include "redset/shape.hpp"

namespace scr::redset {

struct SelfCheck {
  bool intact = false;
  std::string why;  // what is missing or damaged, when not intact
  Header header;
  std::vector<FileEntry> files;
};

// Scheme-specific test of a header that passed the common checks: its own keys
// (CHUNK, REPLICA) and that the file holds all the data the header announces.
using HeaderCheck = std::function<Status(const Header& header, uint64_t file_size)>;

// A member is intact when its redundancy file has a valid header that belongs
// to it and passes `check`, and every file it lists is present at its size.
// With `files_checked` presence is not checked here: the caller has just
// found every listed file intact, or checks them by the rebuild's reads.
SelfCheck check_self(io::Env& env, const Set& set, const std::string& dir,
                     const std::string& redfile, const HeaderCheck& check, bool files_checked = false);
// The same for set member `member` of a set known by its shape.
SelfCheck check_self(io::Env& env, const SetShape& shape, int member, const std::string& dir,
                     const std::string& redfile, const HeaderCheck& check, bool files_checked = false);

// Everything check_self reads of a member, so that it can be read where the
// member's storage is (a node agent) and judged elsewhere.
struct MemberFacts {
  std::string redundancy_file;  // where it was read; its base name is checked
  std::optional<Header> header;
  std::string header_error;  // why there is no header
  std::optional<uint64_t> size;
  std::string size_error;       // why there is no size
  bool files_present = false;   // every file its own header lists, at its size
};
// Reads them; with `files_checked` the data files are taken as present.
MemberFacts read_member_facts(io::Env& env, const std::string& dir, const std::string& redfile,
                              bool files_checked = false);
// check_self's verdict on facts read before.
SelfCheck check_facts(const SetShape& shape, int member, const MemberFacts& facts,
                      const HeaderCheck& check);

struct SetLoss {
  std::vector<int> lost;  // set ranks, ascending
  uint64_t chunk = 0;     // XOR/RS: CHUNK of the intact members
  bool contains(int member) const;
  // First intact member among `member` and the `width` members to its right:
  // the one whose header keeps `member`'s metadata (and, for PARTNER, data).
  int keeper(const Set& set, int member, int width) const;
  int keeper(int ranks, int member, int width) const;
};

// Who is lost, from each member's (intact, CHUNK) in set rank order: intact
// members whose CHUNK differs from the majority's count as lost.
SetLoss loss_from_votes(const std::vector<bool>& intact, const std::vector<uint64_t>& chunks);

// Collective over the set. `chunk` is this member's CHUNK (0 when the scheme
// has none); intact members whose CHUNK disagrees with the majority count as
// lost, so a header from another apply is never mixed in, and learn it here
// (self.intact is cleared) so that every member acts on the same view.
SetLoss agree_loss(const Set& set, SelfCheck& self, uint64_t chunk);

// Ok when the scheme rebuilds this loss: XOR at most one member, RS at most
// k, PARTNER no member lost together with every member keeping its copy;
// else an Errc::unrecoverable error naming the set, its lost members (set and
// world ranks) and the rule.
Status check_tolerance(const SetShape& shape, const SetLoss& loss);

// Collective over the set. A lost member gets the DESC entries of itself and
// of its header_width() left neighbours, keyed by set rank; intact members
// get an empty map.
Result<std::map<int, kv::Tree>> fetch_lost_entries(const Set& set, const SetLoss& loss,
                                                   const SelfCheck& self);

}  // namespace scr::redset
