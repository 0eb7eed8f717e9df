// The test variant: SCR_FAULT_INJECT builds the FaultEnv.
#include "io/fault_env.hpp"
#include "io/fault_plan.hpp"

namespace scr::io {

Result<std::unique_ptr<Env>> env_with_faults(Env& target, const std::string& plan) {
  auto env = std::make_unique<FaultEnv>(target);
  SCR_TRY(env->configure(plan));
  return std::unique_ptr<Env>(std::move(env));
}

}  // namespace scr::io
