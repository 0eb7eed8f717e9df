/*
 * SCR++ C API -- a drop-in for SCR 3.x's scr.h.
 *
 * Conventions:
 *  - Every call except SCR_Route_file, SCR_Get_version and SCR_Config(f) is
 *    collective over MPI_COMM_WORLD and gives the same result on every rank.
 *  - SCR_Init after MPI_Init; SCR_Finalize before MPI_Finalize. SCR_Config
 *    may be called before SCR_Init.
 *  - Functions return SCR_SUCCESS or another value on error; the cause is
 *    printed on stderr. A call in the wrong state (Complete without Start,
 *    Route after Complete) is an error, never a crash.
 *  - Strings returned by SCR_Config(f) for a query are malloc'd: free() them.
 *  - Buffers passed as `name` or `file` must hold SCR_MAX_FILENAME bytes.
 */
#ifndef SCR_H
#define SCR_H

/* The SCR release this header is a drop-in for, spelled as SCR spells it
 * (strings). SCR++'s own version is in <scr/version.h>. */
#define SCR_MAJOR_VERSION "3"
#define SCR_MINOR_VERSION "1"
#define SCR_PATCH_VERSION "0"
#define SCR_VERSION "v3.1.0"

#define SCR_SUCCESS (0)
#define SCR_MAX_FILENAME 1024

#define SCR_FLAG_NONE (0 << 0)
#define SCR_FLAG_CHECKPOINT (1 << 0)
#define SCR_FLAG_OUTPUT (1 << 1)

#ifdef __cplusplus
extern "C" {
#endif

int SCR_Init(void);
int SCR_Finalize(void);

const char* SCR_Config(const char* config);
const char* SCR_Configf(const char* format, ...);

int SCR_Route_file(const char* name, char* file);

int SCR_Have_restart(int* flag, char* name);
int SCR_Start_restart(char* name);
int SCR_Complete_restart(int valid);

int SCR_Need_checkpoint(int* flag);
int SCR_Start_checkpoint(void);
int SCR_Complete_checkpoint(int valid);

int SCR_Start_output(const char* name, int flags);
int SCR_Complete_output(int valid);

int SCR_Current(const char* name);
int SCR_Drop(const char* name);
int SCR_Delete(const char* name);

char* SCR_Get_version(void);

int SCR_Should_exit(int* flag);

#ifdef __cplusplus
}
#endif

#endif /* SCR_H */
