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
 * No process holds the whole list: SCR_Start_restart has rank 0 write it to
 * a table in the prefix (.scr/scrpp.files.<id>, removed when the phase
 * ends), which these calls read a piece of about a thousand files at a
 * time. Reading the files in order, or a process's own run of them, costs
 * one read per piece.
 */
#ifndef SCRPP_SCR_EXT_H
#define SCRPP_SCR_EXT_H

#include <mpi.h>

#include <stddef.h>

#include "scr.h"

#ifdef __cplusplus
extern "C" {
#endif

/* SCR_Init over the processes of `comm` only (collective over them; they
 * all pass communicators of the same group). Every call of SCR++ after it
 * is collective over `comm` where SCR's is over MPI_COMM_WORLD, rank
 * numbers are ranks in `comm`, and processes outside `comm` never call
 * SCR++. Several jobs of one launch on disjoint communicators are
 * independent: each needs its own SCR_PREFIX (a second job on a prefix is
 * refused at init), and gets its own cache and control directories. SCR
 * keeps a duplicate of `comm`: the caller may free its own after this call.
 * Ends with SCR_Finalize, as SCR_Init does. This header includes <mpi.h>
 * for MPI_Comm: compile with the MPI compiler wrappers, as any SCR program. */
int SCRPP_Init_comm(MPI_Comm comm);
/* The same with the communicator as a Fortran handle (MPI_Comm_c2f), for
 * bindings that cannot hold an MPI_Comm (Python: mpi4py's comm.py2f()). */
int SCRPP_Init_comm_f(MPI_Fint comm);

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

/* The message of this process's last failed SCR call, as printed on stderr
 * ("SCR_Config: SCR_FLUSH=ten: not an integer"), copied into buf and cut to
 * size - 1 bytes; "" when no call failed yet. For bindings that carry the
 * cause in their errors (Python's SCRError). Returns SCR_SUCCESS, or an error
 * for a NULL buf or a size of 0. */
int SCRPP_Last_error(char* buf, size_t size);

/* Memory regions protected without files (as VeloC's VELOC_Mem_protect and
 * FTI's FTI_Protect; see docs/bindings.md#memory-regions). A process
 * protects regions of its memory under integer ids; SCRPP_Checkpoint writes
 * them all as one checkpoint, and SCRPP_Restore reads them back at restart
 * into the regions protected under the same ids. SCR++ names and places the
 * file that holds a process's regions (<dataset>/.regions/rank_<rank>.regions,
 * with every region's id, size and checksum), so cache, redundancy, flush,
 * fetch and rebuild protect it as any other file.
 *
 *   SCRPP_Protect(0, &step, 1, sizeof step);
 *   SCRPP_Protect(1, grid, n, sizeof(double));
 *   int restored;
 *   SCRPP_Restore(&restored, NULL);          // at start: 1 if it restored
 *   ...
 *   SCRPP_Checkpoint("step.10");            // where SCR_Need_checkpoint says
 *
 * Protect and unprotect are local and may be called at any time; the table
 * of regions belongs to the process (not to the SCR session). Protecting an
 * id again replaces its region. The memory must stay valid while protected. */
int SCRPP_Protect(int id, void* ptr, size_t count, size_t elem_size);
/* The same with a type tag (free text, at most SCR_MAX_FILENAME - 1 bytes,
 * e.g. a dtype and shape) stored with the region; at restore a tag on both
 * sides must match. */
int SCRPP_Protect_typed(int id, void* ptr, size_t count, size_t elem_size, const char* type);
/* Error if no region is protected under id. */
int SCRPP_Unprotect(int id);

/* Collective: one output phase with SCR_FLAG_CHECKPOINT named `name` (NULL
 * or "": a name SCR++ chooses, as SCR_Start_checkpoint) holding every
 * protected region of every process. */
int SCRPP_Checkpoint(const char* name);
/* Inside an output phase the application opened (SCR_Start_output), local:
 * add this process's protected regions to it, beside the application's own
 * routed files. Once per phase: a second call in the same phase is an error
 * that changes nothing (the regions written first stay, and the phase may
 * still complete as valid). */
int SCRPP_Write_regions(void);

/* Collective: if a checkpoint is offered for restart, start the restart
 * phase, read every protected region back and complete the phase.
 * *restored is 1 when regions were restored, 0 when there was no
 * checkpoint; name (NULL, or SCR_MAX_FILENAME bytes) receives its name.
 * Every check is made on every process before any byte of any region is
 * overwritten: a protected region the checkpoint has no data for, a region
 * of the checkpoint left unprotected, a size (count, element size, type
 * tag) that differs, a damaged file, or a checkpoint written by another
 * number of processes is an error on every process, with every region
 * untouched. After a mismatch the checkpoint stays valid for a later job
 * with the right regions, but this job's restart is over (as after any
 * completed restart): a second call here sets *restored to 0 and succeeds,
 * as if there were no checkpoint; to retry with other regions, open the
 * phase yourself and call SCRPP_Read_regions until it succeeds. After
 * damage it is given up, as a restart completed invalid, and the next call
 * offers the next older one. */
int SCRPP_Restore(int* restored, char* name);
/* Inside a restart phase the application opened (SCR_Start_restart),
 * collective: SCRPP_Restore's reading and checks, without starting or
 * completing the phase. */
int SCRPP_Read_regions(void);

/* Restart at another size, inside a restart phase, local: any process may
 * read any writer's regions (writer: 0 <= writer < SCRPP_Restart_ranks).
 * SCRPP_Region_info says what `writer` stored under `id` (any output pointer
 * may be NULL; type: SCR_MAX_FILENAME bytes, "" when it has none), and
 * SCRPP_Restore_from copies it into ptr, which must hold exactly that many
 * elements of that size (checked, as its checksum, before any byte is
 * written). At the checkpoint's own size a process restarting from the
 * cache may read only its own regions (writer == its rank): another
 * writer's is an error that says so. */
int SCRPP_Region_info(int writer, int id, unsigned long long* count, unsigned long long* elem_size, char* type);
int SCRPP_Restore_from(int writer, int id, void* ptr, size_t count, size_t elem_size);

#ifdef __cplusplus
}
#endif

#endif /* SCRPP_SCR_EXT_H */
