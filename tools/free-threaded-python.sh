#!/usr/bin/env bash
# Provide a free-threaded CPython 3.13.15 (python3.13t) for the tests, and
# print its path. No package registry ships one, so it is built from source,
# once, and cached outside the work tree; later runs reuse the cached build.
#
#   python_t="$(bash tools/free-threaded-python.sh)"
#
# The source tarball comes from ../shared/cpython/ beside the repository when
# it is there; otherwise from Debian's source package python3.13 (3.13.15-1,
# unstable), fetched with a private apt configuration: the machine's own apt
# sources are left as they are. FASTACCEPT_FT_PREFIX sets the cache folder.
# Everything but the path goes to stderr.
set -euo pipefail

version=3.13.15
debian_version=3.13.15-1
sha256=1e66a7945a48390ee4c2a4268a0e4185884059a13c4aab6d148aa208deea4a76
prefix="${FASTACCEPT_FT_PREFIX:-${XDG_CACHE_HOME:-$HOME/.cache}/fastaccept/cpython-${version}t}"
python="$prefix/bin/python3.13t"

is_free_threaded() {
  [ -x "$python" ] && "$python" -c 'import sys; assert not sys._is_gil_enabled()' 2>/dev/null
}

if is_free_threaded; then
  echo "$python"
  exit 0
fi

repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
tarball="$repo/../shared/cpython/python3.13_${version}.orig.tar.xz"

if [ ! -f "$tarball" ]; then
  echo "== no shared copy: fetching the source package python3.13=$debian_version" >&2
  # A deb-src line for unstable on the mirror this machine already uses.
  mirror="$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.sources 2>/dev/null |
    grep -oE '^(URIs:|deb) +[a-z]+://[^ ]+/debian( |$)' | head -n 1 | awk '{print $2}' || true)"
  [ -n "$mirror" ] || { echo "no Debian mirror in the apt sources" >&2; exit 1; }
  apt_dir="$work/apt"
  mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/parts"
  echo "deb-src [trusted=yes] $mirror unstable main" >"$apt_dir/sources.list"
  apt_opts=(
    -o "Dir::Etc::SourceList=$apt_dir/sources.list"
    -o "Dir::Etc::SourceParts=$apt_dir/parts"
    -o "Dir::State::Lists=$apt_dir/lists"
    -o "Dir::Cache=$apt_dir/cache"
  )
  apt-get "${apt_opts[@]}" update >&2
  (cd "$work" && apt-get "${apt_opts[@]}" source --download-only "python3.13=$debian_version" >&2)
  tarball="$work/python3.13_${version}.orig.tar.xz"
fi

echo "$sha256  $tarball" | sha256sum --check --quiet - >&2
echo "== building CPython $version with --disable-gil into $prefix (about 4 minutes on 2 cores)" >&2
tar -xf "$tarball" -C "$work"
# Without CPython's own tests (Lib/test, _testcapi and the other test
# modules): a sixth of the time, and the one test of ours that needs
# _testcapi (failing allocations, tests/test_stress.py) skips on a
# free-threaded CPython, whose heap does not survive it.
(
  cd "$work/Python-$version"
  ./configure --disable-gil --disable-test-modules --prefix="$prefix" --with-ensurepip=install >"$work/configure.log" 2>&1 ||
    { tail -n 40 "$work/configure.log" >&2; exit 1; }
  make -j"$(nproc)" >"$work/make.log" 2>&1 || { tail -n 40 "$work/make.log" >&2; exit 1; }
  make install >"$work/install.log" 2>&1 || { tail -n 40 "$work/install.log" >&2; exit 1; }
)
is_free_threaded || { echo "the build at $python is not free-threaded" >&2; exit 1; }
"$python" -c 'import ssl, zlib, ctypes' >&2  # pip and the test suite need these
echo "$python"
