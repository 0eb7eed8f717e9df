#include "dir_image.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace scr::redset::test {
namespace fs = std::filesystem;

namespace {

FileState read_state(const fs::path& path) {
  struct stat st {};
  ::lstat(path.c_str(), &st);
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return {bytes.str(), st.st_mode, st.st_mtim};
}

bool is_redundancy_file(const std::string& rel) {
  return rel.size() > 7 && rel.compare(rel.size() - 7, 7, ".redset") == 0;
}

}  // namespace

DirImage take_image(const std::string& dir) {
  DirImage image;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    if (entry.is_regular_file())
      image[fs::relative(entry.path(), dir).string()] = read_state(entry.path());
  return image;
}

void restore_image(const std::string& dir, const DirImage& image) {
  fs::remove_all(dir);
  for (const auto& [rel, state] : image) {
    fs::path path = fs::path(dir) / rel;
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary | std::ios::trunc)
        .write(state.bytes.data(), static_cast<std::streamsize>(state.bytes.size()));
    ::chmod(path.c_str(), state.mode & 07777);
    timespec times[2] = {state.mtime, state.mtime};
    ::utimensat(AT_FDCWD, path.c_str(), times, 0);
  }
}

std::string image_differences(const std::string& dir, const DirImage& want) {
  DirImage got = take_image(dir);
  for (const auto& [rel, state] : got)
    if (!want.count(rel)) return rel + " should not be there";
  for (const auto& [rel, state] : want) {
    auto it = got.find(rel);
    if (it == got.end()) return rel + " is missing";
    if (it->second.bytes != state.bytes) return rel + " has other bytes";
    if (is_redundancy_file(rel)) continue;
    if (it->second.mode != state.mode) return rel + " has another mode";
    if (it->second.mtime.tv_sec != state.mtime.tv_sec ||
        it->second.mtime.tv_nsec != state.mtime.tv_nsec)
      return rel + " has another modification time";
  }
  return "";
}

}  // namespace scr::redset::test
