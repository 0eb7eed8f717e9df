#include "harness.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

namespace scr::redset::test {
namespace fs = std::filesystem;

Scratch::Scratch(const mpi::Comm& comm) : comm_(comm) {
  if (comm.rank() == 0) {
    std::string base =
        fs::is_directory("/dev/shm") ? "/dev/shm" : fs::temp_directory_path().string();
    root_ = base + "/scr_redset_test." + std::to_string(::getpid());
    fs::create_directories(root_);
  }
  mpi::bcast_string(comm, root_, 0);
}

Scratch::~Scratch() {
  comm_.barrier();
  if (comm_.rank() == 0) fs::remove_all(root_);
  comm_.barrier();
}

namespace {

void write_file(const std::string& path, const std::string& bytes, uint32_t mode, timespec mtime) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  ::chmod(path.c_str(), mode & 07777);
  timespec times[2] = {mtime, mtime};
  ::utimensat(AT_FDCWD, path.c_str(), times, 0);
}

// Fills bytes, mode and mtime; keeps out->data.
bool read_file(const std::string& path, FileImage* out) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return false;
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  out->bytes = bytes.str();
  out->mode = st.st_mode;
  out->mtime = st.st_mtim;
  return true;
}

std::string random_bytes(std::mt19937_64& rng, uint64_t n) {
  std::string s(n, '\0');
  for (auto& c : s) c = static_cast<char>(rng());
  return s;
}

std::string make_one(const std::string& dir, const std::string& name, uint64_t size,
                     std::mt19937_64& rng) {
  static const uint32_t kModes[] = {0600, 0640, 0644, 0660};
  timespec mtime{static_cast<time_t>(1500000000 + rng() % 100000000),
                 static_cast<long>(rng() % 1000000000)};
  write_file(dir + "/" + name, random_bytes(rng, size), kModes[rng() % 4], mtime);
  return name;
}

}  // namespace

std::vector<std::string> make_files(const std::string& dir, const std::string& prefix,
                                    uint64_t seed) {
  static const int kCounts[] = {0, 1, 2, 3, 5, 9};
  static const uint64_t kSizes[] = {0, 1, 63, 64, 65, 4095, 4096, 4097, 8191};
  std::mt19937_64 rng(seed);
  int count = kCounts[rng() % 6];
  std::vector<std::string> names;
  for (int i = 0; i < count; ++i) {
    uint64_t size = rng() % 3 == 0 ? rng() % 12000 : kSizes[rng() % 9];
    std::string name = prefix + (i % 3 == 2 ? "sub/d" + std::to_string(i % 2) + "/" : "") + "f" +
                       std::to_string(i) + ".dat";
    names.push_back(make_one(dir, name, size, rng));
  }
  return names;
}

std::vector<std::string> make_sized_files(const std::string& dir, const std::string& prefix,
                                          const std::vector<uint64_t>& sizes, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::string> names;
  for (size_t i = 0; i < sizes.size(); ++i)
    names.push_back(make_one(dir, prefix + "f" + std::to_string(i) + ".dat", sizes[i], rng));
  return names;
}

void Member::snapshot(const Set& set) {
  images_.clear();
  for (const auto& f : files_) {
    FileImage img;
    if (read_file(dir_ + "/" + f, &img)) images_[dir_ + "/" + f] = std::move(img);
  }
  FileImage red;
  red.data = false;
  if (read_file(redundancy_file(set, dir_), &red))
    images_[redundancy_file(set, dir_)] = std::move(red);
}

void Member::lose() const {
  for (const auto& [path, img] : images_) ::unlink(path.c_str());
}

void Member::restore() const {
  for (const auto& [path, img] : images_) write_file(path, img.bytes, img.mode, img.mtime);
}

std::string Member::differences() const {
  for (const auto& [path, want] : images_) {
    FileImage got;
    if (!read_file(path, &got)) return path + " is missing";
    if (got.bytes.size() != want.bytes.size())
      return path + " has " + std::to_string(got.bytes.size()) + " bytes, expected " +
             std::to_string(want.bytes.size());
    if (got.bytes != want.bytes) {
      auto first = std::mismatch(got.bytes.begin(), got.bytes.end(), want.bytes.begin()).first;
      return path + " differs from byte " + std::to_string(first - got.bytes.begin()) + " of " +
             std::to_string(got.bytes.size());
    }
    if (!want.data) continue;
    if (got.mode != want.mode) return path + " has a different mode";
    if (got.mtime.tv_sec != want.mtime.tv_sec || got.mtime.tv_nsec != want.mtime.tv_nsec)
      return path + " has a different modification time";
  }
  return "";
}

std::map<std::string, std::string> Member::contents() const {
  std::map<std::string, std::string> out;
  for (const auto& [path, img] : images_) {
    FileImage now;
    out[path] = read_file(path, &now) ? now.bytes : "";
  }
  return out;
}

std::string Member::present() const {
  std::string out;
  for (const auto& [path, img] : images_) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0) out += path + " ";
  }
  std::error_code ec;
  for (const auto& entry : fs::recursive_directory_iterator(dir_, ec))
    if (entry.path().string().find(".redset-tmp") != std::string::npos)
      out += entry.path().string() + " ";
  return out;
}

void flip_byte(const std::string& path, uint64_t at) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekg(static_cast<std::streamoff>(at));
  char c = 0;
  f.get(c);
  f.seekp(static_cast<std::streamoff>(at));
  f.put(static_cast<char>(c ^ 0x5a));
}

}  // namespace scr::redset::test
