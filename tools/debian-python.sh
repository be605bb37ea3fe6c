#!/usr/bin/env bash
# Provide CPython 3.14 or 3.15 (or another minor version Debian unstable
# ships) for the tests, and print the path of its `python3.X`:
#
#   python314="$(bash tools/debian-python.sh 3.14)"
#
# No registry reachable here ships these interpreters for this machine
# (Debian 12), and Debian's source packages for them are listed but not
# downloadable, so this takes Debian unstable's BINARY packages (python3.X,
# its -dev and -venv packages and the libraries they need, glibc among them),
# found with a private apt configuration: sources, preferences, package lists,
# status and download cache in a temporary folder, verified with the
# machine's Debian archive keyring, the machine's /etc/apt left as it is. They
# are unpacked with `dpkg-deb -x` (nothing is installed) into
# ~/.cache/fastaccept/debian-python3.X, outside the work tree, once; later
# runs check that folder and print the path at once. Delete the folder to take
# a newer release.
#
# The unpacked interpreter needs unstable's glibc (2.38 or newer), which is
# newer than the machine's, so it cannot be started directly. Its binary is
# moved to usr/libexec/, and usr/bin/python3.X becomes a small launcher script
# that starts it through the unpacked glibc's dynamic loader
# (`ld-linux-*.so.* --library-path <unpacked libs> --argv0 "$0" <binary>`).
# --argv0 hands Python the launcher's path, so `sys.executable` is the
# launcher (subprocesses, venv, virtualenv and pip run it again the same way)
# and the standard library is found beside it; no environment variable is set,
# so the programs Python starts (the compiler, a browser) run on the
# machine's own libraries. Two files are adjusted for the new place:
# include/python3.X/pyconfig.h, which in Debian only includes
# <x86_64-linux-gnu/python3.X/pyconfig.h> from the system's include folder,
# is replaced by that file, so C extensions compile (with the machine's gcc;
# an extension module links against no libpython), and WHEEL_PKG_DIR in the
# sysconfig data names the unpacked pip wheel, so `python3.X -m venv`
# installs it.
#
# Everything but the path goes to stderr.
set -euo pipefail

version="${1:-}"
[[ "$version" =~ ^3\.[0-9]+$ ]] || { echo "usage: $0 3.14|3.15" >&2; exit 2; }
command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null ||
  { echo "needs apt-get and dpkg-deb (a Debian-based machine)" >&2; exit 1; }

prefix="${XDG_CACHE_HOME:-$HOME/.cache}/fastaccept/debian-python$version"
python="$prefix/usr/bin/python$version"
done_marker="$prefix/.complete"

# What pip, venv, the C build and the suite need of the interpreter.
check="
import os, sys, sysconfig, ssl, sqlite3, ctypes, zlib, lzma, bz2, venv, ensurepip
assert '%d.%d' % sys.version_info[:2] == '$version', sys.version
assert sys.executable == '$python', sys.executable
assert os.path.isfile(os.path.join(sysconfig.get_path('include'), 'Python.h'))"
works() { [ -f "$done_marker" ] && "$python" -c "$check" 2>/dev/null; }

works && { echo "$python"; exit 0; }
mkdir -p "$(dirname "$prefix")"
exec 9>"$prefix.lock"
flock 9  # another run building the same version: wait for it, then reuse
works && { echo "$python"; exit 0; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Unstable on the Debian mirror this machine's apt already uses.
mirror="$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.sources 2>/dev/null |
  grep -oE '^(URIs:|deb) +[a-z]+://[^ ]+/debian( |$)' | head -n 1 | awk '{print $2}' || true)"
