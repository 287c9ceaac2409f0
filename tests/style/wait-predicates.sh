#!/usr/bin/env bash
# wait_for runs its command again until it succeeds, but the shell expands the command's
# arguments once, when wait_for is called: `wait_for "x" test "$(count)" = 2` compares the
# count taken at the call forever, and passes only if the change had already happened (five
# such waits were found, one failing in a loaded run). A value that changes is read inside
# a function (or an `sh -c` string) that wait_for runs each time.
set -euo pipefail
root=${CORDON_SOURCE_ROOT:?CORDON_SOURCE_ROOT is not set}
cd "$root"
mapfile -t files < <(find tests bench -type f -name '*.sh' | sort)
# Fewer would mean the search looked in the wrong place and checked nothing.
((${#files[@]} > 100)) || { echo "FAIL: only ${#files[@]} test scripts" >&2; exit 1; }

# A wait whose command is test, [ or [[ with a command substitution in its arguments.
hits=$(grep -nE '^[[:space:]]*wait_for "[^"]*" +(test|\[\[?) .*\$\(' "${files[@]}" || true)
if [[ -n "$hits" ]]; then
	echo "FAIL: a wait compares a value read once, at its call:" >&2
	echo "$hits" >&2
	exit 1
fi
echo "${#files[@]} test scripts: no wait compares a value read once"
