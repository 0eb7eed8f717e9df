// scr_flux: SCR's command of that name, scr_run's relaunch loop with flux as
// the launcher (tools/scr_run/launcher_mode.hpp).
#include "tools/scr_run/launcher_mode.hpp"

int main(int argc, char** argv) { return scr::tools::run::launcher_main("flux", argc, argv); }
