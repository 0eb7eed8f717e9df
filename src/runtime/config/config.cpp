#include "runtime/config/config.hpp"

#include <unistd.h>

#include <cassert>
#include <cstdlib>
#include <memory>

#include "common/strings.hpp"
#include "io/path.hpp"
#include "runtime/config/config_file.hpp"
#include "runtime/config/config_line.hpp"
#include "runtime/config/params.hpp"

extern char** environ;

namespace scr::rt {
namespace {

// Names of the layers in the broadcast tree, indexed like Layer.
constexpr const char* kLayerTags[] = {"ENV", "USER", "APP", "SYSTEM", "DEFAULT"};

std::string current_dir() {
  char buf[4096];
  if (::getcwd(buf, sizeof buf)) return buf;
  return ".";
}

ConfigSources with_fallbacks(ConfigSources s) {
  if (!s.getenv) s.getenv = [](const char*) -> const char* { return nullptr; };
  if (!s.env) s.env = &io::Env::posix();
  if (s.cwd.empty()) s.cwd = current_dir();
  return s;
}

}  // namespace

ConfigSources ConfigSources::process() {
  ConfigSources s;
  s.getenv = [](const char* name) -> const char* { return std::getenv(name); };
  s.env_names = [] {
    std::vector<std::string> names;
    for (char** e = environ; e && *e; ++e) {
      std::string_view entry(*e);
      names.emplace_back(entry.substr(0, entry.find('=')));
    }
    return names;
  };
  s.env = &io::Env::posix();
  s.cwd = current_dir();
  return s;
}

ConfigSources ConfigSources::from_variables(std::map<std::string, std::string> vars, io::Env& env, std::string cwd) {
  auto shared = std::make_shared<const std::map<std::string, std::string>>(std::move(vars));
  ConfigSources s;
  s.getenv = [shared](const char* name) -> const char* {
    auto it = shared->find(name);
    return it == shared->end() ? nullptr : it->second.c_str();
  };
  s.env_names = [shared] {
    std::vector<std::string> names;
    for (const auto& [k, v] : *shared) names.push_back(k);
    return names;
  };
  s.env = &env;
  s.cwd = std::move(cwd);
  return s;
}

std::string Config::working_dir() const {
  if (sources_) return sources_->cwd;
  return working_dir_.empty() ? current_dir() : working_dir_;
}

std::string Source::describe() const {
  std::string out = layer_name(layer);
  if (!file.empty()) out += " " + file;
  if (line > 0) out += ":" + std::to_string(line);
  return out;
}

ConfigLayer builtin_defaults(const std::string& cwd) {
  ConfigLayer layer(Layer::builtin);
  for (const auto& p : all_params()) {
    if (p.default_value.empty()) continue;
    std::string_view value = p.default_value == "$PWD" ? std::string_view(cwd) : p.default_value;
    Status st = layer.set_param(p.name, value);
    assert(st.ok() && "a built-in default does not pass its own validation");
    (void)st;
  }
  return layer;
}

Config::Config()
    : layers_{ConfigLayer(Layer::environment), ConfigLayer(Layer::user_file),
              ConfigLayer(Layer::app), ConfigLayer(Layer::system_file),
              builtin_defaults(current_dir())} {}

Result<Config> Config::load(const ConfigSources& sources) {
  Config config;
  config.sources_ = with_fallbacks(sources);
  config.mut(Layer::builtin) = builtin_defaults(config.sources_->cwd);
  SCR_TRY(config.read_environment());
  SCR_TRY(config.read_files());
  return config;
}

Status Config::reload() {
  if (!sources_)
    return Error(Errc::bad_state, "configuration was not loaded from environment and files");
  Config next = *this;
  SCR_TRY(next.read_environment());
  SCR_TRY(next.read_files());
  *this = std::move(next);
  return Status::Ok();
}

Status Config::read_environment() {
  ConfigLayer layer(Layer::environment);
  for (const auto& p : all_params()) {
    const char* value = sources_->getenv(std::string(p.name).c_str());
    // An empty variable counts as unset, as in "SCR_PREFIX= srun ...".
    if (!value || !*value) continue;
    Status st = layer.set_param(p.name, value);
    if (!st.ok()) return st.context("environment");
  }
  mut(Layer::environment) = std::move(layer);
  unknown_env_ = sources_->env_names ? unknown_scr_env_names(sources_->env_names())
                                     : std::vector<std::string>{};
  return Status::Ok();
}

Status Config::read_files() {
  std::string system_path = get("SCR_SYSTEM_CONF_FILE").value_or("");
  ConfigLayer system(Layer::system_file);
  if (!system_path.empty()) {
    SCR_ASSIGN_OR_RETURN(auto read, read_config_file(*sources_->env, system_path,
                                                     Layer::system_file, true, sources_->getenv));
    if (read) system = std::move(*read);
  }
  mut(Layer::system_file) = std::move(system);
  return read_user_file();
}

Status Config::read_user_file() {
  const ConfigLayer* named = find_layer("SCR_CONF_FILE", true);
  bool missing_ok = named == nullptr;
  std::string path;
  if (named) {
    path = *named->param("SCR_CONF_FILE");
  } else {
    const ConfigLayer* prefix = find_layer("SCR_PREFIX", true);
    path = io::path::join(prefix ? *prefix->param("SCR_PREFIX") : sources_->cwd, ".scrconf");
  }
  SCR_ASSIGN_OR_RETURN(auto read, read_config_file(*sources_->env, path, Layer::user_file,
                                                   missing_ok, sources_->getenv));
  mut(Layer::user_file) = read ? std::move(*read) : ConfigLayer(Layer::user_file);
  user_file_ = path;
  return Status::Ok();
}

const ConfigLayer* Config::find_layer(std::string_view key, bool skip_user_file) const {
  for (Layer which : kLayersByPrecedence) {
    if (skip_user_file && which == Layer::user_file) continue;
    if (layer(which).param(key)) return &layer(which);
  }
  return nullptr;
}

const ConfigLayer* Config::find_table_layer(std::string_view name) const {
  for (Layer which : kLayersByPrecedence)
    if (layer(which).table(name)) return &layer(which);
  return nullptr;
}

// As SCR documents SCR_Config: a query answers what the user set (environment,
// config files, SCR_Config), never a built-in default.
Result<std::optional<std::string>> Config::query(const ConfigLine& line) const {
  if (!line.is_table) return user_value(line.key);
  const TableSpec& spec = *find_table(line.key);
  const kv::Tree* table = this->table(line.key);
  // A bare table name ("STORE") answers the head of its only entry, as in SCR.
  if (!line.value && (!table || table->size() == 1))
    return table ? std::optional<std::string>(table->children().begin()->first) : std::nullopt;
  if (!line.value || line.items.size() != 1)
    return Error(Errc::invalid_argument,
                 "query one item of one entry: " + line.key + "=<" +
                     value_type_name(spec.head.type) + "> ITEM");
  SCR_ASSIGN_OR_RETURN(std::string head, check_value(line.key, spec.head, *line.value));
  const std::string& item = line.items.front().name;
  if (knows_item(spec, item)) SCR_TRY(item_value_spec(spec, head, item).status());
  const kv::Tree* entry = table ? table->get(head) : nullptr;
  return entry ? entry->value(item) : std::nullopt;
}

namespace {

// What a set of `line` stores that SCR++ does not know, one message each.
std::vector<std::string> unknown_in(const ConfigLine& line) {
  std::vector<std::string> out;
  const TableSpec* spec = find_table(line.key);
  if (!spec && !find_param(line.key)) out.push_back(unknown_key(line.key).message());
  if (spec)
    for (const auto& item : line.items)
      if (item.value && !item.value->empty() && !knows_item(*spec, item.name))
        out.push_back(item_value_spec(*spec, *line.value, item.name).status().message());
  return out;
}

}  // namespace

Result<std::optional<std::string>> Config::apply_app_config(std::string_view text,
                                                            std::vector<std::string>* warnings) {
  // The C API names the call ("SCR_Config: ..."); the message says the rest.
  auto fail = [](Status st) { return st; };
  if (warnings) warnings->clear();
  auto parsed = parse_config_line(text);
  if (!parsed) return fail(parsed.status());
  const ConfigLine& line = *parsed;
  // The application may change its environment between two SCR_Config calls
  // (SCR's own test_config exports SCR_CONF_FILE after earlier calls, then sets
  // SCR_PREFIX, and sees the change): the environment layer is read again here
  // rather than kept from the first call.
  if (sources_)
    if (Status env = read_environment(); !env.ok()) return fail(env);

  if (line.is_query()) {
    auto answer = query(line);
    if (!answer) return fail(answer.status());
    return answer;
  }

  Config next = *this;
  ConfigLayer& app = next.mut(Layer::app);
  Status st;
  if (!line.is_table) {
    st = line.value->empty() ? app.unset_param(line.key) : app.set_param(line.key, *line.value);
  } else if (line.value->empty()) {  // "CKPT=": the line ends there, no items follow
    st = app.unset_table(line.key);
  } else {
    std::vector<ConfigItem> sets;
    for (const auto& item : line.items)
      if (!item.value->empty()) sets.push_back(item);
    // Only unsets ("CKPT=0 TYPE=") must not create an empty entry.
    if (!sets.empty() || line.items.empty()) st = app.set_entry(line.key, *line.value, sets);
    for (const auto& item : line.items)
      if (st.ok() && item.value->empty()) st = app.unset_item(line.key, *line.value, item.name);
  }
  if (st.ok() && next.sources_ && (line.key == "SCR_PREFIX" || line.key == "SCR_CONF_FILE"))
    st = next.read_user_file();
  if (!st.ok()) return fail(st);
  *this = std::move(next);
  if (warnings && !line.value->empty()) *warnings = unknown_in(line);
  return std::optional<std::string>();
}

std::optional<std::string> Config::user_value(std::string_view key) const {
  if (!find_param(key)) {
    if (sources_)
      if (const char* v = sources_->getenv(std::string(key).c_str()); v && *v) return v;
    for (Layer which : kLayersByPrecedence)
      if (auto v = layer(which).unknown_param(key)) return v;
    return std::nullopt;
  }
  for (Layer which : kLayersByPrecedence)
    if (which != Layer::builtin)
      if (auto v = layer(which).param(key)) return v;
  return std::nullopt;
}

std::vector<std::string> Config::unknown_file_keys() const {
  std::vector<std::string> out;
  for (Layer which : {Layer::user_file, Layer::system_file}) {
    const ConfigLayer& l = layer(which);
    for (const auto& unknown : l.unknown_keys())
      out.push_back(Source{which, l.file(), unknown.line}.describe() + ": " + unknown.message +
                    ", not used by SCR++");
  }
  return out;
}

std::optional<std::string> Config::get(std::string_view key) const {
  const ConfigLayer* l = find_layer(key, false);
  return l ? l->param(key) : std::nullopt;
}

namespace {

// The effective value of a parameter whose kind must be one of `kinds`.
Result<std::string> typed_value(const Config& config, std::string_view key,
                                std::initializer_list<ValueType> kinds, const char* wanted) {
  const ParamSpec* spec = find_param(key);
  if (!spec) return unknown_key(key);
  bool fits = false;
  for (ValueType k : kinds) fits = fits || spec->value.type == k;
  if (!fits)
    return Error(Errc::invalid_argument, std::string(key) + " is a " +
                                             value_type_name(spec->value.type) + ", not a " + wanted);
  auto v = config.get(key);
  if (!v) return Error(Errc::not_found, std::string(key) + " is not set");
  return *v;
}

// Only called after typed_value accepted the key, so the spec exists.
ValueType kind_of(std::string_view key) { return find_param(key)->value.type; }

}  // namespace

Result<std::string> Config::get_string(std::string_view key) const {
  if (!find_param(key)) return unknown_key(key);
  auto v = get(key);
  if (!v) return Error(Errc::not_found, std::string(key) + " is not set");
  return *v;
}

Result<int64_t> Config::get_int(std::string_view key) const {
  SCR_ASSIGN_OR_RETURN(std::string v,
                       typed_value(*this, key,
                                   {ValueType::integer, ValueType::boolean, ValueType::seconds},
                                   "integer"));
  if (kind_of(key) != ValueType::seconds) return str::parse_int(v);
  // Whole seconds are what timers compare against; drop the fraction.
  SCR_ASSIGN_OR_RETURN(double seconds, str::parse_double(v));
  return static_cast<int64_t>(seconds);
}

Result<bool> Config::get_bool(std::string_view key) const {
  auto v = typed_value(*this, key, {ValueType::boolean}, "boolean");
  if (!v) return v.status();
  return *v == "1";
}

Result<uint64_t> Config::get_bytes(std::string_view key) const {
  SCR_ASSIGN_OR_RETURN(std::string v, typed_value(*this, key,
                                                  {ValueType::bytes, ValueType::integer},
                                                  "byte count"));
  if (kind_of(key) == ValueType::bytes) return str::parse_bytes(v);
  SCR_ASSIGN_OR_RETURN(int64_t n, str::parse_int(v));
  if (n < 0) return Error(Errc::invalid_argument, std::string(key) + " is negative, not a byte count");
  return static_cast<uint64_t>(n);
}

Result<double> Config::get_double(std::string_view key) const {
  SCR_ASSIGN_OR_RETURN(std::string v, typed_value(*this, key,
                                                  {ValueType::seconds, ValueType::percent,
                                                   ValueType::integer},
                                                  "number"));
  return str::parse_double(v);
}

Result<std::vector<std::string>> Config::get_list(std::string_view key) const {
  SCR_ASSIGN_OR_RETURN(std::string v,
                       typed_value(*this, key, {ValueType::name_list}, "name list"));
  return str::split(v, ',');
}

const kv::Tree* Config::table(std::string_view name) const {
  const ConfigLayer* l = find_table_layer(name);
  return l ? l->table(name) : nullptr;
}

std::optional<Source> Config::source(std::string_view key, std::string_view head) const {
  bool is_table = find_table(key) != nullptr;
  if (!head.empty() && !is_table) return std::nullopt;
  const ConfigLayer* l = is_table ? find_table_layer(key) : find_layer(key, false);
  if (!l || (!head.empty() && !l->table(key)->get(head))) return std::nullopt;
  return Source{l->kind(), l->file(), l->line_of(key, head)};
}

kv::Tree Config::to_tree() const {
  kv::Tree t;
  if (!user_file_.empty()) t.set("USER_FILE", user_file_);
  // The directory a relative SCR_PREFIX means: the sender's, not each
  // receiver's (processes of one job may start in different directories).
  t.set("WORKING_DIR", working_dir());
  for (Layer which : kLayersByPrecedence)
    t.child("LAYER").put(kLayerTags[index(which)], layer(which).to_tree());
  return t;
}

Result<Config> Config::from_tree(const kv::Tree& tree) {
  Config config;
  config.user_file_ = tree.value_or("USER_FILE", "");
  config.working_dir_ = tree.value_or("WORKING_DIR", "");
  for (Layer which : kLayersByPrecedence) {
    const kv::Tree* sub = tree.at({"LAYER", kLayerTags[index(which)]});
    if (!sub)
      return Error(Errc::corrupt, std::string("configuration tree has no ") +
                                      kLayerTags[index(which)] + " layer");
    auto layer = ConfigLayer::from_tree(*sub, which);
    if (!layer) return layer.status().with_context("configuration tree");
    config.mut(which) = std::move(*layer);
  }
  return config;
}

}  // namespace scr::rt
