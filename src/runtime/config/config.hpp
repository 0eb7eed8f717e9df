// The effective SCR++ configuration: five layers, first found wins
//   environment > user config file > SCR_Config > system config file > defaults
// with typed getters, SCR_Config semantics and a tree form that rank 0
// broadcasts so every rank sees the same settings. No MPI here.
//
// Parameters resolve key by key. Tables (CKPT, STORE, GROUPS) resolve as a
// whole: the highest layer that defines any entry of a table supplies all of
// its entries, so a user file's CKPT lines replace the system file's instead
// of mixing with them (as in SCR).
#pragma once

#include <array>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.hpp"
#include "io/env.hpp"
#include "kvtree/tree.hpp"
#include "runtime/config/config_expand.hpp"
#include "runtime/config/config_layer.hpp"

namespace scr::rt {

// Where configuration is read from; tests replace any of these.
struct ConfigSources {
  Getenv getenv;                                     // environment lookups
  std::function<std::vector<std::string>()> env_names;  // all environment variable names
  io::Env* env = nullptr;                            // file access
  std::string cwd;                                   // default of SCR_PREFIX

  // The real process: ::getenv, environ, the POSIX file system, getcwd().
  static ConfigSources process();
  // An environment of exactly `vars` (a simulated rank's, a test's), with
  // `env` for files and `cwd` as the working directory. The sources keep
  // their own copy of the variables.
  static ConfigSources from_variables(std::map<std::string, std::string> vars, io::Env& env, std::string cwd);
};

// Where an effective value came from, for messages.
struct Source {
  Layer layer = Layer::builtin;
  std::string file;  // file layers only
  int line = 0;      // file layers only
  // "environment", "user config file /p/.scrconf:3", "built-in default", ...
  std::string describe() const;
};

class Config {
 public:
  // Built-in defaults only, SCR_PREFIX defaulting to the current directory.
  Config();

  // Reads the environment, the system file and the user file. The user file
  // is SCR_CONF_FILE (an error if missing) or <SCR_PREFIX>/.scrconf (may be
  // absent), both looked up in every layer except the user file itself.
  static Result<Config> load(const ConfigSources& sources);
  // Re-reads environment and files, keeping the SCR_Config settings.
  Status reload();

  // SCR_Config: "KEY=VALUE" sets (returns nullopt), "KEY" returns the
  // effective value (nullopt if unset), "KEY=" unsets the SCR_Config value.
  // "CKPT=0 TYPE=XOR SET_SIZE=16" sets/merges entry 0, "CKPT=0 TYPE" queries
  // one item of the effective table, "CKPT=0 TYPE=" unsets one item, "CKPT="
  // unsets the whole table. Setting SCR_PREFIX or SCR_CONF_FILE re-reads the
  // user file of a loaded config. On error nothing changes.
  // A key or item SCR++ does not know is stored and answered like any other
  // (as SCR does); `warnings` then receives a line naming it with the nearest
  // known name. A known key with a bad value is an error.
  Result<std::optional<std::string>> apply_app_config(std::string_view text,
                                                      std::vector<std::string>* warnings = nullptr);

  // Effective canonical text of a parameter; nullopt when unset or unknown.
  std::optional<std::string> get(std::string_view key) const;
  // What the user set (environment, files, SCR_Config): nullopt for a
  // built-in default. SCR_Config queries answer this. A key SCR++ does not
  // know is looked up the same way: the process environment, then the value
  // a file or SCR_Config stored for it.
  std::optional<std::string> user_value(std::string_view key) const;
  // Typed getters; errors for unknown keys, kind mismatches (get_bool on a
  // path) and unset parameters without default (Errc::not_found).
  Result<std::string> get_string(std::string_view key) const;
  Result<int64_t> get_int(std::string_view key) const;      // integer, boolean, seconds (truncated)
  Result<bool> get_bool(std::string_view key) const;        // boolean
  Result<uint64_t> get_bytes(std::string_view key) const;   // byte count, integer >= 0
  Result<double> get_double(std::string_view key) const;    // seconds, percent, integer
  Result<std::vector<std::string>> get_list(std::string_view key) const;  // name list

  // Effective table (head -> item -> value), nullptr when no layer has one.
  const kv::Tree* table(std::string_view name) const;
  // Origin of a parameter, or of a table entry when head is given.
  std::optional<Source> source(std::string_view key, std::string_view head = {}) const;

  const ConfigLayer& layer(Layer which) const { return layers_[index(which)]; }
  // The user config file that was (or would have been) read; empty if none.
  const std::string& user_file() const { return user_file_; }
  // The directory a relative SCR_PREFIX is taken from: the loading process's
  // working directory.
  std::string working_dir() const;
  // Keys and items of the config files that SCR++ does not know, one line
  // each: "user config file /p/.scrconf:3: unknown key 'SCR_FOO' ...".
  std::vector<std::string> unknown_file_keys() const;
  // SCR_* environment variables that are not known parameters (load only).
  const std::vector<std::string>& unknown_env_names() const { return unknown_env_; }

  kv::Tree to_tree() const;
  static Result<Config> from_tree(const kv::Tree& tree);

 private:
  static size_t index(Layer layer) { return static_cast<size_t>(layer); }
  ConfigLayer& mut(Layer which) { return layers_[index(which)]; }
  // The layer supplying `key`, skipping the user file when locating it.
  const ConfigLayer* find_layer(std::string_view key, bool skip_user_file) const;
  const ConfigLayer* find_table_layer(std::string_view name) const;
  Status read_environment();
  Status read_files();
  Status read_user_file();
  Result<std::optional<std::string>> query(const ConfigLine& line) const;

  std::array<ConfigLayer, 5> layers_;
  std::optional<ConfigSources> sources_;  // set by load(); absent after from_tree()
  std::string working_dir_;               // the sender's, after from_tree()
  std::string user_file_;
  std::vector<std::string> unknown_env_;
};

// The built-in defaults layer; "$PWD" defaults become `cwd`.
ConfigLayer builtin_defaults(const std::string& cwd);

}  // namespace scr::rt
