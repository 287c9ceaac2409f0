#!/usr/bin/env bash
# Every C source and header follows .clang-format (docs/architecture.md, "Code style"), so
# that layout is never a review topic. Fix a failure with:
#	clang-format -i FILE...
set -euo pipefail
root=${CORDON_SOURCE_ROOT:?CORDON_SOURCE_ROOT is not set}
command -v clang-format >/dev/null || { echo "clang-format not found" >&2; exit 77; }
cd "$root"
mapfile -t files < <(find apps bench common compositor fuzz include portals sandbox tests \
	-type f \( -name '*.c' -o -name '*.h' \) | sort)
((${#files[@]} > 100)) || { echo "FAIL: only ${#files[@]} C files found under $root" >&2; exit 1; }
if ! clang-format --dry-run -Werror "${files[@]}" 2>"${TMPDIR:-/tmp}/cordon-format.$$"; then
	grep -E '^[^ ].*: error:' "${TMPDIR:-/tmp}/cordon-format.$$" | cut -d: -f1 | sort -u |
		sed 's/^/not formatted: /' >&2
	rm -f "${TMPDIR:-/tmp}/cordon-format.$$"
	echo "FAIL: run clang-format -i on the files above" >&2
	exit 1
fi
rm -f "${TMPDIR:-/tmp}/cordon-format.$$"
echo "${#files[@]} C files follow .clang-format ($(clang-format --version))"
