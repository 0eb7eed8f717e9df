// Value kinds of configuration parameters and the one place that checks a raw
// text value against its kind. Every layer (environment, files, SCR_Config,
// a broadcast tree) goes through check_value, so a value is validated and put
// in canonical form exactly once, and error messages read the same everywhere.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "common/status.hpp"

namespace scr::rt {

enum class ValueType {
  integer,    // base-10 integer within [min, max]
  boolean,    // 0/1 (also yes/no, true/false, on/off); canonical "0" or "1"
  bytes,      // byte count with optional unit (64MB, 2GiB) within [min, max]
  seconds,    // non-negative decimal number of seconds
  percent,    // decimal number in [0, 100]
  string,     // any non-empty text
  path,       // non-empty path, lexically normalized
  choice,     // one of `choices` ("A|B|C"), case-insensitive; canonical upper case
  name_list,  // comma-separated names usable as directory names (a,b,c)
  name,       // one identifier: letters, digits, '_', '-', '.'
};

struct ValueSpec {
  ValueType type = ValueType::string;
  int64_t min = std::numeric_limits<int64_t>::min();  // integer and bytes only
  int64_t max = std::numeric_limits<int64_t>::max();
  std::string_view choices = {};                      // choice only, '|' separated
};

// Short human name of a kind ("integer", "byte count", ...), for docs and errors.
const char* value_type_name(ValueType type);

// Validates `raw` (already trimmed of surrounding blanks by the caller or not)
// and returns its canonical text. On error the message is
// "<label>=<raw>: <reason>", e.g. "SCR_CACHE_SIZE=abc: not an integer".
Result<std::string> check_value(std::string_view label, const ValueSpec& spec,
                                std::string_view raw);

}  // namespace scr::rt
