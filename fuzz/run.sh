#!/usr/bin/env bash
# Build the Cython engine with clang's coverage instrumentation and
# AddressSanitizer in a throwaway virtualenv, then fuzz it with atheris.
#
#   bash fuzz/run.sh                       # 10 minutes
#   FUZZ_SECONDS=3600 bash fuzz/run.sh     # longer
# Findings are written as crash-*/timeout-* files in fuzz/findings/.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${FUZZ_VENV:-.venv-fuzz}"
python3 -m venv "$venv"
. "$venv/bin/activate"
python tools/requirements.py | xargs pip install --quiet atheris
rm -rf build src/fastaccept/_scan.c src/fastaccept/_scan.*.so
CC=clang LDSHARED="clang -shared" CFLAGS="-fsanitize=address,fuzzer-no-link -g -O1" \
  LDFLAGS="-fsanitize=address" FASTACCEPT_REQUIRE_EXTENSIONS=1 pip install --quiet --no-build-isolation -e .
mkdir -p fuzz/findings fuzz/work
cp fuzz/corpus/* fuzz/work/
# atheris' libFuzzer must share the ASan runtime the extension was built with.
export LD_PRELOAD="$(python -c 'import atheris; print(atheris.path())')/asan_with_fuzzer.so"
export ASAN_OPTIONS="detect_leaks=0:allocator_may_return_null=1"
python fuzz/fuzz_accept.py fuzz/work -artifact_prefix=fuzz/findings/ \
  -max_total_time="${FUZZ_SECONDS:-600}" -max_len=4096 -print_final_stats=1
