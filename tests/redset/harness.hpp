// Test scaffolding for the redundancy schemes: scratch directories, random
// datasets, and snapshots to prove a rebuild bit-exact (or a refusal
// harmless). Files are handled with plain POSIX calls, independent of the
// io::Env code under test.
#pragma once

#include <cstdint>
#include <ctime>
#include <map>
#include <string>
#include <vector>

#include "mpi/comm.hpp"
#include "redset/redset.hpp"

namespace scr::redset::test {

// A directory tree shared by the ranks of a test, removed at the end.
class Scratch {
 public:
  explicit Scratch(const mpi::Comm& comm);
  ~Scratch();
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  // Node-local storage of a simulated node.
  std::string node_dir(const std::string& node) const { return root_ + "/" + node; }

 private:
  const mpi::Comm& comm_;
  std::string root_;
};

struct FileImage {
  std::string bytes;
  uint32_t mode = 0;
  timespec mtime{};
  bool data = true;  // data files keep mode and times; a redundancy file its bytes
};

// One rank's part of a dataset: its files, its redundancy file, and what they
// held right after apply.
class Member {
 public:
  Member(std::string dir, std::vector<std::string> files)
      : dir_(std::move(dir)), files_(std::move(files)) {}
  const std::string& dir() const { return dir_; }
  const std::vector<std::string>& files() const { return files_; }
  // Remember data files and the redundancy file of `set` as they are now.
  void snapshot(const Set& set);
  // Delete the data files and the redundancy file (a lost node's cache).
  void lose() const;
  void restore() const;
  // Empty when every file is back exactly: bytes of all, and size, mode and
  // mtime of data files.
  std::string differences() const;
  // Empty when none of the files exists (nothing was written for a refused loss).
  std::string present() const;
  // Current bytes of the snapshot's files ("" for absent ones), to prove that
  // a refused recovery left damaged files exactly as damaged.
  std::map<std::string, std::string> contents() const;
  const std::map<std::string, FileImage>& images() const { return images_; }

 private:
  std::string dir_;
  std::vector<std::string> files_;
  std::map<std::string, FileImage> images_;  // absolute path -> content
};

// Random files for one rank, fixed by seed: none, one, or many (more than
// there are ranks), of 0 bytes, 1 byte, around alignment boundaries and
// larger than several pieces, some in subdirectories, with varied modes and
// old modification times so metadata restores are visible.
// Names are relative to dir and start with `prefix` (ranks sharing a node
// directory use "rank<r>/").
std::vector<std::string> make_files(const std::string& dir, const std::string& prefix,
                                    uint64_t seed);

// Files of exactly these sizes, random content.
std::vector<std::string> make_sized_files(const std::string& dir, const std::string& prefix,
                                          const std::vector<uint64_t>& sizes, uint64_t seed);

// Damage one byte of a file in place (XOR with 0x5a).
void flip_byte(const std::string& path, uint64_t at);

}  // namespace scr::redset::test
