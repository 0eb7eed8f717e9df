"""Loading libscr through cffi (ABI mode: no compiler needed at import).

The library is looked up, first match wins:
  1. $SCRPP_LIBSCR, a path to libscr.so (for unusual layouts; not an SCR_*
     name because the library warns about SCR_* variables it does not know);
  2. the path recorded at build or install time in _where.py, relative to
     this package when installed, so a relocated installation still works;
  3. ctypes.util.find_library("scr"), i.e. the system's library path.
"""
import ctypes.util
import os

from cffi import FFI

ffi = FFI()
# The declarations of scr.h that the package calls (cffi needs them spelled
# out; scr.h itself has macros cffi cannot read), and SCR++'s extensions
# (include/scr/scr_ext.h): SCRPP_Config_checked, SCRPP_Last_error and the
# restart listing.
ffi.cdef("""
int SCRPP_Config_checked(const char* config, char** value);
int SCRPP_Last_error(char* buf, size_t size);
int SCRPP_Restart_ranks(int* ranks);
int SCRPP_Restart_file_count(int* count);
int SCRPP_Restart_file(int index, char* name, int* rank, unsigned long long* size);
int SCR_Init(void);
int SCRPP_Init_comm_f(int comm);
int SCR_Finalize(void);
int SCR_Route_file(const char* name, char* file);
int SCR_Have_restart(int* flag, char* name);
int SCR_Start_restart(char* name);
int SCR_Complete_restart(int valid);
int SCR_Need_checkpoint(int* flag);
int SCR_Start_checkpoint(void);
int SCR_Complete_checkpoint(int valid);
int SCR_Start_output(const char* name, int flags);
int SCR_Complete_output(int valid);
int SCR_Should_exit(int* flag);
int SCR_Current(const char* name);
int SCR_Drop(const char* name);
int SCR_Delete(const char* name);
char* SCR_Get_version(void);
void free(void* ptr);
""")


def _candidates():
    override = os.environ.get("SCRPP_LIBSCR")
    if override:
        return [override]
    found = []
    try:
        from . import _where
        here = os.path.dirname(os.path.abspath(__file__))
        found.append(os.path.normpath(os.path.join(here, _where.LIBSCR)))
    except ImportError:
        pass
    system = ctypes.util.find_library("scr")
    if system:
        found.append(system)
    return found


def _load():
    tried = []
    for path in _candidates():
        try:
            return ffi.dlopen(path), path
        except OSError as e:
            tried.append(f"{path}: {e}")
    raise ImportError("scr: cannot load libscr (set SCRPP_LIBSCR to its path); tried:\n  " +
                      ("\n  ".join(tried) if tried else "nothing was found"))


lib, path = _load()
