/*
 * libscrf: SCR's Fortran 77 calls (scrf.h) as thin wrappers over the C API.
 * Each subroutine takes the arguments SCR 3.1 documents plus a trailing
 * INTEGER IERROR (SCR_SUCCESS or another value); CHARACTER arguments arrive
 * with their hidden lengths after the explicit arguments. Names coming in
 * lose their trailing blanks; names going out are blank-padded, and one
 * longer than the caller's variable sets IERROR (scrf_strings.h).
 *
 * Fortran compilers disagree on link names, so every subroutine is exported
 * as scr_init_ (gfortran, ifort, flang, nvfortran), scr_init__ (g77/f2c for
 * names containing '_'), scr_init (xlf, -fno-underscoring) and SCR_INIT
 * (upper-case conventions) -- all the same code.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scr/scr_ext.h"
#include "scr.h"
#include "scrf_strings.h"

#define SCRF_FAILURE 1

#define SCRF_ALIAS(impl, name) extern __typeof__(impl) name __attribute__((alias(#impl)));
#define SCRF_EXPORT(lower, upper) \
  SCRF_ALIAS(lower##_, lower##__) SCRF_ALIAS(lower##_, lower) SCRF_ALIAS(lower##_, upper)

/* Name arguments: converted into a local SCR_MAX_FILENAME buffer, which is
 * what the C API accepts; a longer name is refused with a message. */
static int name_in(const char* call, const char* fstr, scrf_len flen, char* buf) {
  if (scrf_to_c(fstr, flen, buf, SCR_MAX_FILENAME) == 0) return 0;
  scrf_error(call, "the name is longer than SCR_MAX_FILENAME - 1 characters (trailing blanks excluded)");
  return -1;
}

/* Results: copied blank-padded into the caller's variable; one that does
 * not fit is an error (the variable is left blank). */
static int result_out(const char* call, const char* what, const char* cstr, char* fstr, scrf_len flen) {
  if (scrf_to_fortran(cstr, fstr, flen) == 0) return SCR_SUCCESS;
  char msg[160];
  snprintf(msg, sizeof msg, "the %s has %zu characters but the CHARACTER variable holds only %zu",
           what, strlen(cstr), (size_t)flen);
  scrf_error(call, msg);
  return SCRF_FAILURE;
}

void scr_init_(int* ierror) { *ierror = SCR_Init(); }
SCRF_EXPORT(scr_init, SCR_INIT)

/* SCRPP_INIT_COMM(COMM, IERROR): SCR_INIT over the processes of COMM, an
 * MPI communicator handle (INTEGER from `use mpi` or mpif.h, COMM%MPI_VAL
 * from `use mpi_f08`). */
/* (The handle is converted after the check that MPI is initialized.) */
void scrpp_init_comm_(const MPI_Fint* comm, int* ierror) { *ierror = SCRPP_Init_comm_f(*comm); }
SCRF_EXPORT(scrpp_init_comm, SCRPP_INIT_COMM)

void scr_finalize_(int* ierror) { *ierror = SCR_Finalize(); }
SCRF_EXPORT(scr_finalize, SCR_FINALIZE)

/* SCR_CONFIG(CONFIG, VAL, IERROR): VAL receives the answer to a query, or
 * blanks after a plain 'KEY' query with no answer or that failed (never
 * what an earlier call left there); see below for what leaves it as it
 * was. */
void scr_config_(const char* config, char* val, int* ierror, scrf_len config_len, scrf_len val_len) {
  char text[SCR_MAX_FILENAME];
  char* answer = NULL;
  *ierror = name_in("SCR_CONFIG", config, config_len, text) == 0 ? SCRPP_Config_checked(text, &answer)
                                                                 : SCRF_FAILURE;
  /* VAL is written only by a query: with its answer, or blank when a plain
   * 'KEY' has none or fails. A set or an unset leaves it as it was, as in
   * SCR 3.1, so a program may pass a literal there (' '), which is
   * read-only storage. */
  int query = answer != NULL || (*ierror == SCR_SUCCESS ? strchr(text, '=') == NULL : memchr(config, '=', config_len) == NULL);
  if (query) {
    int out = result_out("SCR_CONFIG", "value", *ierror == SCR_SUCCESS && answer ? answer : "", val, val_len);
    if (*ierror == SCR_SUCCESS) *ierror = out;
  }
  free(answer);
}
SCRF_EXPORT(scr_config, SCR_CONFIG)

