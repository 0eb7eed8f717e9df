// Whole-file helpers over an Env: crash-safe replacement, bounded reads,
// metadata-tree files, private directories and streaming copies.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "common/status.hpp"
#include "io/env.hpp"
#include "kvtree/tree.hpp"

namespace scr::io {

// Size of the pieces every streaming copy and encoder works in by default.
inline constexpr size_t kDefaultPieceSize = 1 << 20;

// Replace `path` atomically: write a temporary beside it, fsync it, rename it
// over path, fsync the directory. A crash leaves the old or the new content.
Status write_file_atomic(Env& env, const std::string& path, const std::string& bytes,
                         uint32_t perms = 0600);
// The temporary write_file_atomic renames (temp_name(path)), written and
// synced; removed again when that fails. Nothing is renamed.
Status write_temp_file(Env& env, const std::string& path, const std::string& bytes, uint32_t perms = 0600);
// Whole file into memory; refuses files larger than max_bytes.
Result<std::string> read_file(Env& env, const std::string& path, uint64_t max_bytes = 64u << 20);

Status write_tree(Env& env, const std::string& path, const kv::Tree& tree);
Result<kv::Tree> read_tree(Env& env, const std::string& path);
// The metadata files SCR++ shares with SCR 3.1 (its prefix index, summaries
// and rank-to-file maps) are in ECP-VeloC KVTree's format
// (kvtree/veloc_file.hpp), written atomically like every tree here.
enum class TreeFormat { scrpp, veloc };
Status write_veloc_tree(Env& env, const std::string& path, const kv::Tree& tree);
// Either format, told apart by its magic number; `*format` (if given) says
// which. An empty file is corrupt here: a truncated SCR++ file must not pass
// for KVTree's empty tree.
Result<kv::Tree> read_any_tree(Env& env, const std::string& path, TreeFormat* format = nullptr);
// A tree stored at the start of a larger file (redundancy headers). Returns
// the tree and sets *end to the offset of the first byte after it.
Result<kv::Tree> read_tree_at(File& file, uint64_t offset, uint64_t* end);

// mkdir -p; components created here get `perms`. The final directory must be
// a real directory (not a symlink); when private_dir is set it must also be
// owned by us and not writable by others (its mode is never changed). Parent
// components may be symlinks to directories (site paths such as
// /home -> /gpfs/home); they are followed.
Status make_dirs(Env& env, const std::string& path, uint32_t perms = 0700,
                 bool private_dir = false);
// mkdir -p of `dir`, which must lie within `base` (base is made with
// make_dirs if missing). Every component below base must be a real
// directory: a symbolic link planted there (in a shared prefix or tmpfs)
// would redirect SCR++'s files elsewhere, so it is an error, never followed.
// The first symbolic link among the components of `dir` below `base`, or
// "" when there is none (a missing component ends the look): for a reader
// of what another process made there, which follows none either.
std::string link_within(Env& env, const std::string& base, const std::string& dir);
Status make_dirs_within(Env& env, const std::string& base, const std::string& dir,
                        uint32_t perms = 0700);
// make_dirs_within for directories SCR++ keeps its own files in: `own_top`
// (within base) and every directory below it down to `dir` must be owned by
// this user and, when closed_to_others, not writable by other users. Each
// is checked when reached, before anything is made inside it, so a refused
// directory is left exactly as it was; no mode is ever changed.
Status make_own_dirs_within(Env& env, const std::string& base, const std::string& own_top,
                            const std::string& dir, uint32_t perms, bool closed_to_others);
// rm -r without following symlinks; a missing path is not an error.
Status remove_tree(Env& env, const std::string& path);
// Remove dir and its subdirectories bottom-up where they are empty; leaves
// anything that still holds files (shared dataset directories).
void remove_empty_dirs(Env& env, const std::string& dir);
// After files below `top` were removed: removes the directories between
// `top` (kept) and each of them that are now empty, deepest first, each
// directory tried once however many of the files it held.
void remove_emptied_dirs(Env& env, const std::string& top, const std::vector<std::string>& removed_files);
// Removes each of `dirs` (below `top`, which is kept) that is empty, deepest
// first, and no other directory. One that is not a real directory, or lies
// below something between `top` and it that is not, is left alone: an rmdir
// must not reach through a symlink planted on the way.
void remove_dirs_if_empty(Env& env, const std::string& top, const std::vector<std::string>& dirs);
// Delete a file if present; missing is not an error.
Status remove_file(Env& env, const std::string& path);

// The temporary beside `path` that replaces it whole: `<path>.tmp.<pid>`.
std::string temp_name(const std::string& path);
// Whether `name` (a file name or path) is such a temporary.
bool is_temp_name(const std::string& name);
// The path a temporary replaces (`temp` without its `.tmp.<pid>`); `temp`
// must be one (is_temp_name).
std::string temp_target(const std::string& temp);

// stat of an open file (File::info), by its path where the file cannot say.
Result<FileInfo> info_of(Env& env, File& f);

struct CopyOptions {
  size_t piece_size = kDefaultPieceSize;
  bool fsync = true;                // fsync the data, then the directory
  // With fsync: false leaves the directory's fsync to the caller, who copies
  // many files into few directories and syncs each directory once.
  bool sync_dir = true;
  bool keep_meta = true;            // copy mode and times to the destination
  uint32_t* crc32c = nullptr;       // when set, receives the CRC32C of the bytes
  // When set, the bytes must have this CRC32C: otherwise the copy fails with
  // Errc::corrupt before the destination is replaced.
  std::optional<uint32_t> expect_crc32c;
  // When set, receives the copy's own metadata as written (size, mode, owner,
  // times), from the open copy: no second lookup of its path.
  FileInfo* written_info = nullptr;
  // Directories held open that src and dst lie below (a flush or a fetch of
  // many files): each is looked up from there. Either may be null.
  Dir* src_dir = nullptr;
  Dir* dst_dir = nullptr;
  // Called after each piece with bytes copied so far; may sleep to throttle.
  std::function<void(uint64_t)> progress;
  // When set, an existing dst is not replaced: defer(temporary) is called
  // before the temporary is created (so that the caller can record it where
  // a later job finds it), and the complete temporary is left in place for
  // the caller to rename over dst once it knows it wants to (a flush: when
  // the whole dataset got through). A failing defer fails the copy. A dst
  // that does not exist costs nothing more: it is written in place.
  std::function<Status(const std::string& temporary)> defer;
};
// Stream src to dst in pieces; never holds the whole file in memory. A new
// dst is written in place, an existing one replaced by rename of a complete
// temporary (or left to the caller: CopyOptions::defer). Returns the number
// of bytes copied.
Result<uint64_t> copy_file(Env& env, const std::string& src, const std::string& dst,
                           const CopyOptions& options = {});
// CRC32C of a whole file, streamed. piece_size (also CopyOptions::piece_size)
// must be positive, else invalid_argument.
Result<uint32_t> file_crc32c(Env& env, const std::string& path,
                             size_t piece_size = kDefaultPieceSize);
// The same for the first `size` bytes of an open file.
Result<uint32_t> file_crc32c(File& file, uint64_t size, size_t piece_size = kDefaultPieceSize);

}  // namespace scr::io
