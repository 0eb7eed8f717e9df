// $VAR and ${VAR} expansion of config file values from the process
// environment. A '$' not followed by a name or '{' is kept as is.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "common/status.hpp"

namespace scr::rt {

// getenv(3)-shaped hook so tests can supply their own environment.
using Getenv = std::function<const char*(const char*)>;

// Errors name the variable: "undefined variable 'SCRATCH'".
Result<std::string> expand_vars(std::string_view text, const Getenv& getenv);

}  // namespace scr::rt
