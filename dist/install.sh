#!/bin/sh
# Install arbiter from a release:
#
#   curl --proto '=https' --tlsv1.2 -LsSf https://github.com/arbiter-dev/arbiter/releases/latest/download/install.sh | sh
#
# It picks the archive for this machine (Linux x86_64 or aarch64 with glibc, macOS x86_64
# or Apple silicon), downloads it and its SHA-256 with curl (or wget), checks it (sha256sum
# or shasum), and puts the one file `arbiter` in the install directory: written beside it
# under a temporary name, then renamed over `arbiter`, so nothing else there is touched and
# nothing is installed when anything fails. The binary has the engine's weights inside.
#
#   ARBITER_INSTALL_DIR   where `arbiter` goes [default: ~/.local/bin], made with your umask
#   ARBITER_VERSION       a release's tag (v0.1.0) instead of the latest release
#   ARBITER_DOWNLOAD_URL  where the latest release's assets are
#                         [default: https://github.com/arbiter-dev/arbiter/releases/latest/download];
#                         with ARBITER_VERSION, its `/latest/download` becomes `/download/TAG`
#
# Published with each release by .github/workflows/release.yml; tests/cli/release.rs runs
# it against a fake release server.
set -eu

REPOSITORY=https://github.com/arbiter-dev/arbiter
FROM_SOURCE="build from source (cargo install --locked --git $REPOSITORY)"

say() {
  printf '%s\n' "$*"
}

err() {
  printf 'arbiter installer: %s\n' "$*" >&2
  exit 1
}

# This machine's target triple, as the release archives are named.
detect_target() {
  os=$(uname -s)
  arch=$(uname -m)
  case $arch in
    x86_64 | amd64) arch=x86_64 ;;
    aarch64 | arm64) arch=aarch64 ;;
    *) err "no release for this CPU ($arch): $FROM_SOURCE" ;;
  esac
  case $os in
    Linux)
      if ldd --version 2>&1 | grep -qi musl; then
        err "no release for musl libc (Alpine): $FROM_SOURCE"
      fi
      echo "$arch-unknown-linux-gnu"
      ;;
    Darwin)
      # A shell under Rosetta says x86_64 on Apple silicon: take the native build.
      if [ "$arch" = x86_64 ] && [ "$(sysctl -n hw.optional.arm64 2>/dev/null || true)" = 1 ]; then
        arch=aarch64
      fi
      echo "$arch-apple-darwin"
      ;;
    *) err "no release for this system ($os): $FROM_SOURCE" ;;
  esac
}

# Download URL into FILE; https stays https (TLS 1.2 or later) through every redirect.
download() {
  url=$1
  file=$2
  if command -v curl >/dev/null 2>&1; then
    case $url in
      https://*) curl --proto '=https' --tlsv1.2 -fsSL -o "$file" "$url" ;;
      *) curl -fsSL -o "$file" "$url" ;;
    esac
  elif command -v wget >/dev/null 2>&1; then
    case $url in
      https://*) wget --https-only -q -O "$file" "$url" ;;
      *) wget -q -O "$file" "$url" ;;
    esac
  else
    err "neither curl nor wget is installed: install one of them"
  fi || err "could not download $url"
}

sha256() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1"
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1"
  else
    err "neither sha256sum nor shasum is installed: cannot check the download"
  fi | cut -d ' ' -f 1
}

main() {
  target=$(detect_target)
  base=${ARBITER_DOWNLOAD_URL:-$REPOSITORY/releases/latest/download}
  base=${base%/}
  if [ -n "${ARBITER_VERSION:-}" ]; then
    case $base in
      */latest/download) base="${base%/latest/download}/download/$ARBITER_VERSION" ;;
      *) err "ARBITER_VERSION needs an ARBITER_DOWNLOAD_URL ending in /latest/download, not $base" ;;
    esac
  fi
  dir=${ARBITER_INSTALL_DIR:-${HOME:?HOME is not set: set ARBITER_INSTALL_DIR}/.local/bin}
  archive=arbiter-$target.tar.gz

  tmp=$(mktemp -d)
  part=
  trap 'rm -rf "$tmp"; if [ -n "$part" ]; then rm -f "$part"; fi' EXIT
  trap 'exit 1' HUP INT TERM
  download "$base/$archive" "$tmp/$archive"
  download "$base/$archive.sha256" "$tmp/$archive.sha256"

  read -r expected _ <"$tmp/$archive.sha256" || true
  actual=$(sha256 "$tmp/$archive")
  if [ "${#expected}" -ne 64 ] || [ "$actual" != "$expected" ]; then
    err "the checksum of $archive does not match $archive.sha256 (expected ${expected:-nothing}, got $actual): nothing was installed"
  fi

  (cd "$tmp" && tar -xzf "$archive")
  binary=$tmp/arbiter-$target/arbiter
  if [ ! -f "$binary" ]; then
    err "$archive has no arbiter-$target/arbiter: nothing was installed"
  fi
  # It runs here (a glibc or an OpenSSL it needs may be missing), or nothing is installed.
  if ! version=$("$binary" --version 2>&1); then
    err "the downloaded arbiter does not run here: $version; nothing was installed"
  fi

  mkdir -p "$dir"
  if [ -d "$dir/arbiter" ]; then
    err "$dir/arbiter is a directory: nothing was installed"
  fi
  part=$(mktemp "$dir/.arbiter.XXXXXX")
  cat "$binary" >"$part"
  # The mode your umask gives a new executable (mktemp made it 600).
  chmod "$(printf '%o' $((0777 & ~$(umask))))" "$part"
  mv -f "$part" "$dir/arbiter"
  part=

  say "installed $version to $dir/arbiter"
  case ":$PATH:" in
    *":$dir:"* | *":$dir/:"*) ;;
    *) say "$dir is not on your PATH: add it (e.g. in ~/.profile: export PATH=\"$dir:\$PATH\")" ;;
  esac
}

main "$@"
