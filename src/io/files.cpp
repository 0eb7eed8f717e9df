#include "io/files.hpp"

#include <unistd.h>

#include <cstdio>

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <span>
#include <string_view>
#include <vector>

#include "common/crc32c.hpp"
#include "common/strings.hpp"
#include "io/path.hpp"
#include "kvtree/codec.hpp"
#include "kvtree/veloc_file.hpp"

namespace scr::io {
namespace {

// Every temporary that replaces a file whole carries this before its pid.
constexpr std::string_view kTempInfix = ".tmp.";

std::string octal(uint32_t mode) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04o", static_cast<unsigned>(mode));
  return buf;
}

// A directory SCR++ keeps its own files in must be owned by this user and,
// when closed_to_others, not writable by other users.
Status check_own_dir(const std::string& dir, const FileInfo& info, bool closed_to_others) {
  if (info.uid != ::geteuid())
    return Error(Errc::permission, dir + " is owned by uid " + std::to_string(info.uid) +
                                       ", not by this user; refusing to use it");
  // Never chmod: a directory we did not create (or one created under a
  // umask) is the user's business. Others must not be able to write it.
  if (closed_to_others && (info.mode & 022) != 0)
    return Error(Errc::permission, dir + " is writable by other users (mode " +
                                       octal(info.mode & 07777) +
                                       "); SCR++ does not change the mode of a directory: "
                                       "run chmod go-w on it or choose another base directory");
  return Status::Ok();
}

}  // namespace

std::string temp_name(const std::string& path) {
  return path + std::string(kTempInfix) + std::to_string(::getpid());
}

bool is_temp_name(const std::string& name) {
  auto at = name.rfind(kTempInfix);
  if (at == std::string::npos || at == 0) return false;
  std::string_view pid = std::string_view(name).substr(at + kTempInfix.size());
  return !pid.empty() && pid.find_first_not_of("0123456789") == std::string_view::npos;
}

std::string temp_target(const std::string& temp) { return temp.substr(0, temp.rfind(kTempInfix)); }

Status write_temp_file(Env& env, const std::string& path, const std::string& bytes, uint32_t perms) {
  std::string tmp = temp_name(path);
  auto file = env.open(tmp, OpenMode::create, perms);
  if (!file) return file.status();
  Status st = (*file)->pwrite(bytes.data(), bytes.size(), 0);
  if (st.ok()) st = (*file)->sync();
  Status closed = (*file)->close();
  if (st.ok()) st = closed;
  if (!st.ok()) (void)env.unlink(tmp);
  return st;
}

Status write_file_atomic(Env& env, const std::string& path, const std::string& bytes,
                         uint32_t perms) {
  SCR_TRY(write_temp_file(env, path, bytes, perms));
  std::string tmp = temp_name(path);
  if (Status st = env.rename(tmp, path); !st.ok()) {
    (void)env.unlink(tmp);
    return st;
  }
  return env.sync_dir(path::dirname(path));
}

Result<std::string> read_file(Env& env, const std::string& path, uint64_t max_bytes) {
  SCR_ASSIGN_OR_RETURN(auto file, env.open(path, OpenMode::read));
  SCR_ASSIGN_OR_RETURN(uint64_t size, file->size());
  if (size > max_bytes)
    return Error(Errc::invalid_argument, path + " is " + std::to_string(size) +
                                             " bytes, more than the " + std::to_string(max_bytes) +
                                             " allowed");
  std::string out(size, '\0');
  SCR_TRY(file->pread_exact(out.data(), size, 0));
  return out;
}

Status write_tree(Env& env, const std::string& path, const kv::Tree& tree) {
  return write_file_atomic(env, path, kv::encode(tree));
}

Result<kv::Tree> read_tree(Env& env, const std::string& path) {
  SCR_ASSIGN_OR_RETURN(std::string bytes, read_file(env, path));
  auto tree = kv::decode(bytes);
  if (!tree) return tree.status().with_context(path);
  return tree;
}

Status write_veloc_tree(Env& env, const std::string& path, const kv::Tree& tree) {
  return write_file_atomic(env, path, kv::veloc::encode(tree));
}

Result<kv::Tree> read_any_tree(Env& env, const std::string& path, TreeFormat* format) {
  SCR_ASSIGN_OR_RETURN(std::string bytes, read_file(env, path));
  auto span = std::as_bytes(std::span(bytes.data(), bytes.size()));
  bool veloc = !bytes.empty() && kv::veloc::looks_like(span);
  if (format) *format = veloc ? TreeFormat::veloc : TreeFormat::scrpp;
  auto tree = veloc ? kv::veloc::decode(span) : kv::decode(bytes);
  if (!tree) return tree.status().with_context(path);
  return tree;
}

