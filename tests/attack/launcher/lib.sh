# Shared by the launcher's attack scripts: sourced after tests/lib/harness.sh and
# tests/sandbox/lib.sh.
ATTACK_DIR="${CORDON_TEST_CLIENTS%/clients}/attack/launcher"
[[ -x "$ATTACK_DIR/launcher-attack" ]] || fail "launcher-attack not built in $ATTACK_DIR"

# attack [CORDON-RUN OPTIONS...] -- MODE ARGS...: launcher-attack inside a sandbox whose /app
# is its build dir. Prints its output; never fails by itself (the caller asserts).
attack() {
	local opts=()
	while (($#)) && [[ "$1" != -- ]]; do
		opts+=("$1")
		shift
	done
	shift
	"$CORDON_RUN" --no-wayland --app-id "$APP_ID" --app "$ATTACK_DIR" "${opts[@]}" -- \
		/app/launcher-attack "$@" 2>&1 || true
}

# assert_attack LABEL OUTPUT MODE LINE...: the probe ran MODE to its end, refused everything it
# tried (no FAIL line) and printed each LINE given (refusals and controls alike).
assert_attack() {
	local label=$1 out=$2 mode=$3 line
	shift 3
	grep -qx "ran $mode" <<<"$out" || fail "$label: the probe did not run to its end:
$out"
	! grep -q '^FAIL' <<<"$out" || fail "$label: not refused:
$(grep '^FAIL' <<<"$out")"
	for line in "$@"; do
		grep -qxF "$line" <<<"$out" || fail "$label: no line '$line' in:
$out"
	done
}
