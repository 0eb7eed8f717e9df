// Config file syntax: one setting per line (see config_line.hpp), '#' starts
// a comment anywhere on a line, blank lines are ignored, values may use $VAR
// and ${VAR}. Every error names the file, the line number and the key:
//   "/home/u/.scrconf:3: SCR_CACHE_SIZE=abc: not an integer".
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "common/status.hpp"
#include "io/env.hpp"
#include "runtime/config/config_expand.hpp"
#include "runtime/config/config_layer.hpp"

namespace scr::rt {

// Config files are small; anything bigger is a mistake, not a config.
inline constexpr uint64_t kMaxConfigFileBytes = 1 << 20;

// Parses the text of a config file into a layer of the given kind; `origin`
// names the file in the layer and in errors.
Result<ConfigLayer> parse_config_text(std::string_view text, Layer kind,
                                      const std::string& origin, const Getenv& getenv);

// Reads and parses a config file through env. A missing file yields nullopt
// when missing_ok, an error naming the file otherwise.
Result<std::optional<ConfigLayer>> read_config_file(io::Env& env, const std::string& path,
                                                    Layer kind, bool missing_ok,
                                                    const Getenv& getenv);

}  // namespace scr::rt
