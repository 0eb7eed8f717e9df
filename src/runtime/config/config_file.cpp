#include "runtime/config/config_file.hpp"

#include "common/strings.hpp"
#include "io/files.hpp"
#include "runtime/config/config_line.hpp"

namespace scr::rt {
namespace {

// Expands variables in every value of the line (not in keys or item names).
Status expand_line(ConfigLine& line, const Getenv& getenv) {
  if (line.value) {
    SCR_ASSIGN_OR_RETURN(*line.value, expand_vars(*line.value, getenv));
  }
  for (auto& item : line.items) {
    if (!item.value) continue;
    SCR_ASSIGN_OR_RETURN(*item.value, expand_vars(*item.value, getenv));
  }
  return Status::Ok();
}

Status parse_one_line(std::string_view raw, int number, ConfigLayer& layer, const Getenv& getenv) {
  std::string_view text = raw.substr(0, raw.find('#'));
  if (str::trim(text).empty()) return Status::Ok();
  SCR_ASSIGN_OR_RETURN(ConfigLine line, parse_config_line(text));
  Status expanded = expand_line(line, getenv);
  if (!expanded.ok()) return expanded.context(line.key);
  return layer.apply(line, number);
}

}  // namespace

Result<ConfigLayer> parse_config_text(std::string_view text, Layer kind,
                                      const std::string& origin, const Getenv& getenv) {
  ConfigLayer layer(kind, origin);
  int number = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    ++number;
    Status st = parse_one_line(text.substr(start, end - start), number, layer, getenv);
    if (!st.ok()) return st.context(origin + ":" + std::to_string(number));
    start = end + 1;
  }
  return layer;
}

Result<std::optional<ConfigLayer>> read_config_file(io::Env& env, const std::string& path,
                                                    Layer kind, bool missing_ok,
                                                    const Getenv& getenv) {
  auto text = io::read_file(env, path, kMaxConfigFileBytes);
  if (!text) {
    if (missing_ok && text.status().code() == Errc::not_found) return std::optional<ConfigLayer>();
    return text.status().with_context(std::string(layer_name(kind)));
  }
  SCR_ASSIGN_OR_RETURN(ConfigLayer layer, parse_config_text(*text, kind, path, getenv));
  return std::optional<ConfigLayer>(std::move(layer));
}

}  // namespace scr::rt
