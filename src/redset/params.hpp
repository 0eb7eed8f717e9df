// A redundancy scheme and its parameters: the model the configuration's
// redundancy descriptors (runtime/config/descriptors.hpp) carry and the redundancy
// sets (set.hpp) are built from. No MPI here, so the configuration layer can
// use it.
#pragma once

#include <cstddef>
#include <string>

#include "common/status.hpp"

namespace scr::redset {

enum class Scheme { single, partner, xor_code, rs };

const char* scheme_name(Scheme s);        // "SINGLE", "PARTNER", "XOR", "RS"
const char* scheme_file_tag(Scheme s);    // "single", "partner", "xor", "rs"
Result<Scheme> parse_scheme(const std::string& name);  // case-insensitive

struct Params {
  Scheme scheme = Scheme::xor_code;
  int set_size = 8;   // minimum processes per set (SET_SIZE)
  int failures = 2;   // RS: checksum blocks k (SET_FAILURES)
  int replicas = 1;   // PARTNER: copies on the next processes of the ring
  size_t piece_size = 1 << 20;
};

}  // namespace scr::redset
