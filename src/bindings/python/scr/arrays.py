"""NumPy arrays in SCR datasets, saved with their dtype and shape and a
SHA-256 digest that load() verifies.

File layout (little-endian):
  8 bytes   magic b"SCRPPNDA"
  4 bytes   length H of the header
  H bytes   header: JSON object {"dtype", "shape", "order", "nbytes", "sha256"}
  nbytes    the array's bytes in the stated order ("C" or "F")
The digest covers the header without its "sha256" member (serialized with
sorted keys) followed by the data, so a damaged byte anywhere -- header or
data -- or a truncated file makes load() raise IntegrityError. Arrays of
Python objects are refused: they cannot be stored as plain bytes.

NumPy is imported when save() or load() is first called, not with the
package: the rest of scr works in a Python without NumPy, where these two
raise ImportError saying so.
"""
import hashlib
import json
import os
import struct

from .errors import IntegrityError

MAGIC = b"SCRPPNDA"
_LEN = struct.Struct("<I")
_MAX_HEADER = 1 << 20


def _numpy(call):
    try:
        import numpy
    except ImportError as e:
        raise ImportError(f"scr.{call} needs NumPy, which this Python cannot import ({e}); "
                          "install numpy (e.g. python3 -m pip install numpy) to save and load "
                          "arrays; the rest of scr works without it") from e
    return numpy


def _descr_from_json(descr):
    """np.lib.format descriptions use tuples, which JSON turns into lists:
    a plain dtype is a str, a structured one a list of (name, descr[, shape])."""
    if isinstance(descr, str):
        return descr
    fields = []
    for field in descr:
        name = tuple(field[0]) if isinstance(field[0], list) else field[0]
        item = (name, _descr_from_json(field[1]))
        if len(field) > 2:
            item += (tuple(field[2]),)
        fields.append(item)
    return fields


def _digest(header, data):
    h = hashlib.sha256(json.dumps(header, sort_keys=True).encode("utf-8"))
    h.update(data)
    return h.hexdigest()


def save(path, array):
    """Write array to path (a routed path) with its dtype, shape and digest."""
    write(path, encode(array))


def encode(array):
    """The header and data save() writes for array; raises (ImportError,
    TypeError) before anything is written or routed."""
    np = _numpy("save_array")
    a = np.asanyarray(array)
    if a.dtype.hasobject:
        raise TypeError("scr.save_array: arrays of Python objects cannot be saved")
    if isinstance(a, np.ma.MaskedArray):
        raise TypeError("scr.save_array: a masked array's mask would be lost; save its data and "
                        "np.ma.getmaskarray(a) as two arrays")
    order = "F" if a.flags.f_contiguous and not a.flags.c_contiguous else "C"
    a = np.asarray(a, order=order)
    data = a.tobytes(order=order) if a.size else b""
    header = {"dtype": np.lib.format.dtype_to_descr(a.dtype), "shape": list(a.shape),
              "order": order, "nbytes": len(data)}
    header = json.loads(json.dumps(header))  # the form load() will see
    header["sha256"] = _digest(header, data)
    raw = json.dumps(header, sort_keys=True).encode("utf-8")
    return raw, data


def write(path, encoded):
    """Write what encode() returned to path."""
    raw, data = encoded
    with open(path, "wb") as f:
        f.write(MAGIC)
        f.write(_LEN.pack(len(raw)))
        f.write(raw)
        f.write(data)
        f.flush()
        os.fsync(f.fileno())


def load(path):
    """Read an array saved by save(); raises IntegrityError if the file is not
    exactly what save() wrote."""
    np = _numpy("load_array")
    with open(path, "rb") as f:
        blob = f.read()
    if blob[:len(MAGIC)] != MAGIC or len(blob) < len(MAGIC) + _LEN.size:
        raise IntegrityError(f"{path}: not an array saved by scr.save_array")
    (hlen,) = _LEN.unpack_from(blob, len(MAGIC))
    start = len(MAGIC) + _LEN.size
    if hlen > _MAX_HEADER or start + hlen > len(blob):
        raise IntegrityError(f"{path}: damaged header length {hlen}")
    try:
        header = json.loads(blob[start:start + hlen].decode("utf-8"))
        stored = header.pop("sha256")
        nbytes = int(header["nbytes"])
        shape = tuple(int(n) for n in header["shape"])
        order = header["order"]
        dtype = np.lib.format.descr_to_dtype(_descr_from_json(header["dtype"]))
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        raise IntegrityError(f"{path}: damaged header ({e})") from None
    data = memoryview(blob)[start + hlen:]
    if len(data) != nbytes:
        raise IntegrityError(f"{path}: holds {len(data)} data bytes, the header says {nbytes}")
    if _digest(header, data) != stored:
        raise IntegrityError(f"{path}: SHA-256 mismatch, the file was damaged after it was written")
    count = int(np.prod(shape, dtype=np.int64)) if shape else 1
    if count * dtype.itemsize != nbytes or order not in ("C", "F"):
        raise IntegrityError(f"{path}: shape {shape} of {dtype} does not match {nbytes} bytes")
    flat = np.frombuffer(bytearray(data), dtype=dtype, count=count)
    return flat.reshape(shape, order=order)
