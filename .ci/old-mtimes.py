#!/usr/bin/env python3
"""Give a fresh clone's unchanged files and folders an old mtime, so that cargo reuses the
build kept outside the clone for what did not change (.ci/run explains why).

Usage: old-mtimes.py BUILT < NOW, where each is `<blob> <path>` per tracked file: BUILT as
the last successful build read them, NOW as they are. A file is old when its line is in
both. A folder is old when no file under it was added, removed or changed: cargo reads a
folder's own mtime for a build script's `rerun-if-changed` on it (libgit2-sys names three).
"""

import os
import sys

OLD_NS = 1_000_000_000 * 1_000_000_000  # 2001-09-09, before any build kept here


def paths(lines):
    return {line.split(" ", 1)[1] for line in lines}


def folders(path):
    parts = path.split("/")[:-1]
    return {"/".join(parts[: i + 1]) for i in range(len(parts))}


def main():
    with open(sys.argv[1], encoding="utf-8") as built:
        before = set(built.read().splitlines())
    now = set(sys.stdin.read().splitlines())
    unchanged = paths(before & now)
    changed = paths(before ^ now)
    old_folders = set().union(*map(folders, unchanged)) - set().union(*map(folders, changed))
    # Files first: setting a file's mtime does not change its folder's.
    for path in sorted(unchanged) + sorted(old_folders, key=len, reverse=True):
        stat = os.lstat(path)
        os.utime(path, ns=(stat.st_atime_ns, OLD_NS), follow_symlinks=False)
    print(f"ci: {len(unchanged)} files and {len(old_folders)} folders as the kept build read them, "
          f"{len(paths(now) - unchanged)} files changed since")


if __name__ == "__main__":
    main()
