#!/bin/bash
# With a non-US layout configured, a physical key types what that layout says
# (the client decodes it with the keymap cordon sends), and a key named by its
# keysym types that keysym.
#
# usage: keyboard-layout.sh de|fr
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"

layout=${1:?usage: keyboard-layout.sh de|fr}

# Evdev codes (linux/input-event-codes.h) and what they type in each layout.
case "$layout" in
de)
	# KEY_Y=21 and KEY_Z=44 are swapped on a German keyboard.
	checks=("21 z" "44 y")
	by_name="z 21"
	;;
fr)
	# AZERTY: KEY_Q=16 types a, KEY_A=30 types q, KEY_W=17 types z.
	checks=("16 a" "30 q" "17 z")
	by_name="a 16"
	;;
*)
	fail "unknown layout $layout"
	;;
esac

# $TEST_TMP exists only once the harness is initialised.
cordon_test_init
config="$TEST_TMP/cordon.ini"
printf '[keyboard]\nlayout = %s\nrepeat-rate = 31\nrepeat-delay = 456\n' "$layout" > "$config"
cordon_start --output 1280x720 --config "$config"

start_client keys "$TC/key-client" --app-id key-client
wait_for_window key-client
wait_log keys '^keyboard-enter$'
wait_log keys '^keymap '
# The configured repeat reaches clients too (they do the repeating).
wait_log keys '^repeat-info rate=31 delay=456$'

for check in "${checks[@]}"; do
	read -r code sym <<< "$check"
	ctl key "code:$code"
	wait_log keys "^key sym=$sym utf8=$sym state=pressed code=$code\$"
	wait_log keys "^key sym=$sym utf8=$sym state=released code=$code\$"
done

# By keysym, cordonctl must find the key that types it in this layout.
read -r sym code <<< "$by_name"
ctl key "$sym"
wait_log keys "^key sym=$sym utf8=$sym state=pressed code=$code\$"

# Shift is held around a keysym that needs it: an upper-case letter.
upper=$(tr '[:lower:]' '[:upper:]' <<< "$sym")
ctl key "$upper"
wait_log keys "^key sym=$upper utf8=$upper state=pressed code=$code\$"
