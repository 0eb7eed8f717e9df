/*
 * Entry points of libscr beyond scr.h, for SCR++'s own language bindings
 * (src/bindings). Not installed: applications use scr.h.
 */
#ifndef SCR_EXT_H
#define SCR_EXT_H

#ifdef __cplusplus
extern "C" {
#endif

/* SCR_Config that also says whether it worked. SCR_Config returns NULL both
 * for a successful set and for a failure, so a binding that must report
 * errors (Fortran's IERROR, Python's exceptions) cannot use it alone.
 * Returns SCR_SUCCESS or another value (the cause printed on stderr as for
 * every call). *value receives the malloc'd answer to a query, or NULL for a
 * set, an unset, or a query of a parameter that has no value. */
int SCRPP_Config_checked(const char* config, char** value);

#ifdef __cplusplus
}
#endif

#endif /* SCR_EXT_H */
