// Directories held open (Env::open_dir) and the choice between a held
// directory and a full path (open_in, stat_in).
#include <string_view>

#include "io/env.hpp"
#include "io/path.hpp"

namespace scr::io {

namespace {

// Env's default: every name goes through the Env by its full path.
class PathDir final : public Dir {
 public:
  PathDir(Env& env, std::string path) : env_(env), path_(std::move(path)) {}
  const std::string& path() const override { return path_; }
  Result<std::unique_ptr<File>> open(const std::string& name, OpenMode mode, uint32_t perms) override {
    return env_.open(path::join(path_, name), mode, perms);
  }
  Result<FileInfo> stat(const std::string& name) override { return env_.stat(path::join(path_, name)); }

 private:
  Env& env_;
  std::string path_;
};

// The part of `p` below `dir`, or empty when p is not plainly below it: a
// path with ".", ".." or empty components goes by its full path, as before.
// The part is never absolute ("base//etc" would otherwise give "/etc", which
// openat resolves from the root, not from the directory).
std::string_view below(const Dir& dir, std::string_view p) {
  std::string_view base = dir.path();
  while (base.size() > 1 && base.back() == '/') base.remove_suffix(1);
  // No directory at all: every path goes by its own name (an absolute one
  // would otherwise lose its leading '/').
  if (base.empty()) return {};
  if (p.size() <= base.size() + 1 || p.compare(0, base.size(), base) != 0 || p[base.size()] != '/') return {};
  std::string_view rest = p.substr(base.size() + 1);
  if (rest.front() == '/' || !path::is_normal(rest)) return {};
  return rest;
}

}  // namespace

Result<std::unique_ptr<Dir>> Env::open_dir(const std::string& path) {
  return std::unique_ptr<Dir>(std::make_unique<PathDir>(*this, path));
}

Result<std::unique_ptr<File>> open_in(Env& env, Dir* dir, const std::string& path, OpenMode mode, uint32_t perms) {
  if (dir) {
    std::string_view rest = below(*dir, path);
    if (!rest.empty()) return dir->open(std::string(rest), mode, perms);
  }
  return env.open(path, mode, perms);
}

Result<FileInfo> stat_in(Env& env, Dir* dir, const std::string& path) {
  if (dir) {
    std::string_view rest = below(*dir, path);
    if (!rest.empty()) return dir->stat(std::string(rest));
  }
  return env.stat(path);
}

std::unique_ptr<Dir> held_dir(Env& env, const std::string& path) {
  auto d = env.open_dir(path);
  return d ? std::move(*d) : nullptr;
}

}  // namespace scr::io