/* FILE is blank after an error, never an earlier call's path. */
void scr_route_file_(const char* name, char* file, int* ierror, scrf_len name_len, scrf_len file_len) {
  char in[SCR_MAX_FILENAME], out[SCR_MAX_FILENAME];
  *ierror = name_in("SCR_ROUTE_FILE", name, name_len, in) == 0 ? SCR_Route_file(in, out) : SCRF_FAILURE;
  int written = result_out("SCR_ROUTE_FILE", "routed path", *ierror == SCR_SUCCESS ? out : "", file, file_len);
  if (*ierror == SCR_SUCCESS) *ierror = written;
}
SCRF_EXPORT(scr_route_file, SCR_ROUTE_FILE)

/* NAME is blank when there is no checkpoint or the call fails (as the C
 * call leaves an empty name), never what the caller had there. */
void scr_have_restart_(int* flag, char* name, int* ierror, scrf_len name_len) {
  char out[SCR_MAX_FILENAME];
  *ierror = SCR_Have_restart(flag, out);
  int written = result_out("SCR_HAVE_RESTART", "checkpoint name", *ierror == SCR_SUCCESS && *flag ? out : "",
                           name, name_len);
  if (*ierror == SCR_SUCCESS) *ierror = written;
}
SCRF_EXPORT(scr_have_restart, SCR_HAVE_RESTART)

/* NAME is blank after a failed call. A name too long for NAME sets IERROR,
 * but the restart phase has started: SCR_COMPLETE_RESTART must follow. */
void scr_start_restart_(char* name, int* ierror, scrf_len name_len) {
  char out[SCR_MAX_FILENAME];
  *ierror = SCR_Start_restart(out);
  int written = result_out("SCR_START_RESTART", "checkpoint name", *ierror == SCR_SUCCESS ? out : "", name, name_len);
  if (*ierror == SCR_SUCCESS) *ierror = written;
}
SCRF_EXPORT(scr_start_restart, SCR_START_RESTART)

void scr_complete_restart_(const int* valid, int* ierror) { *ierror = SCR_Complete_restart(*valid); }
SCRF_EXPORT(scr_complete_restart, SCR_COMPLETE_RESTART)

void scr_need_checkpoint_(int* flag, int* ierror) { *ierror = SCR_Need_checkpoint(flag); }
SCRF_EXPORT(scr_need_checkpoint, SCR_NEED_CHECKPOINT)

void scr_start_checkpoint_(int* ierror) { *ierror = SCR_Start_checkpoint(); }
SCRF_EXPORT(scr_start_checkpoint, SCR_START_CHECKPOINT)

void scr_complete_checkpoint_(const int* valid, int* ierror) { *ierror = SCR_Complete_checkpoint(*valid); }
SCRF_EXPORT(scr_complete_checkpoint, SCR_COMPLETE_CHECKPOINT)

void scr_start_output_(const char* name, const int* flags, int* ierror, scrf_len name_len) {
  char in[SCR_MAX_FILENAME];
  if (name_in("SCR_START_OUTPUT", name, name_len, in) != 0) {
    *ierror = SCRF_FAILURE;
    return;
  }
  *ierror = SCR_Start_output(in, *flags);
}
SCRF_EXPORT(scr_start_output, SCR_START_OUTPUT)

void scr_complete_output_(const int* valid, int* ierror) { *ierror = SCR_Complete_output(*valid); }
SCRF_EXPORT(scr_complete_output, SCR_COMPLETE_OUTPUT)

void scr_should_exit_(int* flag, int* ierror) { *ierror = SCR_Should_exit(flag); }
SCRF_EXPORT(scr_should_exit, SCR_SHOULD_EXIT)

/* SCR_CURRENT, SCR_DROP, SCR_DELETE: one dataset name in. */
static void by_name(const char* call, int (*fn)(const char*), const char* name, int* ierror, scrf_len name_len) {
  char in[SCR_MAX_FILENAME];
  *ierror = name_in(call, name, name_len, in) == 0 ? fn(in) : SCRF_FAILURE;
}

void scr_current_(const char* name, int* ierror, scrf_len name_len) {
  by_name("SCR_CURRENT", SCR_Current, name, ierror, name_len);
}
SCRF_EXPORT(scr_current, SCR_CURRENT)

void scr_drop_(const char* name, int* ierror, scrf_len name_len) {
  by_name("SCR_DROP", SCR_Drop, name, ierror, name_len);
}
SCRF_EXPORT(scr_drop, SCR_DROP)

void scr_delete_(const char* name, int* ierror, scrf_len name_len) {
  by_name("SCR_DELETE", SCR_Delete, name, ierror, name_len);
}
SCRF_EXPORT(scr_delete, SCR_DELETE)

void scr_get_version_(char* version, int* ierror, scrf_len version_len) {
  *ierror = result_out("SCR_GET_VERSION", "version", SCR_Get_version(), version, version_len);
}
SCRF_EXPORT(scr_get_version, SCR_GET_VERSION)
