// scr_inspect: print the metadata tree at the start of an SCR++ file -- the
// header of a redundancy file, a filemap, an index -- in the indented text
// layout of the seeds. Every file is checked (magic, version, checksums,
// length) before anything of it is printed; a damaged file is named with the
// reason and makes the exit status 1.
#include <cstdio>
#include <string>
#include <vector>

#include "io/env.hpp"
#include "io/files.hpp"
#include "kvtree/codec.hpp"

namespace {

using namespace scr;

constexpr const char* kUsage =
    "usage: scr_inspect FILE...\n"
    "Print the metadata tree stored at the start of each SCR++ file (redundancy\n"
    "file header, filemap, index, ...) as indented text. For a redundancy file\n"
    "the size of the data after the header is noted as well.\n"
    "Exit status: 0 when every file is intact, 1 when any is damaged or\n"
    "unreadable, 2 on a usage error.\n";

// The text for one file, or why it cannot be trusted.
Result<std::string> inspect(io::Env& env, const std::string& path) {
  SCR_ASSIGN_OR_RETURN(auto file, env.open(path, io::OpenMode::read));
  uint64_t end = 0;
  SCR_ASSIGN_OR_RETURN(kv::Tree tree, io::read_tree_at(*file, 0, &end));
  SCR_ASSIGN_OR_RETURN(uint64_t size, file->size());
  std::string text = kv::to_text(tree);
  if (size > end)
    text += "# followed by " + std::to_string(size - end) + " bytes of data from offset " +
            std::to_string(end) + "\n";
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    if (arg.size() > 1 && arg[0] == '-' && arg != "--") {
      std::fprintf(stderr, "scr_inspect: unknown option %s\n%s", arg.c_str(), kUsage);
      return 2;
    }
    if (arg != "--") paths.push_back(arg);
  }
  if (paths.empty()) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  int status = 0;
  for (const auto& path : paths) {
    auto text = inspect(io::Env::posix(), path);
    if (!text.ok()) {
      std::fprintf(stderr, "scr_inspect: %s: %s\n", path.c_str(), text.status().to_string().c_str());
      status = 1;
      continue;
    }
    if (paths.size() > 1) std::printf("==> %s <==\n", path.c_str());
    std::fputs(text->c_str(), stdout);
  }
  return status;
}