Result<kv::Tree> read_tree_at(File& file, uint64_t offset, uint64_t* end) {
  std::byte env_bytes[kv::kEnvelopeSize];
  Status st = file.pread_exact(env_bytes, sizeof env_bytes, offset);
  // A short file is a damaged header; a failing read is an I/O error and must
  // stay one (callers retry or fail over differently).
  if (!st.ok() && st.code() == Errc::corrupt)
    return Error(Errc::corrupt, file.path() + ": header is truncated");
  SCR_TRY(st);
  auto len = kv::decode_envelope(env_bytes);
  if (!len) return len.status().with_context(file.path());
  SCR_ASSIGN_OR_RETURN(uint64_t fsize, file.size());
  if (offset + kv::kEnvelopeSize + *len > fsize)
    return Error(Errc::corrupt, file.path() + ": header is truncated");
  std::vector<std::byte> payload(*len);
  SCR_TRY(file.pread_exact(payload.data(), payload.size(), offset + kv::kEnvelopeSize));
  auto tree = kv::decode_payload(payload, kv::envelope_payload_crc(env_bytes));
  if (!tree) return tree.status().with_context(file.path());
  if (end) *end = offset + kv::kEnvelopeSize + *len;
  return tree;
}

Status make_dirs(Env& env, const std::string& dir, uint32_t perms, bool private_dir) {
  std::string norm = path::normalize(dir);
  std::string cur = path::is_absolute(norm) ? "/" : "";
  auto not_a_dir = [](const std::string& p, const FileInfo& info) {
    return Error(Errc::permission, p + " exists and is not a directory" +
                                       std::string(info.is_symlink() ? " (symbolic link)" : ""));
  };
  for (const auto& part : str::split(norm, '/')) {
    cur = cur.empty() ? part : path::join(cur, part);
    auto info = env.stat(cur);
    if (info) {
      // A symlinked parent (/home -> /gpfs/home) is fine: it is followed, and
      // a link to a non-directory fails on the next component. Only the
      // final directory must be real; that is checked below.
      if (!info->is_dir() && !(info->is_symlink() && cur != norm)) return not_a_dir(cur, *info);
      continue;
    }
    Status st = env.mkdir(cur, perms);
    if (!st.ok() && !env.exists(cur)) return st;
  }
  // Checked again after the loop: a concurrent creator may have won the race
  // to the last mkdir with something that is not a directory.
  SCR_ASSIGN_OR_RETURN(FileInfo final_info, env.stat(norm));
  if (!final_info.is_dir()) return not_a_dir(norm, final_info);
  return private_dir ? check_own_dir(norm, final_info, true) : Status::Ok();
}

namespace {

// mkdir -p of dir below base, top down; `check` sees each component below
// the base (made here or found) before anything is made inside it.
Status walk_dirs_within(Env& env, const std::string& base, const std::string& dir, uint32_t perms,
                        const std::function<Status(const std::string&, const FileInfo&)>& check) {
  if (!path::is_within(base, dir))
    return Error(Errc::invalid_argument, dir + " is not inside " + base);
  // The base is the user's choice and may be a link (site paths); below it
  // nothing is followed.
  auto base_info = env.stat(base);
  if (!base_info || !base_info->is_symlink()) SCR_TRY(make_dirs(env, base, perms));
  SCR_ASSIGN_OR_RETURN(std::string rel, path::relative_to(base, dir));
  std::string cur = path::normalize(base);
  for (const auto& part : str::split(rel, '/')) {
    if (part == ".") continue;
    cur = path::join(cur, part);
    auto info = env.stat(cur);
    if (!info) {
      Status made = env.mkdir(cur, perms);
      // A concurrent creator may have won: look again either way.
      info = env.stat(cur);
      if (!info) return made.ok() ? info.status() : made;
    }
    if (info->is_symlink())
      return Error(Errc::permission, cur + " is a symbolic link; SCR++ does not follow links inside " + base);
    if (!info->is_dir()) return Error(Errc::permission, cur + " exists and is not a directory");
    SCR_TRY(check(cur, *info));
  }
  return Status::Ok();
}

}  // namespace

