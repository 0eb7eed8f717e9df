// What every fuzz target here checks the same way: a broken invariant
// aborts, which libFuzzer (and the replay in tests/fuzz) reports as a crash;
// an input that is refused must be refused with the expected error code and
// a message.
#pragma once

#include <cstdio>
#include <cstdlib>

#include "common/status.hpp"

namespace scr::fuzz {

[[noreturn]] inline void fail(const char* target, const char* what) {
  std::fprintf(stderr, "%s: %s\n", target, what);
  std::abort();
}

inline void check_refusal(const char* target, const Status& st, Errc expected) {
  if (st.code() != expected) fail(target, "an input was refused with an unexpected error code");
  if (st.message().empty()) fail(target, "an input was refused without a message");
}

}  // namespace scr::fuzz
