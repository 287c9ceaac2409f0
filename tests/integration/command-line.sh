#!/usr/bin/env bash
# A refused command line says what is wrong on stderr and exits non-zero, without a
# crash or a sanitizer report; --help and --version answer and exit 0.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
cordon_test_init

# run_cordon NAME ARGS...: runs cordon to completion (10 s at most), output in
# NAME.out / NAME.err; sets rc.
run_cordon() {
	local name=$1
	shift
	rc=0
	timeout 10 "$CORDON" "$@" >"$TEST_TMP/$name.out" 2>"$TEST_TMP/$name.err" </dev/null || rc=$?
	if ((rc == 124)); then
		fail "cordon $* did not exit within 10 s"
	fi
	if ((rc > 128)); then
		fail "cordon $* was killed by signal $((rc - 128)): $(tail -n 20 "$TEST_TMP/$name.err")"
	fi
	if grep -Eq "$CORDON_SANITIZER_PATTERN" "$TEST_TMP/$name.err"; then
		fail "sanitizer report from cordon $*: $(grep -E -A 20 "$CORDON_SANITIZER_PATTERN" "$TEST_TMP/$name.err")"
	fi
}

# refused NAME WORD ARGS...: cordon ARGS must exit non-zero with a message that names
# WORD, the part of the command line it refuses.
refused() {
	local name=$1 word=$2
	shift 2
	run_cordon "$name" --socket "refused-$$" "$@"
	((rc != 0)) || fail "cordon $* exited 0"
	[[ -s "$TEST_TMP/$name.err" ]] || fail "cordon $* printed nothing on stderr"
	grep -qF -- "$word" "$TEST_TMP/$name.err" ||
		fail "cordon $*: stderr does not mention '$word': $(head -c 500 "$TEST_TMP/$name.err")"
	[[ ! -e "$XDG_RUNTIME_DIR/refused-$$" ]] || fail "cordon $* left its Wayland socket behind"
	echo "refused: cordon $* -> status $rc: $(head -n 1 "$TEST_TMP/$name.err")"
}

refused bad-output abc --headless --output abc
refused bad-output-size 0x0 --headless --output 0x0
refused unknown-option --nope --headless --nope
refused missing-config /nonexistent --headless --config /nonexistent
refused output-without-value --output --headless --output
refused missing-policy /nonexistent --headless --policy /nonexistent
printf '[app org.example.App]\nshare = bluetooth\n' >"$TEST_TMP/policy.ini"
refused bad-policy "policy.ini:2: 'bluetooth' is not a value of 'share'" --headless \
	--policy "$TEST_TMP/policy.ini"

run_cordon help --help
assert_eq 0 "$rc" "exit status of cordon --help"
grep -q -- --headless "$TEST_TMP/help.out" || fail "cordon --help does not mention --headless on stdout"

run_cordon version --version
assert_eq 0 "$rc" "exit status of cordon --version"
version=$(sed -n "s/^\tversion: '\(.*\)',\$/\1/p" "$CORDON_SOURCE_ROOT/meson.build" | head -n 1)
[[ -n "$version" ]] || fail "no version: line in meson.build"
grep -qF "$version" "$TEST_TMP/version.out" ||
	fail "cordon --version prints '$(cat "$TEST_TMP/version.out")', not the project version $version"