std::string link_within(Env& env, const std::string& base, const std::string& dir) {
  auto rel = path::relative_to(base, dir);
  if (!rel) return "";
  std::string cur = path::normalize(base);
  for (const auto& part : str::split(*rel, '/')) {
    if (part == ".") continue;
    cur = path::join(cur, part);
    auto info = env.stat(cur);
    if (!info) return "";
    if (info->is_symlink()) return cur;
  }
  return "";
}

Status make_dirs_within(Env& env, const std::string& base, const std::string& dir, uint32_t perms) {
  return walk_dirs_within(env, base, dir, perms, [](const std::string&, const FileInfo&) { return Status::Ok(); });
}

Status make_own_dirs_within(Env& env, const std::string& base, const std::string& own_top,
                            const std::string& dir, uint32_t perms, bool closed_to_others) {
  if (!path::is_within(own_top, dir))
    return Error(Errc::invalid_argument, dir + " is not inside " + own_top);
  return walk_dirs_within(env, base, dir, perms, [&](const std::string& cur, const FileInfo& info) {
    return path::is_within(own_top, cur) ? check_own_dir(cur, info, closed_to_others) : Status::Ok();
  });
}

Status remove_tree(Env& env, const std::string& p) {
  auto info = env.stat(p);
  if (!info) return info.status().code() == Errc::not_found ? Status::Ok() : info.status();
  if (info->is_dir()) {
    SCR_ASSIGN_OR_RETURN(auto names, env.list_dir(p));
    for (const auto& name : names) SCR_TRY(remove_tree(env, path::join(p, name)));
    return env.rmdir(p);
  }
  return env.unlink(p);
}

void remove_empty_dirs(Env& env, const std::string& dir) {
  auto info = env.stat(dir);
  if (!info || !info->is_dir()) return;
  if (auto names = env.list_dir(dir))
    for (const auto& name : *names) remove_empty_dirs(env, path::join(dir, name));
  (void)env.rmdir(dir);  // fails harmlessly while not empty
}

void remove_emptied_dirs(Env& env, const std::string& top, const std::vector<std::string>& removed_files) {
  const std::string base = path::normalize(top);
  // Every directory between the top and a removed file, each once.
  std::set<std::string> dirs;
  for (const auto& f : removed_files)
    for (std::string d = path::dirname(path::normalize(f)); d != base && path::is_within(base, d); d = path::dirname(d))
      if (!dirs.insert(d).second) break;  // its parents are in already
  remove_dirs_if_empty(env, top, {dirs.begin(), dirs.end()});
}

void remove_dirs_if_empty(Env& env, const std::string& top, const std::vector<std::string>& dirs) {
  const std::string base = path::normalize(top);
  // Shallowest first (a parent's path is a prefix of its children's, so it
  // sorts before them).
  std::set<std::string> wanted;
  for (const auto& d : dirs)
    if (std::string n = path::normalize(d); n != base && path::is_within(base, n)) wanted.insert(n);
  // Each a real directory, and so every one between the top and it, checked
  // from the top down (each looked at once), before anything is removed.
  std::map<std::string, bool> real;
  auto real_all_the_way = [&](const std::string& dir) {
    std::vector<std::string> chain;
    for (std::string d = dir; d != base; d = path::dirname(d)) chain.push_back(d);
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      auto [at, fresh] = real.try_emplace(*it, false);
      if (fresh) {
        auto info = env.stat(*it);
        at->second = info && info->is_dir();
      }
      if (!at->second) return false;
    }
    return true;
  };
  std::vector<std::string> removable;
  for (const auto& d : wanted)
    if (real_all_the_way(d)) removable.push_back(d);
  // Deepest first; one that is not empty fails harmlessly, and so do its parents.
  for (auto it = removable.rbegin(); it != removable.rend(); ++it) (void)env.rmdir(*it);
}

Status remove_file(Env& env, const std::string& p) {
  Status st = env.unlink(p);
  if (!st.ok() && st.code() == Errc::not_found) return Status::Ok();
  return st;
}

namespace {

// Exactly `size` bytes of `in` through `buf`, to `out` when given; a file
// that ends early changed while being read. No read past the end: many
// small files would pay a system call each for it.
Result<uint32_t> stream(File& in, uint64_t size, std::span<char> buf, File* out,
                        const std::function<void(uint64_t)>& progress) {
  uint32_t crc = 0;
  for (uint64_t offset = 0; offset < size;) {
    size_t want = static_cast<size_t>(std::min<uint64_t>(buf.size(), size - offset));
    SCR_ASSIGN_OR_RETURN(size_t got, in.pread(buf.data(), want, offset));
    if (got == 0) return Error(Errc::corrupt, in.path() + " changed size while being read");
    if (out) SCR_TRY(out->pwrite(buf.data(), got, offset));
    crc = crc32c(buf.data(), got, crc);
    offset += got;
    if (progress) progress(offset);
  }
  return crc;
}

}  // namespace

