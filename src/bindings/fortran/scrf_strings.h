/*
 * Fortran <-> C strings for libscrf. A Fortran CHARACTER argument is a
 * pointer plus a hidden length passed after all explicit arguments; it is
 * blank-padded, not NUL-terminated.
 */
#ifndef SCRF_STRINGS_H
#define SCRF_STRINGS_H

#include <stddef.h>

/* gfortran (8 and later) passes hidden lengths as size_t; compilers that
 * pass an int are served too on the 64-bit little-endian ABIs SCR++ targets,
 * where an int argument occupies the low half of the same slot. */
typedef size_t scrf_len;

/* Copy a Fortran string into the C buffer cstr of cap bytes, trailing blanks
 * removed. Returns 0, or -1 if the trimmed string does not fit (cstr is then
 * empty) -- a too-long name is an error, never silently shortened. */
__attribute__((visibility("hidden"))) int scrf_to_c(const char* fstr, scrf_len flen, char* cstr, size_t cap);

/* Copy the C string cstr into the Fortran variable fstr of flen characters,
 * padding with blanks. Returns 0, or -1 if cstr is longer than flen: then
 * fstr is filled with blanks, so no partial (and wrong) name is ever left
 * for the caller to use. */
__attribute__((visibility("hidden"))) int scrf_to_fortran(const char* cstr, char* fstr, scrf_len flen);

/* Print "SCR++ ERROR rank R: CALL: what" on stderr, as libscr does for its
 * own errors, so a Fortran caller sees why IERROR is set. */
__attribute__((visibility("hidden"))) void scrf_error(const char* call, const char* what);

#endif /* SCRF_STRINGS_H */
