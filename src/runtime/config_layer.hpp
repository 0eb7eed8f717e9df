// One source of configuration (environment, a config file, SCR_Config calls,
// built-in defaults): validated values plus the file line each came from, so
// later messages can say where a setting was made. Values are stored in
// canonical form as a kv::Tree:
//   SCR_FLUSH = 10                  parameter
//   CKPT / 0 / TYPE = XOR           table / head / item = value
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.hpp"
#include "kvtree/tree.hpp"
#include "runtime/config_line.hpp"

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
  bool empty() const { return values_.empty(); }

  // Validate against the registry and store. `line` is the file line number,
  // 0 when the value did not come from a file.
  Status set_param(std::string_view key, std::string_view raw, int line = 0);
  // Define or extend the table entry TABLE=HEAD with items (which must have
  // values); later items override earlier ones of the same name.
  Status set_entry(std::string_view table, std::string_view head,
                   const std::vector<ConfigItem>& items, int line = 0);
  // A whole line in file form: KEY=VALUE or TABLE=HEAD ITEM=VALUE...
  Status apply(const ConfigLine& line, int line_number);

  Status unset_param(std::string_view key);
  Status unset_table(std::string_view table);
  Status unset_item(std::string_view table, std::string_view head, std::string_view item);

  std::optional<std::string> param(std::string_view key) const;
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
  kv::Tree lines_;
};

}  // namespace scr::rt
