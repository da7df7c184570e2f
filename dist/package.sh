#!/bin/sh
# A release archive of a built arbiter:
#
#   dist/package.sh BINARY TARGET OUTDIR [VERSION]
#
# writes OUTDIR/arbiter-TARGET.tar.gz, whose one top directory arbiter-TARGET/ holds the
# binary (`arbiter`), completions/, man/, README.md, LICENSE and MODEL-LICENSE (the bundled
# encoder weights' Apache-2.0, which their copies must carry), and beside it
# arbiter-TARGET.tar.gz.sha256, in sha256sum's format (`sha256sum -c` reads it).
# With VERSION, the binary must say it is that version, so a tag that is not Cargo.toml's
# version is never released under it.
#
# dist/install.sh and `[package.metadata.binstall]` in Cargo.toml read this layout;
# .github/workflows/release.yml runs this on each target's build, tests/cli/release.rs on
# the test build.
set -eu

if [ $# -lt 3 ] || [ $# -gt 4 ]; then
  echo "usage: dist/package.sh BINARY TARGET OUTDIR [VERSION]" >&2
  exit 2
fi
binary=$1 target=$2 outdir=$3 version=${4:-}
root=$(cd "$(dirname "$0")/.." && pwd)
name=arbiter-$target
# The archive's modes are the files' (755 the binary, 644 the rest), whoever packages it.
umask 022

if [ ! -f "$binary" ] || [ ! -x "$binary" ]; then
  echo "package.sh: $binary is not an executable file" >&2
  exit 1
fi
if [ -n "$version" ]; then
  said=$("$binary" --version)
  if [ "$said" != "arbiter $version" ]; then
    echo "package.sh: $binary says \`$said\`, not \`arbiter $version\`" >&2
    exit 1
  fi
fi

mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
staging=$(mktemp -d)
trap 'rm -rf "$staging"' EXIT
mkdir "$staging/$name"
cp "$binary" "$staging/$name/arbiter"
chmod 755 "$staging/$name/arbiter"
cp -R "$root/completions" "$root/man" "$staging/$name/"
cp "$root/README.md" "$root/LICENSE" "$root/assets/MODEL-LICENSE" "$staging/$name/"

# Entries owned by root (0:0), not by whoever packaged them: GNU tar on Linux, bsdtar on
# macOS (which also leaves out the `._` files of extended attributes).
if tar --version 2>/dev/null | grep -q 'GNU tar'; then
  set -- --owner=0 --group=0 --numeric-owner
else
  set -- --uid 0 --gid 0
fi
(cd "$staging" && COPYFILE_DISABLE=1 tar "$@" -czf "$outdir/$name.tar.gz" "$name")

cd "$outdir"
if command -v sha256sum >/dev/null 2>&1; then
  sha256sum "$name.tar.gz" >"$name.tar.gz.sha256"
else
  shasum -a 256 "$name.tar.gz" >"$name.tar.gz.sha256"
fi
echo "$outdir/$name.tar.gz"
