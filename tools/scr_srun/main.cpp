// scr_srun: SCR's command of that name, scr_run's relaunch loop with srun as
// the launcher (tools/scr_run/launcher_mode.hpp).
#include "tools/scr_run/launcher_mode.hpp"

int main(int argc, char** argv) { return scr::tools::run::launcher_main("srun", argc, argv); }
