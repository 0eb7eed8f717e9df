// scr_e2e_tool: the end-to-end scripts' window into SCR++'s binary metadata.
//
//   scr_e2e_tool halt PREFIX KEY=VALUE...   write <prefix>/.scr/halt.scr with
//                                            these keys (replaces the file)
//   scr_e2e_tool index PREFIX               one line per dataset of the prefix
//                                            index, then "current=<name>":
//     id=3 name=step.30 ckpt=3 flags=1 complete=1 flushed=1 failed=0 loadable=1
//   scr_e2e_tool dump FILE                  any metadata file as indented text
//
// It goes through the runtime's own readers and writers (rt::write_halt,
// rt::PrefixIndex), so the scripts check what the library itself sees.
#include <cstdio>
#include <string>

#include "io/env.hpp"
#include "io/files.hpp"
#include "kvtree/codec.hpp"
#include "runtime/prefix/halt_file.hpp"
#include "runtime/prefix/prefix_index.hpp"

namespace {

int usage() {
  std::fprintf(stderr,
               "usage: scr_e2e_tool halt PREFIX KEY=VALUE...\n"
               "       scr_e2e_tool index PREFIX\n"
               "       scr_e2e_tool dump FILE\n");
  return 2;
}

int fail(const scr::Status& st) {
  std::fprintf(stderr, "scr_e2e_tool: %s\n", st.message().c_str());
  return 1;
}

int halt(const std::string& prefix, int argc, char** argv) {
  scr::kv::Tree t;
  for (int i = 0; i < argc; ++i) {
    std::string item = argv[i];
    auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0) {
      std::fprintf(stderr, "scr_e2e_tool: '%s' is not KEY=VALUE\n", item.c_str());
      return 2;
    }
    t.set(item.substr(0, eq), item.substr(eq + 1));
  }
  scr::Status st = scr::rt::write_halt(scr::io::Env::posix(), prefix, t);
  return st.ok() ? 0 : fail(st);
}

int index(const std::string& prefix) {
  auto idx = scr::rt::PrefixIndex::load(scr::io::Env::posix(), prefix);
  if (!idx) return fail(idx.status());
  for (int id : idx->ids()) {
    const scr::kv::Tree* e = idx->find(id);
    std::printf("id=%d name=%s ckpt=%s flags=%s complete=%d flushed=%d failed=%d loadable=%d\n", id,
                e->value_or("NAME", "").c_str(), e->value_or("CKPT", "0").c_str(),
                e->value_or("FLAGS", "0").c_str(), e->int_or("COMPLETE", 0) != 0 ? 1 : 0,
                e->int_or("FLUSHED", 0) != 0 ? 1 : 0, idx->failed(id) ? 1 : 0,
                idx->loadable(id) ? 1 : 0);
  }
  std::printf("current=%s\n", idx->current().c_str());
  return 0;
}

int dump(const std::string& file) {
  auto t = scr::io::read_tree(scr::io::Env::posix(), file);
  if (!t) return fail(t.status());
  std::fputs(scr::kv::to_text(*t).c_str(), stdout);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) return usage();
  std::string cmd = argv[1];
  if (cmd == "halt") return halt(argv[2], argc - 3, argv + 3);
  if (cmd == "index" && argc == 3) return index(argv[2]);
  if (cmd == "dump" && argc == 3) return dump(argv[2]);
  return usage();
}
