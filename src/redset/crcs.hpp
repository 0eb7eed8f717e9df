// The CRC32C of each file, recorded in the redundancy headers. A coded or
// PARTNER scheme reads every file of its member once to encode it; the
// checksums are taken in that same pass (LogicalFile::track_crcs), so the
// header is written first with zeroed slots of the same size and rewritten in
// place once the encode is done. SINGLE reads nothing to encode, so it reads
// the files once for their checksums alone.
#pragma once

#include <cstdint>
#include <vector>

#include "common/status.hpp"
#include "io/env.hpp"
#include "io/lofi.hpp"
#include "kvtree/tree.hpp"
#include "redset/meta.hpp"
#include "redset/pending.hpp"
#include "redset/set.hpp"

namespace scr::redset {

// Sets the CRC32C of each file of a {FILES, FILELIST} tree, in list order.
Status set_file_crcs(kv::Tree& files, const std::vector<uint32_t>& crcs);
// `files` with the CRC32C of each set, in list order.
std::vector<FileEntry> with_crcs(std::vector<FileEntry> files, const std::vector<uint32_t>& crcs);
// Zeroed slots for every file: the header keeps its size when they are filled.
Status reserve_file_crcs(kv::Tree& files);

// Reads each file (it must still have its described size) for its CRC32C.
Result<std::vector<uint32_t>> read_file_crcs(io::Env& env, const std::string& dir,
                                             const std::vector<FileEntry>& files, size_t piece_size);

// Collective over the set, after an encode that read this member's files
// through `data` with tracking on: fills the CRC32C slots of this member's
// header entry and of its `width` left neighbours' (whose headers keep a
// copy of each), and rewrites the header in place. `own` receives this
// member's checksums.
Status record_encoded_crcs(const Set& set, io::LogicalFile& data, kv::Tree& header, int width,
                           PendingRedundancy& red, std::vector<uint32_t>& own);

}  // namespace scr::redset
