// SCR_FAULT_INJECT: the file system a runtime works through, wrapped in one
// that breaks as a plan says (io/fault_env.hpp has the syntax). Declared
// once, defined twice, and the library chosen at link time decides:
//  - scr_io_faults (fault_plan_on.cpp, with the FaultEnv) builds the
//    wrapper; only tests link it, through the test variant of libscr
//    (<build>/testing/libscr.so) and the test programs;
//  - scr_io_no_faults (fault_plan_off.cpp) refuses; libscr.so and libscr.a,
//    what users link and what is installed, carry no fault injection.
#pragma once

#include <memory>
#include <string>

#include "common/status.hpp"
#include "io/env.hpp"

namespace scr::io {

// `target` wrapped in a FaultEnv configured by `plan`, or why not.
Result<std::unique_ptr<Env>> env_with_faults(Env& target, const std::string& plan);

}  // namespace scr::io
