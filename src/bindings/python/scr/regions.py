"""Memory regions protected without files (SCR++ extension): NumPy arrays
registered by name, checkpointed together, restored in place at restart.

    regions = scr.Regions()
    regions.protect("step", step)          # step = numpy.zeros(1, "i8")
    regions.protect("grid", grid)
    name = regions.restore()               # None: no checkpoint to restart from
    ...
    regions.checkpoint(f"step.{n}")

Each array's dtype, shape and memory order are stored with it (as a type tag beside its
id, size and checksum), and restore() refuses, before any array is touched,
a checkpoint whose arrays differ in dtype, shape or order, lack an array protected
here, or hold one not protected here. The arrays must be contiguous and
writeable; a Regions keeps a reference to each, so it stays where SCR++
reads and writes it, and unprotects them all when closed (``with`` or
close()) or dropped. A name is mapped to an id by CRC32 unless one is given.

At another job size, inside `with scr.restart() as rs:`, info(writer, name)
says what a writer stored and load_from(writer, name, out) reads it into a
matching array. NumPy is imported only when an array is protected.
"""
import zlib

from . import _lib
from .core import _check, _name, _name_text
from .errors import SCRError

_ffi = _lib.FFI()
_ffi.cdef("""
int SCRPP_Protect_typed(int id, void* ptr, size_t count, size_t elem_size, const char* type);
int SCRPP_Unprotect(int id);
int SCRPP_Checkpoint(const char* name);
int SCRPP_Write_regions(void);
int SCRPP_Restore(int* restored, char* name);
int SCRPP_Read_regions(void);
int SCRPP_Region_info(int writer, int id, unsigned long long* count, unsigned long long* elem_size, char* type);
int SCRPP_Restore_from(int writer, int id, void* ptr, size_t count, size_t elem_size);
""")
_c = _ffi.dlopen(_lib.path)


def _type_tag(array):
    # Memory order too: a C-ordered region restored into a Fortran-ordered
    # array of the same shape would come back transposed.
    order = "C" if array.flags.c_contiguous else "F"
    return f"{array.dtype.str}{tuple(array.shape)}{order}"


def _checked_array(array, what):
    try:
        import numpy
    except ImportError as e:
        raise ImportError(f"scr.Regions needs NumPy, which this Python cannot import ({e})") from e
    if not isinstance(array, numpy.ndarray):
        raise SCRError(f"{what} must be a numpy.ndarray, not {type(array).__name__}")
    if array.dtype.hasobject:
        raise SCRError(f"{what} holds Python objects, which cannot be stored as bytes")
    if not (array.flags.c_contiguous or array.flags.f_contiguous) or not array.flags.writeable:
        raise SCRError(f"{what} must be contiguous and writeable (it is read back in place)")
    return array


def _pointer(array):
    return _ffi.cast("void*", array.ctypes.data)


class Regions:
    """The arrays protected through this object, by name."""

    def __init__(self):
        self._ids = {}     # name -> id
        self._arrays = {}  # name -> array (kept alive while protected)

    def protect(self, name, array, id=None):
        """Protect (or re-protect) `array` under `name` (id: CRC32 of the name
        unless given)."""
        if not isinstance(name, str):
            raise SCRError(f"a region's name must be a str, not {type(name).__name__}: {name!r}")
        _checked_array(array, f"region {name!r}")
        rid = (zlib.crc32(name.encode("utf-8")) & 0x7FFFFFFF) if id is None else int(id)
        for other, other_id in self._ids.items():
            if other_id == rid and other != name:
                raise SCRError(f"regions {other!r} and {name!r} have the same id {rid}; give one an id")
        tag = _name(_type_tag(array), "type tag")
        _check(_c.SCRPP_Protect_typed(rid, _pointer(array), array.size, array.itemsize, tag), "SCRPP_Protect")
        self._ids[name] = rid
        self._arrays[name] = array

    def unprotect(self, name):
        if name not in self._ids:
            raise SCRError(f"no region {name!r} is protected here")
        _check(_c.SCRPP_Unprotect(self._ids[name]), "SCRPP_Unprotect")
        del self._ids[name], self._arrays[name]

    def close(self):
        """Unprotect every array protected here."""
        for name in list(self._ids):
            self.unprotect(name)

    def __del__(self):
        # Dropped without close(): the arrays it kept alive may go with it,
        # so SCR++ must not keep pointing at them.
        try:
            self.close()
        except Exception:
            pass

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        self.close()
        return False

    def checkpoint(self, name=None):
        """Collective: one checkpoint of every protected region."""
        _check(_c.SCRPP_Checkpoint(_name(name, "dataset name") if name else _ffi.NULL), "SCRPP_Checkpoint")

    def write(self):
        """Inside an open output phase (scr.checkpoint()/scr.output()): add the regions to it.
        Once per phase: a second call raises SCRError and changes nothing."""
        _check(_c.SCRPP_Write_regions(), "SCRPP_Write_regions")

    def restore(self):
        """Collective: read every region back from the checkpoint offered for
        restart; its name, or None when there is none."""
        restored = _ffi.new("int*")
        name = _ffi.new("char[]", 1024)
        _check(_c.SCRPP_Restore(restored, name), "SCRPP_Restore")
        return _name_text(_ffi.string(name)) if restored[0] else None

    def read(self):
        """Inside an open restart phase (collective): read every region back."""
        _check(_c.SCRPP_Read_regions(), "SCRPP_Read_regions")

    def _id(self, name, id):
        if id is not None:
            return int(id)
        return self._ids.get(name, zlib.crc32(name.encode("utf-8")) & 0x7FFFFFFF)

    def info(self, writer, name, id=None):
        """Inside a restart phase: (count, itemsize, type tag) of what `writer` stored under `name`."""
        count = _ffi.new("unsigned long long*")
        size = _ffi.new("unsigned long long*")
        tag = _ffi.new("char[]", 1024)
        _check(_c.SCRPP_Region_info(writer, self._id(name, id), count, size, tag), "SCRPP_Region_info")
        return count[0], size[0], _name_text(_ffi.string(tag))

    def load_from(self, writer, name, out, id=None):
        """Inside a restart phase: `writer`'s region `name` into `out`, whose
        dtype and shape must be those stored."""
        _checked_array(out, "out")
        _, _, tag = self.info(writer, name, id)
        if tag and tag != _type_tag(out):
            raise SCRError(f"region {name!r} of rank {writer} is {tag}, out is {_type_tag(out)}")
        _check(_c.SCRPP_Restore_from(writer, self._id(name, id), _pointer(out), out.size, out.itemsize),
               "SCRPP_Restore_from")
        return out
