// scr_mpirun: SCR's command of that name, scr_run's relaunch loop with mpirun as
// the launcher (tools/scr_run/launcher_mode.hpp).
#include "tools/scr_run/launcher_mode.hpp"

int main(int argc, char** argv) { return scr::tools::run::launcher_main("mpirun", argc, argv); }
