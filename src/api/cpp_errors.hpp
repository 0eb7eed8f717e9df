// How the C++ API turns a failed Status into scr::Exception (its kind from
// the error code); shared by the files that implement include/scr/*.hpp.
#pragma once

#include "common/status.hpp"

namespace scr::api {

void throw_if_failed(const Status& st);

}  // namespace scr::api
