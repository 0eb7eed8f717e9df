// What users link: no fault injection in the library, and a job that asks
// for it is told so at SCR_Init instead of running without the faults it
// expects.
#include "io/fault_plan.hpp"

namespace scr::io {

Result<std::unique_ptr<Env>> env_with_faults(Env&, const std::string&) {
  return Error(Errc::unsupported,
               "SCR_FAULT_INJECT is set, but this libscr has no fault injection: it exists only "
               "in the test variant of the library (<build>/testing/libscr.so, used by the tests)");
}

}  // namespace scr::io
