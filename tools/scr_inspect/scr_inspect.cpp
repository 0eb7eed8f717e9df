// scr_inspect: print SCR++ metadata in readable form. A FILE is shown as the
// metadata tree at its start -- the header of a redundancy file, a filemap,
// an index -- in SCR's indented text layout. A DIRECTORY is
// recognised as a prefix, a control or a cache directory (or a base
// directory holding them) and described (views.hpp). Everything is checked
// (magic, version, checksums, length) before it is printed; what is damaged
// is named with the reason and makes the exit status 1.
#include <sys/stat.h>

#include <cstdio>
#include <string>
#include <vector>

#include "common/json.hpp"
#include "io/env.hpp"
#include "tools/common/args.hpp"
#include "tools/scr_inspect/views.hpp"

namespace {

using namespace scr;
using namespace scr::tools;

// Exit codes predate the shared set in tools/common/cli.hpp and scripts
// rely on them, so they stay.
constexpr int kOk = 0, kDamaged = 1, kUsage = 2;

const OptionSpec kOptions[] = {
    {"--json", OptionSpec::flag, "", "print JSON instead of text"},
    {"--help", OptionSpec::flag, "", "show this help"},
    {"-h", OptionSpec::flag, "", "the same as --help"},
};

std::string usage() {
  return "usage: scr_inspect [--json] FILE|DIRECTORY...\n"
         "Print the metadata tree stored at the start of each SCR++ file (redundancy\n"
         "file header, filemap, index, ...) as indented text. For a redundancy file\n"
         "the size of the data after the header is noted as well.\n"
         "A directory is described by what it is:\n"
         "  prefix (has .scr/)        the index as a table, and each flushed dataset's\n"
         "                            summary: files per rank, sizes, CRC32C, redundancy files\n"
         "  control (filemap_<r>.scr) each rank's filemap: datasets, files, flags,\n"
         "                            recorded CRCs, redundancy descriptors\n"
         "  cache (scr.dataset.<id>/) each dataset directory's files with sizes, and a\n"
         "                            summary of every redundancy file's header\n"
         "A base directory (SCR_CACHE_BASE, SCR_CNTL_BASE, a simulated node's) is searched\n"
         "up to 3 levels down for these.\n\n"
         "Options:\n" +
         options_help(kOptions) +
         "\nExit status: 0 when everything is intact, 1 when anything is damaged,\n"
         "unreadable or not SCR++ metadata, 2 on a usage error.\n";
}

inspect::Report inspect_path(io::Env& env, const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    return inspect::inspect_directory(env, path);
  return inspect::inspect_file(env, path);
}

}  // namespace

int main(int argc, char** argv) {
  auto args = parse_args(kOptions, argc, argv);
  if (!args) {
    std::fprintf(stderr, "scr_inspect: %s\n%s", args.status().message().c_str(), usage().c_str());
    return kUsage;
  }
  if (args->has("--help") || args->has("-h")) {
    std::fputs(usage().c_str(), stdout);
    return kOk;
  }
  const auto& paths = args->positional();
  if (paths.empty()) {
    std::fputs(usage().c_str(), stderr);
    return kUsage;
  }
  bool json = args->has("--json");
  int status = kOk;
  std::vector<Json> docs;
  for (const auto& path : paths) {
    inspect::Report r = inspect_path(io::Env::posix(), path);
    for (const auto& p : r.problems) std::fprintf(stderr, "scr_inspect: %s\n", p.c_str());
    if (!r.problems.empty()) status = kDamaged;
    if (json) {
      docs.push_back(std::move(r.json));
      continue;
    }
    if (r.text.empty()) continue;
    if (paths.size() > 1) std::printf("==> %s <==\n", path.c_str());
    std::fputs(r.text.c_str(), stdout);
  }
  if (json) {
    // One path: its object; several: an array in the order given.
    Json out = Json::array();
    if (docs.size() == 1)
      out = std::move(docs.front());
    else
      for (auto& d : docs) out.push(std::move(d));
    std::printf("%s\n", out.dump().c_str());
  }
  return status;
}