Result<FileInfo> info_of(Env& env, File& f) {
  auto info = f.info();
  if (!info && info.status().code() == Errc::unsupported) return env.stat(f.path());
  return info;
}

Result<uint64_t> copy_file(Env& env, const std::string& src, const std::string& dst,
                           const CopyOptions& options) {
  if (options.piece_size == 0)
    return Error(Errc::invalid_argument, "copy " + src + ": piece size must be positive");
  SCR_ASSIGN_OR_RETURN(auto in, open_in(env, options.src_dir, src, OpenMode::read));
  SCR_ASSIGN_OR_RETURN(FileInfo meta, info_of(env, *in));
  // A destination that does not exist yet is written in place: there is
  // nothing to protect, and a crash leaves a partial file under a name that
  // no flushed dataset lists. One that exists (an older dataset's file of the
  // same name, or anything planted there) is replaced only whole, through a
  // temporary and a rename.
  std::string written = dst;
  // Created with the mode it will get, so that setting it costs nothing.
  uint32_t perms = options.keep_meta ? (meta.mode & 0777) | 0600 : 0600;
  auto out = open_in(env, options.dst_dir, dst, OpenMode::create_excl, perms);
  // Its directory gone: a temporary beside it cannot be made either.
  if (!out && out.status().code() == Errc::not_found) return out.status();
  if (!out) {
    written = temp_name(dst);
    if (options.defer) SCR_TRY(options.defer(written));
    out = open_in(env, options.dst_dir, written, OpenMode::create, perms);
    if (!out) return out.status();
  }
  // Never more than the file needs, and not zeroed: a checkpoint of many
  // small files must not pay for a piece-sized memset per file.
  size_t want = static_cast<size_t>(std::min<uint64_t>(options.piece_size, std::max<uint64_t>(meta.size, 1)));
  std::unique_ptr<char[]> storage(new char[want]);
  auto crc = stream(*in, meta.size, std::span<char>(storage.get(), want), out->get(), options.progress);
  Status st = crc.status();
  if (st.ok() && options.expect_crc32c && *crc != *options.expect_crc32c)
    st = Error(Errc::corrupt, src + " does not match its recorded CRC32C (its content changed)");
  if (st.ok() && options.fsync) st = (*out)->sync();
  if (st.ok() && options.keep_meta) {
    st = (*out)->set_meta(meta);
    if (st.code() == Errc::unsupported) st = env.set_meta(written, meta);
  }
  if (st.ok() && options.written_info) {
    auto info = info_of(env, **out);
    if (info) *options.written_info = *info;
    st = info.status();
  }
  Status closed = (*out)->close();
  if (st.ok()) st = closed;
  if (st.ok() && written != dst && !options.defer) st = env.rename(written, dst);
  if (!st.ok()) {
    (void)env.unlink(written);
    return st;
  }
  // Without this the new name may be lost on power failure, after the
  // caller already recorded the copy as done. (A deferred temporary is
  // made durable by its rename's sync.)
  if (options.fsync && options.sync_dir && written == dst) SCR_TRY(env.sync_dir(path::dirname(dst)));
  if (options.crc32c) *options.crc32c = *crc;
  return meta.size;
}

Result<uint32_t> file_crc32c(Env& env, const std::string& p, size_t piece_size) {
  if (piece_size == 0)
    return Error(Errc::invalid_argument, "checksum " + p + ": piece size must be positive");
  SCR_ASSIGN_OR_RETURN(auto in, env.open(p, OpenMode::read));
  SCR_ASSIGN_OR_RETURN(uint64_t size, in->size());
  return file_crc32c(*in, size, piece_size);
}

Result<uint32_t> file_crc32c(File& file, uint64_t size, size_t piece_size) {
  if (piece_size == 0)
    return Error(Errc::invalid_argument, "checksum " + file.path() + ": piece size must be positive");
  // Sized to the file (small files are common) and not zeroed.
  size_t want = static_cast<size_t>(std::min<uint64_t>(piece_size, std::max<uint64_t>(size, 1)));
  std::unique_ptr<char[]> storage(new char[want]);
  return stream(file, size, std::span<char>(storage.get(), want), nullptr, nullptr);
}

}  // namespace scr::io
