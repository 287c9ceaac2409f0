#!/usr/bin/env bash
# One package list (scripts/packages) for building, testing and benchmarking: the scripts
# that install do so from it, through scripts/install-packages, and no other script keeps
# a list of its own (bench/run once did, and failed on a fresh machine without cordon's
# build dependencies). Where dpkg is there, everything listed is installed: scripts/test
# installs it, and scripts/env's root is made from it.
set -euo pipefail
root=${CORDON_SOURCE_ROOT:?CORDON_SOURCE_ROOT is not set}
cd "$root"
list=scripts/packages
mapfile -t packages < <(sed 's/#.*//' "$list" | awk 'NF { print $1 }')
((${#packages[@]} > 20)) || { echo "FAIL: only ${#packages[@]} packages in $list" >&2; exit 1; }

fail=0
while IFS= read -r p; do
	echo "FAIL: $list names $p more than once" >&2
	fail=1
done < <(printf '%s\n' "${packages[@]}" | sort | uniq -d)
for p in "${packages[@]}"; do
	# Debian policy 5.6.1: lower case letters, digits, + - . ; two or more, a letter or digit first.
	[[ $p =~ ^[a-z0-9][a-z0-9.+-]+$ ]] || {
		echo "FAIL: '$p' in $list is not a Debian package name" >&2
		fail=1
	}
done

# Installing happens in two places only: scripts/env (the root) and scripts/install-packages.
# An apt-get inside a quoted string (a skip's advice) or a comment runs nothing.
while IFS= read -r hit; do
	echo "FAIL: installs packages outside scripts/install-packages: $hit" >&2
	fail=1
done < <(grep -rnE 'apt(-get)? .*install' scripts bench tests .ci 2>/dev/null |
	grep -vE '^(scripts/env|scripts/install-packages|tests/style/packages\.sh):' |
	awk '{
		text = $0; sub(/^[^:]*:[0-9]+:/, "", text)
		if (text ~ /^[ \t]*#/) next
		before = substr(text, 1, match(text, /apt(-get)? /) - 1)
		if (gsub(/"/, "", before) % 2 == 0) print
	}')
for caller in scripts/test bench/run; do
	grep -q 'scripts/install-packages' "$caller" || {
		echo "FAIL: $caller does not install through scripts/install-packages" >&2
		fail=1
	}
done

if command -v dpkg-query >/dev/null; then
	missing=()
	for p in "${packages[@]}"; do
		[[ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)" == installed ]] ||
			missing+=("$p")
	done
	if ((${#missing[@]})); then
		echo "FAIL: listed in $list but not installed: ${missing[*]} (scripts/install-packages installs them)" >&2
		fail=1
	fi
fi
((fail == 0)) || exit 1
echo "${#packages[@]} packages in $list, installed through scripts/install-packages only"
