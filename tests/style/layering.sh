#!/usr/bin/env bash
# The portals are a library below the compositor (docs/architecture.md, "Layering"): they see it
# only through include/portals/host.h. portals/meson.build links the whole library without the
# compositor, so a call into compositor/ fails the build; this catches the step before, a
# compositor header included under portals/ (its types and inline code need no link).
set -euo pipefail
root=${CORDON_SOURCE_ROOT:?CORDON_SOURCE_ROOT is not set}
cd "$root"
mapfile -t files < <(find portals include/portals -type f \( -name '*.c' -o -name '*.h' \) | sort)
# Fewer would mean the search looked in the wrong place and checked nothing.
((${#files[@]} > 50)) || { echo "FAIL: only ${#files[@]} C files under portals/" >&2; exit 1; }

fail=0
while IFS= read -r hit; do
	echo "FAIL: a portal file includes a compositor header: $hit" >&2
	fail=1
done < <(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]([^">]*/)?compositor/' \
	"${files[@]}" || true)
# The library's sources are its own: a compositor file listed there would be built into it.
while IFS= read -r hit; do
	echo "FAIL: portals/meson.build builds a compositor source: $hit" >&2
	fail=1
done < <(grep -nE "compositor/[^']*\.c'" portals/meson.build || true)
((fail == 0)) || { echo "FAIL: go through the host interface (include/portals/host.h)" >&2; exit 1; }
echo "${#files[@]} portal files include no compositor header"
