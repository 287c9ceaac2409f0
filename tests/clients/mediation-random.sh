#!/usr/bin/env bash
# Random focus, map, click, key and host-copy sequences (SECURITY-NOTES: "no cross-sandbox
# offer without a user action"): sandboxed windows beside a host window that holds the
# clipboard, and a host tool copying whoever has the focus; after every run, each sandboxed
# client's log must show every offer it got arriving right before a key or button press in
# it, never on focus, map or a new copy alone.
# CORDON_MEDIATION_STEPS (default 150) and CORDON_TEST_SEED (or CORDON_MEDIATION_SEED)
# choose the run; the seed is printed first, and a failure says how to replay it.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
command -v wl-copy >/dev/null || skip "wl-copy not found (Debian package wl-clipboard)"

test_cgroup app-flatpak-org.example.X-1.scope
scope_x=$TEST_CGROUP
test_cgroup app-flatpak-org.example.Y-1.scope
scope_y=$TEST_CGROUP
in_x=("${IN_CGROUP[@]}" "$scope_x")
in_y=("${IN_CGROUP[@]}" "$scope_y")
steps=${CORDON_MEDIATION_STEPS:-150}
seed=${CORDON_TEST_SEED:-${CORDON_MEDIATION_SEED:-$$}}
[[ "$seed" =~ ^[0-9]+$ ]] || fail "CORDON_TEST_SEED must be a number, not '$seed'"
RANDOM=$seed
# On stderr too: meson shows it beside a failure's logs.
echo "seed $seed, $steps steps" | tee /dev/stderr
replay="CORDON_TEST_SEED=$seed CORDON_MEDIATION_STEPS=$steps meson test clients-mediation-random"

cordon_start

start_client host "$TC/clip-client" --app-id host --copy "host secret $$" --width 400 --height 120
wait_for_window host
ctl focus host >/dev/null
wait_for_focus host
ctl key click a >/dev/null
wait_log host '^copied serial='
sandboxed=(rx ry rx2)
start_client rx "${in_x[@]}" "$TC/clip-client" --app-id rx --width 250 --height 300
start_client ry "${in_y[@]}" "$TC/clip-client" --app-id ry --width 500 --height 150
start_client rx2 "${in_x[@]}" "$TC/clip-client" --app-id rx2 --width 150 --height 450
for name in rx ry rx2; do
	wait_for_window "$name"
done

windows=(host rx ry rx2)
mapped=0
for ((step = 0; step < steps; step++)); do
	target=${windows[RANDOM % ${#windows[@]}]}
	case $((RANDOM % 7)) in
	0 | 1)
		ctl focus "$target" >/dev/null
		;;
	2)
		ctl key click a >/dev/null
		;;
	3)
		point=$(visible_point "$target")
		if [[ -n "$point" ]]; then
			# shellcheck disable=SC2086 # "X Y" is two arguments
			ctl pointer move $point >/dev/null
			ctl pointer button left click >/dev/null
		fi
		;;
	4)
		# A new sandboxed window maps (and takes focus), or the last one goes.
		if ((mapped < 2)); then
			mapped=$((mapped + 1))
			name="m$step"
			start_client "$name" "${in_y[@]}" "$TC/clip-client" --app-id "$name" \
				--width 120 --height 120
			sandboxed+=("$name")
			wait_for_window "$name"
		else
			stop_client "${sandboxed[-1]}"
			mapped=$((mapped - 1))
		fi
		;;
	5)
		ctl focus "${windows[RANDOM % ${#windows[@]}]}" >/dev/null
		ctl focus "$target" >/dev/null
		;;
	6)
		# A host tool copies, whoever has the focus (data-control): a press before it
		# consents to nothing it copies.
		start_client "copy$step" wl-copy --foreground -- "host tool $step"
		;;
	esac
done
# Let every client print what it got: a last round trip through cordon for each.
ctl windows >/dev/null

# offer_without_press LOG: prints the line of an offer that no press followed before the
# client's next focus or selection event.
offer_without_press() {
	awk '
		/^selection types=/ { if (pending) { print pending; bad = 1 } pending = NR; next }
		/^key serial=/ || /^button .*state=pressed/ { pending = 0; next }
		/^keyboard-(enter|leave)$/ || /^selection none$/ {
			if (pending) { print pending; bad = 1 } pending = 0
		}
		END { exit bad }' "$1"
}
offers=0
for name in "${sandboxed[@]}"; do
	offers=$((offers + $(log_count "$name" '^selection types=')))
	if ! lines=$(offer_without_press "$TEST_TMP/$name.log"); then
		fail "seed $seed: $name was offered the host's clipboard with no press (log lines" \
			"$lines); replay with: $replay"
	fi
done
echo "$steps random steps, $offers offers to sandboxed windows, each right before a press"
