// Redundancy sets (docs/design.md#redundancy-schemes): protect each process's files against
// the loss of whole failure groups (nodes) with SINGLE, PARTNER, XOR or
// Reed-Solomon encoding across a set of processes from distinct failure
// groups.
//
// Contract for every scheme:
//  - Files are named relative to a dataset directory `dir`; each process
//    passes its own ordered list (any count, including zero, any sizes).
//  - apply() writes exactly one redundancy file per process,
//    dir/.scr/<kFilePrefix><wrank>.<scheme>.grp_<g>_of_<n>.mem_<r>_of_<s>.redset
//    (g and r 1-based), a metadata-tree header followed by chunk data. The
//    .scr subdirectory keeps it apart from the application's files (which
//    may not be named .scr/...). Each
//    header holds the process's own file metadata and copies of its
//    neighbours' (see docs/formats/redset.md), so lost metadata is recovered.
//  - apply() records each file's CRC32C in the headers. recover() counts a
//    file whose content no longer matches it as lost (it is removed) and
//    checks every rebuilt file against it: damaged redundancy data never
//    yields a wrong file (Errc::corrupt instead).
//  - recover() is collective: if every set lost no more members than it
//    tolerates, lost files (data, size, mode, times) and lost redundancy files
//    are rebuilt bit-exact and every process gets its file list back;
//    otherwise every process gets Errc::unrecoverable and nothing else
//    changes.
//  - Data is streamed in pieces of Params::piece_size; memory use does not
//    grow with file size.
#pragma once

#include <string>
#include <vector>

#include "common/status.hpp"
#include "io/env.hpp"
#include "kvtree/file_list.hpp"
#include "kvtree/tree.hpp"
#include "redset/set.hpp"

namespace scr::redset {

inline constexpr const char* kFilePrefix = "reddesc.";
// Subdirectory of a dataset directory that holds the redundancy files.
inline constexpr const char* kRedundancyDir = ".scr";

// Path of this process's redundancy file in dir.
std::string redundancy_file(const Set& set, const std::string& dir);

// Collective over the set's parent communicator. `recorded`, if given,
// receives each file as the header records it (name, size and CRC32C, no
// attributes), in the order of `files`. `spare`, if not empty, names a file
// of this process's on the same file system, such as the redundancy file of
// a dataset just evicted: the new redundancy file is written over its pages
// (renamed, overwritten, cut to size) instead of pages the file system must
// first hand out and zero, which on tmpfs costs about as much as the write
// itself. The spare is gone once apply returns having used it; a missing
// spare means a new file.
Status apply(io::Env& env, const Set& set, const std::string& dir,
             const std::vector<std::string>& files, std::vector<kv::FileRecord>* recorded = nullptr,
             const std::string& spare = {});
// The same for files the caller has described already (describe_files in
// meta.hpp): a checkpoint's completion checks that every routed file exists
// with that one stat per file. Checksums in `described` are taken as the
// files' own (a fetch has just checked every byte): SINGLE, which reads
// nothing to encode, then reads nothing at all; the other schemes take
// theirs from the encode's read anyway.
Status apply(io::Env& env, const Set& set, const std::string& dir, kv::Tree described,
             std::vector<kv::FileRecord>* recorded = nullptr, const std::string& spare = {});

// Collective. On success returns this process's files (relative to dir), all
// present, complete and matching their CRC32C; `recorded`, if given,
// receives them with their sizes and CRC32Cs as apply() recorded them.
Result<std::vector<std::string>> recover(io::Env& env, const Set& set, const std::string& dir,
                                         std::vector<kv::FileRecord>* recorded = nullptr);

// Remove this process's redundancy file (and PARTNER replicas it holds).
Status unapply(io::Env& env, const Set& set, const std::string& dir);

// Files a process must keep with a dataset beyond its own: its redundancy
// file, relative to dir.
std::vector<std::string> redundancy_files(const Set& set);

}  // namespace scr::redset
