// libFuzzer target for the restart file table (runtime/prefix/restart_table.hpp,
// docs/formats/prefix.md#the-restart-file-table), which every process of a
// restart reads from the prefix. The input is a whole table file. Opening
// it and reading any file by position, by name and by last component must
// either refuse it with Errc::corrupt and a message, or give files whose
// writer is below WRITERS and whose listing position is the one asked for
// (or, found by name, below FILES) with the name asked for. Any mismatch
// aborts.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_checks.hpp"
#include "io/env.hpp"
#include "io/path.hpp"
#include "runtime/prefix/restart_table.hpp"

namespace {

[[noreturn]] void fail(const char* what) { scr::fuzz::fail("restart_table_fuzz", what); }

void check_refusal(const scr::Status& st) { scr::fuzz::check_refusal("restart_table_fuzz", st, scr::Errc::corrupt); }

void check_file(const scr::rt::RestartTable& t, const scr::rt::TableFile& f) {
  if (f.rank < 0 || f.rank >= t.writers()) fail("a file's writer is outside the table's writers");
  if (f.index >= t.size()) fail("a file's listing position is outside the table");
}

// Reads the table the ways a restart does; stops at the first refusal.
void read_all(scr::rt::RestartTable& t) {
  const uint64_t n = t.size() < 4096 ? t.size() : 4096;
  for (uint64_t i = 0; i < n; ++i) {
    auto f = t.at(i);
    if (!f) return check_refusal(f.status());
    check_file(t, *f);
    if (f->index != i) fail("a listed file has another position than the one asked for");
    if (!t.has_lookups()) continue;
    auto found = t.find(f->name);
    if (!found) return check_refusal(found.status());
    if (*found) {
      check_file(t, **found);
      if ((*found)->name != f->name) fail("a lookup by name gave another name");
    }
    auto based = t.with_basename(scr::io::path::basename(f->name));
    if (!based) return check_refusal(based.status());
    for (const auto& name : *based)
      if (scr::io::path::basename(name) != scr::io::path::basename(f->name))
        fail("a lookup by last component gave another last component");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = "/dev/shm/restart_table_fuzz." + std::to_string(::getpid());
  scr::io::Env& env = scr::io::Env::posix();
  // Written plainly, not made durable: the table is read back at once.
  auto scratch = env.open(path, scr::io::OpenMode::create);
  if (!scratch || !(*scratch)->pwrite(data, size, 0).ok() || !(*scratch)->close().ok())
    fail("could not write the input to a scratch file");
  auto table = scr::rt::RestartTable::open(env, path);
  if (table) read_all(*table);
  else check_refusal(table.status());
  (void)env.unlink(path);
  return 0;
}
