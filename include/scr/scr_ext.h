/*
 * SCR++ extensions to the SCR 3.1 C API (scr.h stays exactly SCR's). Every
 * name here starts with SCRPP_, so none can clash with SCR's.
 *
 * The restart listing: describe the checkpoint of the restart phase open (between
 * SCR_Start_restart and SCR_Complete_restart), also when it was written by
 * a job of another size: how many processes wrote it and every file of it,
 * with the rank that wrote each and its size. Any listed name may be given to
 * SCR_Route_file in the restart phase, whatever rank this process has.
 *
 *   int writers, n;
 *   SCRPP_Restart_ranks(&writers);
 *   SCRPP_Restart_file_count(&n);
 *   for (int i = 0; i < n; ++i) {
 *     char name[SCR_MAX_FILENAME]; int rank; unsigned long long size;
 *     SCRPP_Restart_file(i, name, &rank, &size);
 *   }
 *
 * The calls are local (not collective) and return SCR_SUCCESS, or an error
 * code outside a restart phase or for an index out of range. Files are
 * listed by the rank that wrote them, then by name; a file several processes
 * wrote (N-to-1) is listed once. Names are relative to SCR_PREFIX.
 */
#ifndef SCRPP_SCR_EXT_H
#define SCRPP_SCR_EXT_H

#include "scr.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Number of processes of the job that wrote the checkpoint. */
int SCRPP_Restart_ranks(int* ranks);
/* Number of files of the checkpoint, over all processes. */
int SCRPP_Restart_file_count(int* count);
/* File `index` (0 <= index < count): its name (a buffer of SCR_MAX_FILENAME
 * bytes), the rank that wrote it and its size in bytes. Any output pointer
 * may be NULL. */
int SCRPP_Restart_file(int index, char* name, int* rank, unsigned long long* size);

/* SCR_Config that also says whether it worked. SCR_Config returns NULL both
 * for a successful set and for a failure, so a caller that must report
 * errors (Fortran's IERROR, Python's exceptions) cannot use it alone.
 * Returns SCR_SUCCESS or another value (the cause printed on stderr as for
 * every call). *value receives the malloc'd answer to a query (free() it), or
 * NULL for a set, an unset, or a query of a parameter that has no value. */
int SCRPP_Config_checked(const char* config, char** value);

#ifdef __cplusplus
}
#endif

#endif /* SCRPP_SCR_EXT_H */
