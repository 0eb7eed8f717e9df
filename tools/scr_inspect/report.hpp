// What inspecting one path produces: readable text, the same facts as JSON,
// and the problems found (damaged or unreadable files), which make
// scr_inspect exit with status 1 after printing everything it could read.
#pragma once

#include <string>
#include <vector>

#include "common/json.hpp"

namespace scr::tools::inspect {

struct Report {
  std::string text;
  Json json = Json::object();
  std::vector<std::string> problems;  // "<path>: <what is wrong>"
};

}  // namespace scr::tools::inspect
