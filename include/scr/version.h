/*
 * SCR++'s own version, apart from the SCR release that <scr.h> is a drop-in
 * for (SCR_VERSION "v3.1.0"). Usable from C and C++.
 */
#ifndef SCR_SCRPP_VERSION_H
#define SCR_SCRPP_VERSION_H

#define SCRPP_VERSION_MAJOR 0
#define SCRPP_VERSION_MINOR 2
#define SCRPP_VERSION_PATCH 0
#define SCRPP_VERSION "0.2.0"

#endif
