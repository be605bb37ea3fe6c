#!/usr/bin/env bash
# Build the Cython engine with AddressSanitizer and UndefinedBehaviorSanitizer
# (gcc) in a throwaway virtualenv, then run the test suite against it.
# Any ASan report or undefined behaviour aborts the run (exit non-zero).
#
#   bash tools/sanitize.sh            # from the repository root
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${SANITIZE_VENV:-.venv-sanitize}"
python3 -m venv "$venv"
. "$venv/bin/activate"
python tools/requirements.py | xargs pip install --quiet "pytest>=8" "hypothesis>=6.100"
rm -rf build src/fastaccept/_scan.c src/fastaccept/_scan.*.so
export CC=gcc
export CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -O1 -g"
export LDFLAGS="-fsanitize=address,undefined"
FASTACCEPT_REQUIRE_EXTENSIONS=1 pip install --quiet --no-build-isolation -e .
# Python itself is not built with ASan: preload the runtimes, and leave leak
# checking to tests/test_stress.py (the interpreter keeps memory at exit).
export LD_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)"
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:strict_string_checks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# ASan keeps freed memory in quarantine, so the resident-size leak test
# (tests/test_stress.py) skips itself here; it runs in the normal suite.
export FASTACCEPT_SANITIZED=1
python -c "import fastaccept; assert fastaccept.IMPLEMENTATION == 'cython'"
# -s: a report is written while a test runs and the process then aborts, so
# pytest must not capture it (captured, it is lost with the process).
pytest -q -s -p no:cacheprovider "$@"
