#!/usr/bin/env bash
# Run the test suite under valgrind memcheck (with the regular build of the
# extension) and fail on any error whose stack passes through fastaccept's
# extension module. CPython and glibc have known false positives of their own
# (e.g. AVX2 wmemcmp over-reads); those are listed in the summary, not judged.
#
#   bash tools/valgrind.sh                  # after: pip install -e ".[test]"
set -euo pipefail
cd "$(dirname "$0")/.."
logs=$(mktemp -d)
export PYTHONMALLOC=malloc FASTACCEPT_FUZZ_EXAMPLES="${FASTACCEPT_FUZZ_EXAMPLES:-60}"
valgrind --tool=memcheck --leak-check=no --track-origins=yes --num-callers=40 \
  --log-file="$logs/vg.%p.log" python -m pytest -q -p no:cacheprovider tests "$@"
python3 - "$logs" <<'PY'
import pathlib, re, sys
errors = ours = 0
for log in pathlib.Path(sys.argv[1]).glob("vg.*.log"):
    for block in re.split(r"\n==\d+== \n", log.read_text(errors="replace")):
        if re.search(r"== (Invalid|Conditional jump|Use of uninitialised|Syscall param|Mismatched|Source and destination)", block):
            errors += 1
            if "fastaccept" in block or "_scan" in block:
                ours += 1
                print(block)
print(f"valgrind: {errors} error report(s) in all, {ours} through fastaccept")
sys.exit(1 if ours else 0)
PY
