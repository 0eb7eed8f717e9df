#include "tools/scr_index/dataset_files.hpp"

#include <cstdio>
#include <memory>
#include <vector>

#include "common/crc32c.hpp"
#include "io/files.hpp"
#include "io/path.hpp"
#include "runtime/prefix/prefix_index.hpp"
#include "tools/common/progress.hpp"

namespace scr::tools::index_cmd {
namespace {

std::string hex32(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

// CRC32C of a file, streamed in pieces that also feed the progress report.
Result<uint32_t> crc_with_progress(io::Env& env, const std::string& path, Progress& progress) {
  SCR_ASSIGN_OR_RETURN(auto file, env.open(path, io::OpenMode::read));
  std::vector<unsigned char> buf(io::kDefaultPieceSize);
  uint32_t crc = 0;
  for (uint64_t off = 0;;) {
    SCR_ASSIGN_OR_RETURN(size_t n, file->pread(buf.data(), buf.size(), off));
    if (n == 0) break;
    crc = crc32c(buf.data(), n, crc);
    off += n;
    progress.add(n);
  }
  return crc;
}

// A sentence describing what is wrong with one file, or "".
std::string size_problem(io::Env& env, const std::string& path, const SummaryFile& f) {
  auto info = env.stat(path);
  if (!info) return f.name + " is missing";
  if (!info->is_regular()) return f.name + " is not a regular file";
  if (info->size != f.size)
    return f.name + " has " + std::to_string(info->size) + " bytes, the summary says " +
           std::to_string(f.size);
  return "";
}

}  // namespace

FileCheck check_dataset_files(io::Env& env, const std::string& prefix, int id,
                              const Summary& summary) {
  FileCheck out;
  Progress progress("verifying " + summary.info.name, summary.bytes());
  for (const auto& rank : summary.per_rank) {
    for (const auto& f : rank.files) {
      ++out.files;
      std::string path = io::path::join(prefix, f.name);
      if (io::path::is_absolute(f.name) || !io::path::is_within(prefix, path)) {
        out.problems.push_back(f.name + " names a place outside the prefix");
        continue;
      }
      if (std::string p = size_problem(env, path, f); !p.empty()) {
        out.problems.push_back(p);
        continue;
      }
      out.bytes += f.size;
      if (!f.crc) continue;
      auto crc = crc_with_progress(env, path, progress);
      if (!crc)
        out.problems.push_back(f.name + " cannot be read: " + crc.status().message());
      else if (*crc != *f.crc)
        out.problems.push_back(f.name + " fails its CRC32C check (" + hex32(*crc) +
                               ", the summary says " + hex32(*f.crc) + ")");
      else
        ++out.crcs;
    }
    for (const auto& f : rank.redundancy) {
      // A plain name: the summary's codec refuses any other.
      std::string path = io::path::join(rt::prefix_dataset_dir(prefix, id), f.name);
      if (std::string p = size_problem(env, path, f); !p.empty())
        out.redundancy_problems.push_back("redundancy file " + p);
    }
  }
  progress.finish();
  return out;
}

}  // namespace scr::tools::index_cmd
