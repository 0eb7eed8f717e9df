/*
 * A checkpoint of one small text file per process, as the C API test
 * programs write and check it: dataset NAME holds, for rank R, the file
 * DIR/NAME/rank_R.dat (DIR may be empty) reading "NAME rank R\n".
 */
#ifndef SCR_API_TEXT_CKPT_H
#define SCR_API_TEXT_CKPT_H

#include <stdio.h>
#include <string.h>

#include "scr.h"

static inline void text_ckpt_file(char* file, size_t n, const char* dir, const char* name, int rank) {
  snprintf(file, n, "%s%s%s/rank_%d.dat", dir, *dir ? "/" : "", name, rank);
}

/* SCR_Start_output .. SCR_Complete_output of the checkpoint; 1 when valid. */
static inline int text_ckpt_write(const char* dir, const char* name, int rank) {
  char file[SCR_MAX_FILENAME], path[SCR_MAX_FILENAME];
  if (SCR_Start_output(name, SCR_FLAG_CHECKPOINT) != SCR_SUCCESS) return 0;
  text_ckpt_file(file, sizeof file, dir, name, rank);
  int ok = SCR_Route_file(file, path) == SCR_SUCCESS;
  FILE* f = ok ? fopen(path, "w") : NULL;
  ok = f != NULL && fprintf(f, "%s rank %d\n", name, rank) > 0;
  if (f) ok = fclose(f) == 0 && ok;
  return SCR_Complete_output(ok) == SCR_SUCCESS && ok;
}

/* Inside a restart phase: 1 when this rank's file routes and reads back. */
static inline int text_ckpt_read(const char* dir, const char* name, int rank) {
  char file[SCR_MAX_FILENAME], path[SCR_MAX_FILENAME], want[128], got[128] = {0};
  text_ckpt_file(file, sizeof file, dir, name, rank);
  snprintf(want, sizeof want, "%s rank %d\n", name, rank);
  if (SCR_Route_file(file, path) != SCR_SUCCESS) return 0;
  FILE* f = fopen(path, "r");
  if (!f) return 0;
  size_t n = fread(got, 1, sizeof got - 1, f);
  fclose(f);
  return n == strlen(want) && strcmp(got, want) == 0;
}

#endif /* SCR_API_TEXT_CKPT_H */
