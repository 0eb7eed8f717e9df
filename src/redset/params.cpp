#include "redset/params.hpp"

#include "common/strings.hpp"

namespace scr::redset {

const char* scheme_name(Scheme s) {
  switch (s) {
    case Scheme::single: return "SINGLE";
    case Scheme::partner: return "PARTNER";
    case Scheme::xor_code: return "XOR";
    case Scheme::rs: return "RS";
  }
  return "?";
}

const char* scheme_file_tag(Scheme s) {
  switch (s) {
    case Scheme::single: return "single";
    case Scheme::partner: return "partner";
    case Scheme::xor_code: return "xor";
    case Scheme::rs: return "rs";
  }
  return "?";
}

Result<Scheme> parse_scheme(const std::string& name) {
  std::string n = str::to_upper(name);
  if (n == "SINGLE") return Scheme::single;
  if (n == "PARTNER") return Scheme::partner;
  if (n == "XOR") return Scheme::xor_code;
  if (n == "RS") return Scheme::rs;
  return Error(Errc::invalid_argument,
               "unknown redundancy scheme '" + name + "' (use SINGLE, PARTNER, XOR or RS)");
}

}  // namespace scr::redset
