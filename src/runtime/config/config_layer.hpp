// One source of configuration (environment, a config file, SCR_Config calls,
// built-in defaults): validated values plus the file line each came from, so
// later messages can say where a setting was made. Values are stored in
// canonical form as a kv::Tree:
//   SCR_FLUSH = 10                  parameter
//   CKPT / 0 / TYPE = XOR           table / head / item = value
// Keys and table items SCR++ does not know are kept as given, as SCR keeps
// any key: an application may set its own and read them back through
// SCR_Config, and a typo costs a warning (with a suggestion), not the job.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.hpp"
#include "kvtree/tree.hpp"
#include "runtime/config/config_line.hpp"

namespace scr::rt {

// Layers in precedence order: the first one that has a key wins.
enum class Layer { environment, user_file, app, system_file, builtin };
inline constexpr Layer kLayersByPrecedence[] = {Layer::environment, Layer::user_file, Layer::app,
                                                Layer::system_file, Layer::builtin};
// "environment", "user config file", "SCR_Config", "system config file", "built-in default".
const char* layer_name(Layer layer);

class ConfigLayer {
 public:
  explicit ConfigLayer(Layer kind = Layer::builtin, std::string file = {})
      : kind_(kind), file_(std::move(file)) {}

  Layer kind() const { return kind_; }
  const std::string& file() const { return file_; }  // empty unless a file layer
  bool empty() const { return values_.empty() && unknown_.empty(); }

  // Validate against the registry and store; an unknown key is stored as
  // given. `line` is the file line number, 0 when the value did not come
  // from a file.
  Status set_param(std::string_view key, std::string_view raw, int line = 0);
  // Define or extend the table entry TABLE=HEAD with items (which must have
  // values); later items override earlier ones of the same name. Unknown
  // items are stored as given.
  Status set_entry(std::string_view table, std::string_view head,
                   const std::vector<ConfigItem>& items, int line = 0);
  // A whole line in file form: KEY=VALUE or TABLE=HEAD ITEM=VALUE...
  Status apply(const ConfigLine& line, int line_number);

  Status unset_param(std::string_view key);
  Status unset_table(std::string_view table);
  Status unset_item(std::string_view table, std::string_view head, std::string_view item);

  std::optional<std::string> param(std::string_view key) const;
  // The value of a key SCR++ does not know, as it was set.
  std::optional<std::string> unknown_param(std::string_view key) const;
  // Every unknown key and table item of this layer: the message naming it
  // (with the nearest known name) and its file line, 0 when unknown.
  struct Unknown {
    std::string message;
    int line = 0;
  };
  std::vector<Unknown> unknown_keys() const;
  // head -> item -> value; nullptr when this layer defines no entry of the table.
  const kv::Tree* table(std::string_view name) const;
  // File line of a parameter or table entry, 0 when unknown.
  int line_of(std::string_view key, std::string_view head = {}) const;

  kv::Tree to_tree() const;
  // Re-validates every value, so a damaged tree is rejected, not trusted.
  static Result<ConfigLayer> from_tree(const kv::Tree& tree, Layer kind);

 private:
  Layer kind_;
  std::string file_;
  kv::Tree values_;
  kv::Tree unknown_;  // keys SCR++ does not know -> value as given
  kv::Tree lines_;    // of known and unknown keys alike (their names differ)
};

}  // namespace scr::rt
