/*
 * SCR++ extensions to the SCR 3.1 C API (scr.h stays exactly SCR's).
 *
 * Describe the checkpoint of the restart phase open (between
 * SCR_Start_restart and SCR_Complete_restart), also when it was written by
 * a job of another size: how many processes wrote it and every file of it,
 * with the rank that wrote each and its size. Any listed name may be given to
 * SCR_Route_file in the restart phase, whatever rank this process has.
 *
 *   int writers, n;
 *   SCRX_Restart_ranks(&writers);
 *   SCRX_Restart_file_count(&n);
 *   for (int i = 0; i < n; ++i) {
 *     char name[SCR_MAX_FILENAME]; int rank; unsigned long long size;
 *     SCRX_Restart_file(i, name, &rank, &size);
 *   }
 *
 * The calls are local (not collective) and return SCR_SUCCESS, or an error
 * code outside a restart phase or for an index out of range. Files are
 * listed by the rank that wrote them, then by name; a file several processes
 * wrote (N-to-1) is listed once. Names are relative to SCR_PREFIX.
 */
#ifndef SCR_EXT_H
#define SCR_EXT_H

#include "scr.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Number of processes of the job that wrote the checkpoint. */
int SCRX_Restart_ranks(int* ranks);
/* Number of files of the checkpoint, over all processes. */
int SCRX_Restart_file_count(int* count);
/* File `index` (0 <= index < count): its name (a buffer of SCR_MAX_FILENAME
 * bytes), the rank that wrote it and its size in bytes. Any output pointer
 * may be NULL. */
int SCRX_Restart_file(int index, char* name, int* rank, unsigned long long* size);

#ifdef __cplusplus
}
#endif

#endif /* SCR_EXT_H */