[ -n "$mirror" ] || { echo "no Debian mirror in the apt sources" >&2; exit 1; }
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
apt_dir="$work/apt"
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/parts"
echo "deb [signed-by=$keyring] $mirror unstable main" >"$apt_dir/sources.list"
: >"$apt_dir/status"  # nothing installed: resolve every dependency
arch="$(dpkg --print-architecture)"
apt_opts=(
  -o "Dir::Etc::SourceList=$apt_dir/sources.list"
  -o "Dir::Etc::SourceParts=$apt_dir/parts"
  -o "Dir::Etc::Preferences=$apt_dir/preferences"
  -o "Dir::Etc::PreferencesParts=$apt_dir/parts"
  -o "Dir::State::Lists=$apt_dir/lists"
  -o "Dir::State::status=$apt_dir/status"
  -o "Dir::Cache=$apt_dir/cache"
  -o "APT::Architecture=$arch"
  -o "APT::Architectures=$arch"
  -o "APT::Install-Recommends=false"
)
[ "$(id -u)" != 0 ] || apt_opts+=(-o "APT::Sandbox::User=root")  # _apt cannot write to $work

echo "== Debian unstable's python$version: resolving its packages" >&2
apt-get "${apt_opts[@]}" -qq update >&2
# libstdc++6 too, so that a C++ extension from a wheel finds one as new as the
# glibc it runs on.
packages="$(apt-get "${apt_opts[@]}" install --simulate \
  "python$version" "python$version-dev" "python$version-venv" libstdc++6 |
  awk '/^Inst /{print $2 "=" substr($3, 2)}')"
# Left out: what a compiler needs (the machine's gcc and C headers are used)
# and data or configuration the interpreter reads at their system paths
# (/usr/share/zoneinfo, /etc/ssl, /etc/services...), which the machine has.
skip='^(libc6-dev|libc-dev-bin|linux-libc-dev|libexpat1-dev|zlib1g-dev|tzdata|ca-certificates|openssl|media-types|netbase|debconf|readline-common)='
packages="$(grep -vE "$skip" <<<"$packages")"
grep "^python$version=" <<<"$packages" >&2 || { echo "unstable has no python$version" >&2; exit 1; }

mkdir -p "$work/debs"
# shellcheck disable=SC2086  # one package=version per word
(cd "$work/debs" && apt-get "${apt_opts[@]}" -qq download $packages >&2)

echo "== unpacking $(wc -l <<<"$packages") packages into $prefix" >&2
rm -rf "$prefix"
mkdir -p "$prefix"
for deb in "$work"/debs/*.deb; do
  dpkg-deb -x "$deb" "$prefix"
done

loader="$(ls "$prefix"/usr/lib/*/ld-linux*.so.* 2>/dev/null | head -n 1 || true)"
[ -n "$loader" ] || { echo "no dynamic loader among the unpacked libc6" >&2; exit 1; }
libs="$(dirname "$loader")"
triplet="$(basename "$libs")"
mkdir -p "$prefix/usr/libexec"
mv "$python" "$prefix/usr/libexec/python$version"
cat >"$python" <<EOF
#!/bin/sh
# Debian unstable's python$version, started by its own glibc's dynamic loader
# (written by fastaccept's tools/debian-python.sh).
exec $(printf '%q' "$loader") --library-path $(printf '%q' "$libs") --argv0 "\$0" $(printf '%q' "$prefix/usr/libexec/python$version") "\$@"
EOF
chmod +x "$python"
include="$prefix/usr/include"
cp "$include/$triplet/python$version/pyconfig.h" "$include/python$version/pyconfig.h"
sed -i "s|'WHEEL_PKG_DIR': '/usr/share/python-wheels/'|'WHEEL_PKG_DIR': '$prefix/usr/share/python-wheels/'|" \
  "$prefix/usr/lib/python$version"/_sysconfigdata_*.py
grep -q "$prefix/usr/share/python-wheels/" "$prefix/usr/lib/python$version"/_sysconfigdata_*.py ||
  { echo "WHEEL_PKG_DIR not found in the sysconfig data" >&2; exit 1; }

echo "$packages" >"$done_marker"
works || {
  rm -f "$done_marker"
  "$python" -c "$check" >&2 || true  # its traceback says what is wrong
  echo "the unpacked python$version does not work" >&2
  exit 1
}
"$python" -VV >&2
echo "$python"
