// Syntax of one configuration line, shared by config files and SCR_Config:
//   KEY                         (query, SCR_Config only)
//   KEY=VALUE   KEY = VALUE     (parameter; the value is the rest of the line)
//   KEY=                        (unset, SCR_Config only)
//   TABLE=HEAD ITEM=VALUE ...   (table entry, e.g. CKPT=0 TYPE=RS SET_SIZE=8)
//   TABLE=HEAD ITEM             (query of one item, SCR_Config only)
// Only the shape is checked here; which keys exist and which values are valid
// is decided by the registry (params.hpp) when the line is applied.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.hpp"

namespace scr::rt {

struct ConfigItem {
  std::string name;
  std::optional<std::string> value;  // nullopt: the bare item name (a query)
};

struct ConfigLine {
  std::string key;
  std::optional<std::string> value;  // nullopt: bare key (a query); "" after "KEY="
  bool is_table = false;             // key names a table (CKPT, STORE, GROUPS)
  std::vector<ConfigItem> items;     // table entries only
  // "SCR_FLUSH" and "CKPT=0 TYPE" ask; anything with a value to give sets.
  bool is_query() const {
    if (!value) return true;
    for (const auto& item : items)
      if (!item.value) return true;
    return false;
  }
};

// Comments must already be removed. Errors describe the shape problem
// ("expected '=' after SCR_FLUSH").
Result<ConfigLine> parse_config_line(std::string_view text);

}  // namespace scr::rt
