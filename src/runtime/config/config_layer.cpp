#include "runtime/config/config_layer.hpp"

#include "runtime/config/params.hpp"

namespace scr::rt {
namespace {

Result<const ParamSpec*> lookup_param(std::string_view key) {
  const ParamSpec* spec = find_param(key);
  if (!spec) return unknown_key(key);
  return spec;
}

Result<const TableSpec*> lookup_table(std::string_view name) {
  const TableSpec* spec = find_table(name);
  if (!spec) return unknown_key(name);
  return spec;
}

}  // namespace

const char* layer_name(Layer layer) {
  switch (layer) {
    case Layer::environment: return "environment";
    case Layer::user_file: return "user config file";
    case Layer::app: return "SCR_Config";
    case Layer::system_file: return "system config file";
    case Layer::builtin: return "built-in default";
  }
  return "?";
}

Status ConfigLayer::set_param(std::string_view key, std::string_view raw, int line) {
  if (!find_param(key) && !find_table(key)) {
    unknown_.set(key, raw);
    if (line > 0) lines_.set_int(key, line);
    else lines_.erase(key);
    return Status::Ok();
  }
  SCR_ASSIGN_OR_RETURN(const ParamSpec* spec, lookup_param(key));
  if (spec->env_only && kind_ != Layer::environment && kind_ != Layer::builtin)
    return Error(Errc::invalid_argument,
                 std::string(key) + " can only be set in the environment, not in " +
                     layer_name(kind_));
  SCR_ASSIGN_OR_RETURN(std::string value, check_value(key, spec->value, raw));
  values_.set(key, value);
  if (line > 0) lines_.set_int(key, line);
  else lines_.erase(key);
  return Status::Ok();
}

Status ConfigLayer::set_entry(std::string_view table, std::string_view head,
                              const std::vector<ConfigItem>& items, int line) {
  SCR_ASSIGN_OR_RETURN(const TableSpec* spec, lookup_table(table));
  SCR_ASSIGN_OR_RETURN(std::string canon_head, check_value(table, spec->head, head));
  // Validate every item before storing any, so a bad line changes nothing.
  std::vector<std::pair<std::string, std::string>> checked;
  for (const auto& item : items) {
    if (!item.value)
      return Error(Errc::invalid_argument, std::string(table) + "=" + canon_head + " " +
                                               item.name + ": missing '=VALUE'");
    if (!knows_item(*spec, item.name)) {
      checked.emplace_back(item.name, *item.value);
      continue;
    }
    SCR_ASSIGN_OR_RETURN(std::string v, check_item(*spec, canon_head, item.name, *item.value));
    checked.emplace_back(item.name, std::move(v));
  }
  kv::Tree& entry = values_.child(table).child(canon_head);
  for (const auto& [name, v] : checked) entry.set(name, v);
  if (line > 0 && !lines_.at({table, canon_head})) lines_.child(table).set_int(canon_head, line);
  return Status::Ok();
}

Status ConfigLayer::apply(const ConfigLine& line, int line_number) {
  if (!line.value) return Error(Errc::invalid_argument, line.key + ": missing '=VALUE'");
  if (line.is_table) return set_entry(line.key, *line.value, line.items, line_number);
  return set_param(line.key, *line.value, line_number);
}

Status ConfigLayer::unset_param(std::string_view key) {
  if (!find_param(key) && !find_table(key)) {
    unknown_.erase(key);
    lines_.erase(key);
    return Status::Ok();
  }
  SCR_TRY(lookup_param(key).status());
  values_.erase(key);
  lines_.erase(key);
  return Status::Ok();
}

Status ConfigLayer::unset_table(std::string_view table) {
  SCR_TRY(lookup_table(table).status());
  values_.erase(table);
  lines_.erase(table);
  return Status::Ok();
}

Status ConfigLayer::unset_item(std::string_view table, std::string_view head,
                               std::string_view item) {
  SCR_ASSIGN_OR_RETURN(const TableSpec* spec, lookup_table(table));
  SCR_ASSIGN_OR_RETURN(std::string canon_head, check_value(table, spec->head, head));
  if (knows_item(*spec, item)) SCR_TRY(item_value_spec(*spec, canon_head, item).status());
  if (kv::Tree* entry = values_.at({table, canon_head})) entry->erase(item);
  return Status::Ok();
}

std::optional<std::string> ConfigLayer::param(std::string_view key) const {
  return values_.value(key);
}

std::optional<std::string> ConfigLayer::unknown_param(std::string_view key) const {
  return unknown_.value(key);
}

std::vector<ConfigLayer::Unknown> ConfigLayer::unknown_keys() const {
  std::vector<Unknown> out;
  for (const auto& [key, value] : unknown_.children())
    out.push_back({unknown_key(key).message(), line_of(key)});
  for (const auto& spec : all_tables()) {
    const kv::Tree* entries = table(spec.name);
    if (!entries) continue;
    for (const auto& [head, entry] : entries->children())
      for (const auto& [item, value] : entry->children())
        if (!knows_item(spec, item))
          out.push_back({item_value_spec(spec, head, item).status().message(),
                         line_of(spec.name, head)});
  }
  return out;
}

const kv::Tree* ConfigLayer::table(std::string_view name) const {
  const kv::Tree* t = values_.get(name);
  return t && !t->empty() ? t : nullptr;
}

int ConfigLayer::line_of(std::string_view key, std::string_view head) const {
  if (head.empty()) return static_cast<int>(lines_.int_or(key, 0));
  const kv::Tree* entries = lines_.get(key);
  return entries ? static_cast<int>(entries->int_or(head, 0)) : 0;
}

kv::Tree ConfigLayer::to_tree() const {
  kv::Tree t;
  if (!file_.empty()) t.set("FILE", file_);
  t.put("VALUE", values_);
  if (!unknown_.empty()) t.put("UNKNOWN", unknown_);
  t.put("LINE", lines_);
  return t;
}

Result<ConfigLayer> ConfigLayer::from_tree(const kv::Tree& tree, Layer kind) {
  ConfigLayer layer(kind, tree.value_or("FILE", ""));
  const kv::Tree empty;
  const kv::Tree* values = tree.get("VALUE");
  const kv::Tree* lines = tree.get("LINE");
  if (!lines) lines = &empty;
  if (const kv::Tree* unknown = tree.get("UNKNOWN")) {
    for (const auto& [key, sub] : unknown->children()) {
      auto v = unknown->value(key);
      if (!v || find_param(key) || find_table(key))
        return Error(Errc::corrupt, "configuration tree: unknown key " + key + " is malformed");
      layer.unknown_.set(key, *v);
      if (int line = static_cast<int>(lines->int_or(key, 0)); line > 0)
        layer.lines_.set_int(key, line);
    }
  }
  for (const auto& [key, sub] : (values ? values : &empty)->children()) {
    if (!find_table(key)) {
      auto v = values->value(key);
      if (!v) return Error(Errc::corrupt, "configuration tree: " + key + " has no single value");
      // Unknown keys travel under UNKNOWN; one here is damage.
      if (!find_param(key)) return unknown_key(key).with_context("configuration tree");
      SCR_TRY(layer.set_param(key, *v, static_cast<int>(lines->int_or(key, 0))));
      continue;
    }
    const kv::Tree* table_lines = lines->get(key);
    for (const auto& [head, entry] : sub->children()) {
      std::vector<ConfigItem> items;
      for (const auto& [item, value] : entry->children()) {
        auto v = entry->value(item);
        if (!v)
          return Error(Errc::corrupt, "configuration tree: " + key + "=" + head + " " + item +
                                          " has no single value");
        items.push_back({item, *v});
      }
      int line = table_lines ? static_cast<int>(table_lines->int_or(head, 0)) : 0;
      SCR_TRY(layer.set_entry(key, head, items, line));
    }
  }
  return layer;
}

}  // namespace scr::rt
