#!/usr/bin/env bash
# Attack (docs/security.md, mediation): an idle inhibitor on a surface nobody sees keeps
# the whole seat from going idle (no screen locker, no blanking) and keeps its app from
# being frozen. Variants, each from a sandboxed app (flatpak-named cgroup): an inhibitor
# on a surface with no role that is never mapped (hidden-inhibitor), one on a subsurface
# of a shown window placed outside every output (hidden-inhibitor --offscreen), one on a
# window that is then minimized, one on a window that an opaque window covers entirely.
# Each time swayidle's timeout fires after input, and the hidden apps are frozen.
# Positive control: a visible window's inhibitor (a video player) still keeps idle off,
# and its app awake.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
hidden_exe=${1:?usage: idle-hidden-inhibitor.sh PATH-TO-hidden-inhibitor}
command -v swayidle >/dev/null || skip "swayidle not found (Debian package swayidle)"

test_cgroup app-flatpak-org.example.Sneaky-$$.scope
sneaky_scope=$TEST_CGROUP
test_cgroup app-flatpak-org.example.Hider-$$.scope
hider_scope=$TEST_CGROUP
test_cgroup app-flatpak-org.example.Covered-$$.scope
covered_scope=$TEST_CGROUP
test_cgroup app-flatpak-org.example.Player-$$.scope
player_scope=$TEST_CGROUP
[[ -e "$sneaky_scope/cgroup.freeze" ]] || skip "no cgroup.freeze (kernel before 5.2)"

cordon_test_init
cat >"$TEST_TMP/cordon.ini" <<'INI'
[freeze]
delay = 300ms
INI
cordon_start --verbose --config "$TEST_TMP/cordon.ini"
frozen() {
	grep -qx 'frozen 1' "$1/cgroup.events"
}
idle="$TEST_TMP/idle" resumed="$TEST_TMP/resumed"
start_client swayidle swayidle -w timeout 1 "touch '$idle'" resume "touch '$resumed'"
wait_for "swayidle to report idleness (no inhibitor yet)" test -e "$idle"

# expect_idle WHAT: after fresh input, swayidle's one-second timeout fires.
expect_idle() {
	rm -f "$idle"
	ctl key shift >/dev/null
	wait_for "idleness with $1" test -e "$idle"
}

# 1. An inhibitor on a surface with no role, never mapped, beside an ordinary window.
start_client sneaky "${IN_CGROUP[@]}" "$sneaky_scope" "$hidden_exe" --app-id sneaky
wait_for_window sneaky
wait_log sneaky '^inhibitor-on-unmapped-surface$'
expect_idle "an inhibitor on an unmapped surface"
# Its window minimized, the app is frozen: the inhibitor does not exempt it.
ctl minimize sneaky >/dev/null
wait_for "the app with the unmapped inhibitor to be frozen" frozen "$sneaky_scope"

# 1b. An inhibitor on a subsurface of a shown window, placed where no output is.
test_cgroup app-flatpak-org.example.Offscreen-$$.scope
offscreen_scope=$TEST_CGROUP
start_client offscreen "${IN_CGROUP[@]}" "$offscreen_scope" "$hidden_exe" --app-id offscreen \
	--offscreen
wait_for_window offscreen
wait_log offscreen '^inhibitor-on-offscreen-subsurface$'
expect_idle "an inhibitor on a subsurface outside every output"
stop_client offscreen

# 2. An inhibitor on a window that is then minimized.
start_client hider "${IN_CGROUP[@]}" "$hider_scope" "$TC/focus-client" --app-id hider \
	--inhibit-idle
wait_for_window hider
wait_log hider '^idle-inhibited$'
ctl minimize hider >/dev/null
expect_idle "the inhibiting window minimized"
wait_for "the app with the minimized inhibitor to be frozen" frozen "$hider_scope"

# 3. An inhibitor on a window that an opaque window covers entirely.
start_client covered "${IN_CGROUP[@]}" "$covered_scope" "$TC/focus-client" --app-id covered \
	--inhibit-idle --width 200 --height 150
wait_for_window covered
wait_log covered '^idle-inhibited$'
start_client cover "$TC/frame-client" --app-id cover --width 500 --height 400 --color ff203040
wait_for_window cover
wait_for "the cover to draw" log_count_above cover '^frame ' 5
expect_idle "the inhibiting window covered by an opaque one"
stop_client cover
stop_client covered

# Positive control: a video player's visible window keeps idle off, however long (a
# visible clock window's frame callbacks measure three seconds), and is not frozen.
start_client player "${IN_CGROUP[@]}" "$player_scope" "$TC/focus-client" --app-id player \
	--inhibit-idle
wait_for_window player
wait_log player '^idle-inhibited$'
start_client clock "$TC/frame-client" --app-id clock --width 8 --height 8 --no-opaque-region
wait_for "the clock to tick" log_count_above clock '^frame ' 5
rm -f "$idle"
ctl key shift >/dev/null
start=$(log_count clock '^frame ')
wait_for "three seconds of the clock" log_count_above clock '^frame ' $((start + 180))
[[ ! -e "$idle" ]] || fail "the session went idle while a visible window held an inhibitor"
! frozen "$player_scope" || fail "the visible player was frozen"
# Minimized, the player stops inhibiting too; restored, it inhibits again.
ctl minimize player >/dev/null
expect_idle "the player minimized"
ctl restore player >/dev/null
wait_for "the player to be thawed and shown" not frozen "$player_scope"
rm -f "$idle"
ctl key shift >/dev/null
start=$(log_count clock '^frame ')
wait_for "two more seconds of the clock" log_count_above clock '^frame ' $((start + 120))
[[ ! -e "$idle" ]] || fail "the session went idle once the player was restored"
echo "hidden inhibitors (unmapped, minimized, covered) neither stop idle nor keep an app awake; a visible one does"
