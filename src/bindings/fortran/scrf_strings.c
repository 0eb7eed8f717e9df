/* Fortran <-> C string conversion and error reports of libscrf (see
 * scrf_strings.h for the rules). */
#include "scrf_strings.h"

#include <mpi.h>
#include <stdio.h>
#include <string.h>

int scrf_to_c(const char* fstr, scrf_len flen, char* cstr, size_t cap) {
  cstr[0] = '\0';
  if (!fstr) return -1;
  while (flen > 0 && fstr[flen - 1] == ' ') --flen;
  if (flen >= cap) return -1;
  memcpy(cstr, fstr, flen);
  cstr[flen] = '\0';
  return 0;
}

int scrf_to_fortran(const char* cstr, char* fstr, scrf_len flen) {
  size_t n = strlen(cstr);
  if (n > flen) {
    memset(fstr, ' ', flen);
    return -1;
  }
  memcpy(fstr, cstr, n);
  memset(fstr + n, ' ', flen - n);
  return 0;
}

void scrf_error(const char* call, const char* what) {
  int up = 0, down = 0, rank = -1;
  MPI_Initialized(&up);
  MPI_Finalized(&down);
  if (up && !down) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank >= 0)
    fprintf(stderr, "SCR++ ERROR rank %d: %s: %s\n", rank, call, what);
  else
    fprintf(stderr, "SCR++ ERROR: %s: %s\n", call, what);
  fflush(stderr);
}
