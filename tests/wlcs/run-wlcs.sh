#!/usr/bin/env bash
# Runs the whole Wayland Conformance Test Suite against cordon (cordon-wlcs.so) and
# compares the result with the checked-in list of expected failures:
#
#	run-wlcs.sh WLCS MODULE EXPECTED-FAILURES [GTEST ARGS...]
#
# Fails when a test fails that is not listed, when a listed test passes (the list must
# stay true: take it out), when a listed test no longer exists or is skipped (full runs
# only: extra GTEST ARGS such as --gtest_filter turn that check off), when a listed test
# fails otherwise than its section's "match:" pattern says, and when wlcs itself crashes
# or a sanitizer reports. Skips (77) when the runner is missing.
# CORDON_WLCS_KEEP=1 keeps the log and the gtest JSON report.
set -euo pipefail

wlcs=$1 module=$2 expected_file=$3
shift 3

if [[ ! -x "$wlcs" ]]; then
	echo "SKIP: $wlcs not found (Debian package wlcs)"
	exit 77
fi
if ! command -v jq >/dev/null; then
	echo "SKIP: jq not found"
	exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cordon-wlcs.XXXXXX")
cleanup() {
	if [[ "${CORDON_WLCS_KEEP:-0}" == 1 ]]; then
		echo "kept $tmp"
	else
		rm -rf "$tmp"
	fi
}
trap cleanup EXIT

# A private, empty session: no display, no user configuration, software rendering.
unset DISPLAY WAYLAND_DISPLAY WAYLAND_SOCKET CORDON_SOCKET
mkdir -m 0700 "$tmp/runtime" "$tmp/config"
export XDG_RUNTIME_DIR="$tmp/runtime" XDG_CONFIG_HOME="$tmp/config"
export WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1

# Sanitizer builds: cordon's suppressions plus the ones only wlcs runs into.
if [[ -n "${LSAN_OPTIONS:-}" ]]; then
	here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
	cat "$here/../lsan.supp" "$here/lsan.supp" >"$tmp/lsan.supp"
	export LSAN_OPTIONS="suppressions=$tmp/lsan.supp"
fi

# The list: "[key] reason" opens a section, an optional "match: ERE" line says what the
# failure report of each of its tests must contain, each other line names one test.
declare -A expected=() reason_of=() match_of=()
section=
while IFS= read -r line || [[ -n "$line" ]]; do
	line=${line%%#*}
	line=${line%"${line##*[![:space:]]}"}
	[[ -z "$line" ]] && continue
	if [[ "$line" =~ ^\[([a-z0-9.-]+)\][[:space:]]+(.+)$ ]]; then
		section=${BASH_REMATCH[1]}
		reason_of[$section]=${BASH_REMATCH[2]}
		continue
	fi
	if [[ -n "$section" && "$line" =~ ^match:[[:space:]]+(.+)$ ]]; then
		match_of[$section]=${BASH_REMATCH[1]}
		continue
	fi
	if [[ -z "$section" ]]; then
		echo "FAIL: $expected_file: '$line' comes before any [reason] line"
		exit 1
	fi
	expected[$line]=$section
done <"$expected_file"

report="$tmp/report.json"
log="$tmp/wlcs.log"
echo "running $wlcs $module (log: $log)"
status=0
"$wlcs" "$module" --gtest_output="json:$report" "$@" >"$log" 2>&1 || status=$?

failed=0
if grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' "$log"; then
	echo "FAIL: a sanitizer reported (see below)"
	grep -A40 -E 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' "$log" | head -80
	failed=1
fi
if [[ ! -s "$report" ]]; then
	echo "FAIL: wlcs exited with status $status and wrote no report; its log ends:"
	tail -40 "$log"
	exit 1
fi

# One line per test: "RESULT NAME FAILURE", RESULT being PASS, FAIL or SKIP, FAILURE the
# failure messages on one line. wlcs marks the tests of a protocol the descriptor does
# not list with a wlcs-skip-test property.
jq -r '.testsuites[].testsuite[]
	| (if .result == "SKIPPED" or has("wlcs-skip-test") then "SKIP"
	   elif ((.failures // []) | length) > 0 then "FAIL"
	   else "PASS" end) + " " + .classname + "." + .name + " "
	+ ([(.failures // [])[].failure] | join(" | ") | gsub("\\n"; " "))' \
	"$report" >"$tmp/results"

declare -A result_of=()
declare -A count=([PASS]=0 [FAIL]=0 [SKIP]=0)
new_failures=() unexpected_passes=() wrong_reasons=() expected_count=0
declare -A by_reason=()
while read -r result name failure; do
	result_of[$name]=$result
	count[$result]=$((count[$result] + 1))
	if [[ "$result" == FAIL ]]; then
		key=${expected[$name]:-} pattern=
		if [[ -n "$key" ]]; then
			pattern=${match_of[$key]:-}
		fi
		if [[ -n "$pattern" ]] && ! grep -qE -- "$pattern" <<<"$failure"; then
			wrong_reasons+=("$name: $failure")
		elif [[ -n "${expected[$name]:-}" ]]; then
			expected_count=$((expected_count + 1))
			by_reason[${expected[$name]}]=$((${by_reason[${expected[$name]}]:-0} + 1))
		else
			new_failures+=("$name")
		fi
	elif [[ "$result" == PASS && -n "${expected[$name]:-}" ]]; then
		unexpected_passes+=("$name")
	fi
done <"$tmp/results"

stale=()
for name in "${!expected[@]}"; do
	if (($#)); then
		break # a partial run: what did not run is not stale
	fi
	case "${result_of[$name]:-}" in
	FAIL | PASS) ;;
	SKIP) stale+=("$name (skipped)") ;;
	*) stale+=("$name (not run)") ;;
	esac
done

total=$((count[PASS] + count[FAIL] + count[SKIP]))
echo "wlcs: $total tests: ${count[PASS]} passed, ${count[FAIL]} failed" \
	"($expected_count expected), ${count[SKIP]} skipped (protocol not offered)"
for key in "${!reason_of[@]}"; do
	echo "  expected failures [$key]: ${by_reason[$key]:-0} - ${reason_of[$key]}"
done
if ((${#new_failures[@]})); then
	failed=1
	echo "FAIL: ${#new_failures[@]} tests failed that are not expected to:"
	for name in "${new_failures[@]}"; do
		echo "  $name"
		# The test's own output, from its RUN line to its result line.
		awk -v t="[ RUN      ] $name" '$0 == t { p = 1 } p { print "    " $0 }
			p && /^\[ +(OK|FAILED|SKIPPED) +\]/ { exit }' "$log" | head -20
	done
fi
if ((${#wrong_reasons[@]})); then
	failed=1
	echo "FAIL: ${#wrong_reasons[@]} listed tests fail for another reason than their section's:"
	printf '  %s\n' "${wrong_reasons[@]}"
fi
if ((${#unexpected_passes[@]})); then
	failed=1
	echo "FAIL: ${#unexpected_passes[@]} tests pass that $expected_file expects to fail" \
		"(take them out of the list):"
	printf '  %s\n' "${unexpected_passes[@]}"
fi
if ((${#stale[@]})); then
	failed=1
	echo "FAIL: ${#stale[@]} entries of $expected_file name no failing test:"
	printf '  %s\n' "${stale[@]}"
fi
exit "$failed"
