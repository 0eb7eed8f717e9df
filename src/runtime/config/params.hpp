// The registry of every configuration key SCR++ knows: its value kind,
// built-in default and a one-line description. Two kinds of keys exist:
//   - parameters: SCR_FLUSH=10, one value each;
//   - tables: multi-item lines that define descriptors, keyed by a head value,
//     e.g. "CKPT=0 TYPE=RS SET_SIZE=8" (table CKPT, head 0, items TYPE, SET_SIZE).
// Adding a key is one line in params.cpp; docs/config.md lists them all.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/config/params_values.hpp"

namespace scr::rt {

struct ParamSpec {
  std::string_view name;
  ValueSpec value;
  std::string_view default_value;  // empty: no default (unset unless configured)
  std::string_view doc;
  bool env_only = false;           // read from the environment only (never from files)
  // Non-empty for an SCR parameter SCR++ accepts but that has no effect here:
  // why. SCR_Init warns once when the user sets it.
  std::string_view no_effect = {};
};

struct ItemSpec {
  std::string_view name;
  ValueSpec value;
  std::string_view doc;
  // As ParamSpec::no_effect, for an item of SCR's that does nothing here.
  std::string_view no_effect = {};
};

struct TableSpec {
  std::string_view name;      // CKPT, STORE, GROUPS
  ValueSpec head;             // kind of the value after NAME=
  std::span<const ItemSpec> items;
  // Item names are chosen by the user (GROUPS=host POWER=psu1): any name that
  // is not in `reserved_items` is accepted, with `open_item_value` as its kind.
  bool open_items = false;
  ValueSpec open_item_value = {};
  std::span<const std::string_view> reserved_items = {};
  std::string_view doc;
};

std::span<const ParamSpec> all_params();
std::span<const TableSpec> all_tables();
const ParamSpec* find_param(std::string_view name);
const TableSpec* find_table(std::string_view name);

// Whether `item` is an item SCR++ knows in `table` (every name of an open
// table counts, its reserved ones included). Unknown items are kept as given.
bool knows_item(const TableSpec& table, std::string_view item);
// The value kind of an item; errors for unknown or reserved item names
// ("CKPT=0: unknown item 'FOO' (known: ...)").
Result<ValueSpec> item_value_spec(const TableSpec& table, std::string_view head,
                                  std::string_view item);
// Validates one item of a table line and returns its canonical value. Errors
// name the table entry and the item: "CKPT=0 TYPE=FOO: must be one of ...".
Result<std::string> check_item(const TableSpec& table, std::string_view head,
                               std::string_view item, std::string_view raw);

// Names among `env_names` that look like SCR settings (SCR_ prefix) but are not
// known parameters. The runtime prints them as a warning: a typo such as
// SCR_FLUSH_ASYNCH would otherwise be silently ignored.
std::vector<std::string> unknown_scr_env_names(const std::vector<std::string>& env_names);

// " (did you mean SCR_FLUSH_ASYNC?)" when a known parameter or table name is
// within a few edits of `key`, else "": appended to unknown-key messages.
std::string did_you_mean(std::string_view key);
// "unknown key 'X'" with the suggestion, for every layer that reads keys.
Status unknown_key(std::string_view key);

}  // namespace scr::rt
