#include "runtime/config/params_values.hpp"

#include <cctype>

#include "common/strings.hpp"
#include "io/path.hpp"

namespace scr::rt {
namespace {

bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
}

bool is_name(std::string_view s) {
  if (s.empty() || s == "." || s == "..") return false;
  for (char c : s)
    if (!is_name_char(c)) return false;
  return true;
}

std::string range_reason(int64_t min, int64_t max) {
  if (min != std::numeric_limits<int64_t>::min() && max != std::numeric_limits<int64_t>::max())
    return "must be between " + std::to_string(min) + " and " + std::to_string(max);
  if (min != std::numeric_limits<int64_t>::min()) return "must be >= " + std::to_string(min);
  return "must be <= " + std::to_string(max);
}

std::string choices_text(std::string_view choices) {
  std::string out;
  for (const auto& c : str::split(choices, '|')) out += (out.empty() ? "" : ", ") + c;
  return out;
}

// The reason a value is rejected, or the canonical value.
Result<std::string> canonical(const ValueSpec& spec, const std::string& v) {
  auto bad = [](std::string reason) { return Error(Errc::invalid_argument, std::move(reason)); };
  switch (spec.type) {
    case ValueType::integer: {
      auto n = str::parse_int(v);
      if (!n) return bad("not an integer");
      if (*n < spec.min || *n > spec.max) return bad(range_reason(spec.min, spec.max));
      return std::to_string(*n);
    }
    case ValueType::boolean: {
      auto b = str::parse_bool(v);
      if (!b) return bad("not a boolean (0 or 1; yes/no, true/false and on/off are accepted too)");
      return std::string(*b ? "1" : "0");
    }
    case ValueType::bytes: {
      auto n = str::parse_bytes(v);
      if (!n) return bad("not a byte count (e.g. 4096, 64KB, 1MB, 2GB)");
      if (*n > static_cast<uint64_t>(spec.max) || static_cast<int64_t>(*n) < spec.min)
        return bad(range_reason(spec.min, spec.max) + " bytes");
      return v;
    }
    case ValueType::seconds: {
      auto d = str::parse_double(v);
      // str::parse_double accepts only non-negative decimals.
      if (!d) return bad("not a number of seconds (a decimal >= 0)");
      // The cap keeps conversions to integer seconds defined; it is 31,000 years.
      if (*d > 1e12) return bad("must be between 0 and 1e12");
      return v;
    }
    case ValueType::percent: {
      auto d = str::parse_double(v);
      if (!d) return bad("not a percentage (a decimal between 0 and 100)");
      if (*d > 100) return bad("must be a percentage between 0 and 100");
      return v;
    }
    case ValueType::string:
      return v;
    case ValueType::path: {
      // "a /" normalizes to "a ": a blank at either end is a typo, not a directory.
      std::string path = io::path::normalize(v);
      if (str::trim(path) != path) return bad("a path must not begin or end with a blank");
      return path;
    }
    case ValueType::choice: {
      std::string upper = str::to_upper(v);
      for (const auto& c : str::split(spec.choices, '|'))
        if (c == upper) return upper;
      return bad("must be one of " + choices_text(spec.choices));
    }
    case ValueType::name_list: {
      std::string out;
      for (const auto& part : str::split(v, ',', false)) {
        std::string name = str::trim(part);
        if (!is_name(name)) return bad("'" + name + "' is not a valid name in a comma-separated list");
        out += (out.empty() ? "" : ",") + name;
      }
      return out;
    }
    case ValueType::name:
      if (!is_name(v)) return bad("not a name (letters, digits, '_', '-', '.')");
      return v;
  }
  return bad("unknown value type");
}

}  // namespace

const char* value_type_name(ValueType type) {
  switch (type) {
    case ValueType::integer: return "integer";
    case ValueType::boolean: return "boolean";
    case ValueType::bytes: return "byte count";
    case ValueType::seconds: return "seconds";
    case ValueType::percent: return "percent";
    case ValueType::string: return "string";
    case ValueType::path: return "path";
    case ValueType::choice: return "choice";
    case ValueType::name_list: return "name list";
    case ValueType::name: return "name";
  }
  return "?";
}

Result<std::string> check_value(std::string_view label, const ValueSpec& spec,
                                std::string_view raw) {
  std::string v = str::trim(raw);
  auto fail = [&](const std::string& reason) {
    return Error(Errc::invalid_argument,
                 std::string(label) + "=" + std::string(raw) + ": " + reason);
  };
  if (v.empty()) return fail("empty value");
  // Control characters (a stray CR, NUL, escape codes) are never meant.
  for (char c : v)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return fail("contains a control character");
  auto r = canonical(spec, v);
  if (!r) return fail(r.status().message());
  return r;
}

}  // namespace scr::rt
