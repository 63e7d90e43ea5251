#!/usr/bin/env bash
# Install the prebuilt skillgate binary of one release, checksum verified.
# Used by action.yml (the GitHub Action installs its own version); usable
# anywhere:
#
#   SKILLGATE_VERSION=v0.2.0 SKILLGATE_REPOSITORY=OWNER/skillgate \
#     bash hooks/install-release.sh "$HOME/.local"     # → $HOME/.local/bin/skillgate
#
# Environment:
#   SKILLGATE_VERSION     a release tag (`v*`); anything else (a branch, a sha,
#                         empty) means "no release": exit 10
#   SKILLGATE_REPOSITORY  owner/name of the repository holding the releases
#   SKILLGATE_DOWNLOAD    base URL (default https://github.com), for mirrors and tests
#   SKILLGATE_TARGET      target triple (default: from uname, or RUNNER_OS/RUNNER_ARCH)
#
# Exit codes: 0 installed; 10 no release binary for this version or platform
# (the caller falls back to building from source); 1 a download failed
# halfway, or the checksum does not match (never fall back silently: that
# is what tampering looks like).
set -euo pipefail

dest="${1:?usage: install-release.sh DEST_DIR}"
version="${SKILLGATE_VERSION:-}"
repo="${SKILLGATE_REPOSITORY:-}"
base="${SKILLGATE_DOWNLOAD:-https://github.com}"

case "$version" in
  v[0-9]*) ;;
  *) echo "skillgate: '${version}' is not a release tag: no prebuilt binary" >&2; exit 10 ;;
esac
if [ -z "$repo" ]; then
  echo "skillgate: SKILLGATE_REPOSITORY is not set: no prebuilt binary" >&2
  exit 10
fi

target="${SKILLGATE_TARGET:-}"
if [ -z "$target" ]; then
  os="${RUNNER_OS:-$(uname -s)}"
  arch="${RUNNER_ARCH:-$(uname -m)}"
  case "$os/$arch" in
    Linux/X64|Linux/x86_64) target=x86_64-unknown-linux-gnu ;;
    Linux/ARM64|Linux/aarch64) target=aarch64-unknown-linux-gnu ;;
    macOS/ARM64|Darwin/arm64) target=aarch64-apple-darwin ;;
    macOS/X64|Darwin/x86_64) target=x86_64-apple-darwin ;;
    Windows/X64|MINGW*/x86_64|MSYS*/x86_64) target=x86_64-pc-windows-msvc ;;
    *) echo "skillgate: no prebuilt binary for ${os}/${arch}" >&2; exit 10 ;;
  esac
fi

case "$target" in
  *windows*) archive="skillgate-${target}.zip"; exe=skillgate.exe ;;
  *) archive="skillgate-${target}.tar.gz"; exe=skillgate ;;
esac
url="${base}/${repo}/releases/download/${version}/${archive}"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

fetch() {
  curl --proto '=https,http' --fail --silent --show-error --location --retry 2 --output "$2" "$1"
}

if ! fetch "$url.sha256" "$work/$archive.sha256" 2>"$work/err"; then
  echo "skillgate: no release binary at $url ($(tr -d '\n' < "$work/err"))" >&2
  exit 10
fi
if ! fetch "$url" "$work/$archive"; then
  echo "skillgate: $url: the checksum exists but the archive could not be downloaded" >&2
  exit 1
fi

expected="$(awk '{print $1; exit}' "$work/$archive.sha256" | tr 'A-F' 'a-f')"
if command -v sha256sum >/dev/null 2>&1; then
  actual="$(sha256sum "$work/$archive" | awk '{print $1}')"
else
  actual="$(shasum -a 256 "$work/$archive" | awk '{print $1}')"
fi
if [ -z "$expected" ] || [ "$expected" != "$actual" ]; then
  echo "skillgate: checksum mismatch for $archive: expected ${expected:-nothing}, got $actual — refusing to install" >&2
  exit 1
fi

mkdir -p "$work/x" "$dest/bin"
case "$archive" in
  *.zip) unzip -q "$work/$archive" -d "$work/x" ;;
  *) tar -xzf "$work/$archive" -C "$work/x" ;;
esac
bin="$(find "$work/x" -type f -name "$exe" | head -1)"
if [ -z "$bin" ]; then
  echo "skillgate: $archive holds no $exe" >&2
  exit 1
fi
cp "$bin" "$dest/bin/$exe"
chmod +x "$dest/bin/$exe"
echo "skillgate: installed ${version} (${target}) from ${url}, sha256 ${actual}" >&2
