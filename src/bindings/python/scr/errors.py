"""Exceptions of the scr package.

SCRError derives from RuntimeError, the exception SCR 3.1's Python module
raises, so code written for it (``except RuntimeError``) keeps working.
"""


class SCRError(RuntimeError):
    """An SCR call returned an error; the message is the library's, naming the
    call and the cause (it is printed on stderr too)."""


class IntegrityError(SCRError, ValueError):
    """Data read back through SCR is not what was written (checksum mismatch,
    truncated or malformed file)."""
