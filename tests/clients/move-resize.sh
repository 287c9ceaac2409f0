#!/bin/bash
# Interactive move and resize: started by the client with the serial of a
# button press (xdg_toplevel.move/resize), and by the compositor's own
# modifier drag for a client that asks for nothing.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"

cordon_start --output 1280x720

# window_at APP_ID X Y W H: the window has exactly this geometry.
window_at() {
	[ "$(geometry "$1")" = "$2 $3 $4 $5" ]
}

# --- client-initiated move --------------------------------------------------
start_client mover "$TC/move-resize-client" --app-id mover --width 300 --height 200
wait_for_window mover
read -r x y w h < <(geometry mover)
ctl pointer move $((x + w / 2)) $((y + h / 2))
wait_log mover '^enter '
ctl pointer button left press
# move-sent: the compositor has read the move request, so the grab is on.
wait_log mover '^move-sent$'
ctl pointer motion 100 50
ctl pointer button left release
wait_for "mover to move by 100,50" window_at mover $((x + 100)) $((y + 50)) "$w" "$h"
# The grab ends with the button: the window must not follow the pointer any more.
ctl pointer motion 30 30
assert_eq "$((x + 100)) $((y + 50)) $w $h" "$(geometry mover)" \
	"mover stays put after the button was released"
ctl close mover
wait_for_window_gone mover
expect_clean_exit mover

# --- client-initiated resize ------------------------------------------------
start_client sizer "$TC/move-resize-client" --app-id sizer --width 300 --height 200 \
	--resize bottom_right
wait_for_window sizer
read -r x y w h < <(geometry sizer)
ctl pointer move $((x + w - 5)) $((y + h - 5))
wait_log sizer '^enter '
ctl pointer button left press
wait_log sizer '^resize-sent$'
ctl pointer motion 100 50
ctl pointer button left release
wait_log sizer "^configure width=$((w + 100)) height=$((h + 50)) "
wait_for "sizer to grow by 100x50" window_at sizer "$x" "$y" $((w + 100)) $((h + 50))
ctl close sizer
wait_for_window_gone sizer
expect_clean_exit sizer

# --- a window unmapped in the middle of its resize ------------------------
# The grab ends with the window; cordon must not configure a surface that has no
# role state any more (wlroots 0.20 aborts on that).
start_client vanisher "$TC/move-resize-client" --app-id vanisher --width 300 --height 200 \
	--resize bottom_right --unmap-in-grab
wait_for_window vanisher
read -r x y w h < <(geometry vanisher)
ctl pointer move $((x + w - 5)) $((y + h - 5))
wait_log vanisher '^enter '
ctl pointer button left press
wait_log vanisher '^unmapped$'
ctl pointer motion 40 30
ctl pointer button left release
wait_for_window_gone vanisher
kill -0 "$CORDON_PID" 2>/dev/null || fail "cordon died when a window unmapped during its resize"
stop_client vanisher

# --- compositor modifier drag (logo + left button) --------------------------
start_client plain "$TC/focus-client" --app-id plain --width 300 --height 200
wait_for_window plain
read -r x y w h < <(geometry plain)
ctl pointer move $((x + w / 2)) $((y + h / 2))
wait_log plain '^enter '
presses=$(log_count plain '^button .*state=pressed')
ctl key press Super_L
ctl pointer button left press
ctl pointer motion 100 50
ctl pointer button left release
ctl key release Super_L
wait_for "plain to move by 100,50 under logo+drag" \
	window_at plain $((x + 100)) $((y + 50)) "$w" "$h"
assert_eq "$presses" "$(log_count plain '^button .*state=pressed')" \
	"the modifier drag's click is not also delivered to the client"

# --- compositor modifier resize (logo + right button) -----------------------
read -r x y w h < <(geometry plain)
# Near the bottom-right corner, so the nearest edges are bottom and right.
ctl pointer move $((x + w - 10)) $((y + h - 10))
ctl key press Super_L
ctl pointer button right press
ctl pointer motion 100 50
ctl pointer button right release
ctl key release Super_L
wait_log plain "^configure width=$((w + 100)) height=$((h + 50)) "
wait_for "plain to grow by 100x50 under logo+right drag" \
	window_at plain "$x" "$y" $((w + 100)) $((h + 50))
