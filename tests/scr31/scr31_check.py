#!/usr/bin/env python3
"""Checks of the SCR 3.1-layout files SCR++ leaves in a prefix, read with the
fixtures' own decoder (tests/fixtures/scr31/kvtree_dump.py).

  scr31_check.py kept OLD_INDEX NEW_INDEX
      every dataset entry of OLD (SCR 3.1's index) is in NEW unchanged (but
      for a FETCHED stamp of a restart), and so is its NAME entry
  scr31_check.py shape THEIRS OURS
      OURS has every key THEIRS has (an SCR 3.1 file of the same kind), with
      values and ranks left out: what SCR 3.1's reader looks up is there
  scr31_check.py flushed INDEX ID
      prints dataset ID's FLUSHED stamp
Exit 0 when the check holds, 1 with the differences on stderr."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "scr31"))
import kvtree_dump  # noqa: E402

# Keys SCR 3.1 writes only when set (SCR_JOB_NAME, SCR_CLUSTER_NAME).
OPTIONAL = {b"JOBNAME", b"CLUSTER"}


def load(path):
    with open(path, "rb") as f:
        return kvtree_dump.decode(f.read())


def as_dict(tree):
    return {k: as_dict(v) for k, v in tree}


def without(d, key):
    return {k: v for k, v in d.items() if k != key}


def kept(old_path, new_path):
    old, new = as_dict(load(old_path)), as_dict(load(new_path))
    bad = []
    for dset_id, entry in old.get(b"DSET", {}).items():
        got = new.get(b"DSET", {}).get(dset_id)
        if got is None or without(got, b"FETCHED") != without(entry, b"FETCHED"):
            bad.append("dataset entry %s changed or lost" % dset_id.decode())
    for name, entry in old.get(b"NAME", {}).items():
        if new.get(b"NAME", {}).get(name) != entry:
            bad.append("NAME entry %s changed or lost" % name.decode())
    if new.get(b"VERSION") != {b"2": {}}:
        bad.append("VERSION is not 2")
    return bad


def shape(tree, path=()):
    """Paths of keys, a leaf (a value) as '=', a number (an id, a rank) as '#'."""
    out = set()
    for key, sub in tree:
        if not sub:
            out.add(path + (b"=",))
            continue
        k = b"#" if key.isdigit() else key
        out.add(path + (k,))
        out |= shape(sub, path + (k,))
    return out


def same_shape(theirs_path, ours_path):
    theirs, ours = shape(load(theirs_path)), shape(load(ours_path))
    missing = [p for p in theirs - ours if not OPTIONAL & set(p)]
    return ["missing key " + "/".join(x.decode() for x in p) for p in sorted(missing)]


def main(argv):
    if len(argv) == 4 and argv[1] == "flushed":
        entry = as_dict(load(argv[2])).get(b"DSET", {}).get(argv[3].encode(), {})
        print(next(iter(entry.get(b"FLUSHED", {b"": {}}))).decode())
        return 0
    if len(argv) != 4 or argv[1] not in ("kept", "shape"):
        print(__doc__, file=sys.stderr)
        return 2
    bad = kept(argv[2], argv[3]) if argv[1] == "kept" else same_shape(argv[2], argv[3])
    for line in bad:
        print("%s: %s" % (argv[3], line), file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
