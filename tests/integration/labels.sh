#!/usr/bin/env bash
# Window labels (docs/security.md, "Labels"): a sandboxed weston-simple-shm gets a strip
# above its window and a frame around it, in its sandbox's colour, outside its buffer; a
# host one gets none. The colour is the policy's label-color for the app, else one of the
# palette's; a client cordon cannot identify is labelled "unknown sandbox" in red; one
# started by cordon-run is labelled by its security context. cordonctl windows reports
# the label (colour, text) the screenshot shows.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
command -v weston-simple-shm >/dev/null || skip "weston-simple-shm not found (Debian package weston)"

cordon_test_init
cat >"$TEST_TMP/policy.ini" <<'INI'
[app org.example.Chosen]
label-color = #3584e4
INI
test_cgroup app-flatpak-org.example.Labelled-1.scope
labelled_cgroup=$TEST_CGROUP
test_cgroup app-flatpak-org.example.Chosen-1.scope
chosen_cgroup=$TEST_CGROUP
# A unit name the tag parser rejects (a bad \x escape): its clients' sandbox is unknown.
test_cgroup 'app-gnome-org.Foo\xzz-1.scope'
unknown_cgroup=$TEST_CGROUP
cordon_start --policy "$TEST_TMP/policy.ini"

# rgb "#rrggbb": prints "R G B" for png-probe.
rgb() {
	printf '%d %d %d' "0x${1:1:2}" "0x${1:3:2}" "0x${1:5:2}"
}

# label_drawn PID COLOUR: on a screenshot, the strip above the window and the frame on
# its left and right are the colour (the strip carries text: most of it, not all).
label_drawn() {
	local pid=$1 color=$2 shot="$TEST_TMP/labels.png" x y w h strip left right
	read -r x y w h < <(window_json_by_pid "$pid" | jq -r '"\(.x) \(.y) \(.width) \(.height)"')
	screenshot HEADLESS-1 "$shot"
	strip=$(color_permille "$shot" "$(rgb "$color")" 2 "$x" $((y - 26)) "$w" 22)
	left=$(color_permille "$shot" "$(rgb "$color")" 2 $((x - 4)) "$y" 4 "$h")
	right=$(color_permille "$shot" "$(rgb "$color")" 2 $((x + w)) "$y" 4 "$h")
	echo "label $color around $x,$y ${w}x$h: strip $strip left $left right $right per mille"
	((strip >= 500 && left >= 990 && right >= 990))
}

# A host window: no label in the list, and only background around it.
start_client host weston-simple-shm
host_pid=$CLIENT_PID
wait_for "the host window" _has_window_pid "$host_pid"
host=$(window_json_by_pid "$host_pid")
assert_eq null "$(jq -c .label <<<"$host")" "the host window's label"

# The sandboxed one beside it.
start_client labelled "${IN_CGROUP[@]}" "$labelled_cgroup" weston-simple-shm
labelled_pid=$CLIENT_PID
wait_for "the sandboxed window" _has_window_pid "$labelled_pid"
win=$(window_json_by_pid "$labelled_pid")
color=$(jq -r .label.color <<<"$win")
assert_eq "org.example.Labelled · flatpak" "$(jq -r .label.text <<<"$win")" "the label's text"
[[ "$color" =~ ^#[0-9a-f]{6}$ ]] || fail "the label's colour is '$color'"
[[ "$color" != "#3584e4" && "$color" != "#c01c28" ]] ||
	fail "a palette colour is the policy's or the unknown sandbox's: $color"
wait_for "the label in $color around the sandboxed window" label_drawn "$labelled_pid" "$color"
ctl windows | grep -F "label=$color \"org.example.Labelled · flatpak\"" >/dev/null ||
	fail "cordonctl windows does not show the label: $(ctl windows)"

# The host window is unlabelled on the same screenshot: where its strip and frame would
# be is the background, read at the output's corner.
ctl minimize "$(jq -r .id <<<"$win")" >/dev/null
read -r hx hy hw hh < <(jq -r '"\(.x) \(.y) \(.width) \(.height)"' <<<"$host")
host_plain() {
	local shot="$TEST_TMP/host.png" bg strip
	screenshot HEADLESS-1 "$shot"
	read -r r g b _ < <(png_probe "$shot" pixel 1275 715)
	bg="$r $g $b"
	strip=$(color_permille "$shot" "$bg" 2 "$hx" $((hy - 26)) "$hw" 22)
	echo "background $bg above the host window: $strip per mille"
	((strip >= 990))
}
((hy >= 26)) || fail "the host window is at y=$hy, where no strip could be seen anyway"
wait_for "the host window to have nothing above it" host_plain
ctl restore "$(jq -r .id <<<"$win")" >/dev/null
stop_client host

# The policy's colour for an app.
start_client chosen "${IN_CGROUP[@]}" "$chosen_cgroup" weston-simple-shm
chosen_pid=$CLIENT_PID
wait_for "the window with a chosen colour" _has_window_pid "$chosen_pid"
assert_eq "#3584e4" "$(window_json_by_pid "$chosen_pid" | jq -r .label.color)" "label-color"
ctl focus "$(window_json_by_pid "$chosen_pid" | jq -r .id)" >/dev/null
wait_for "the label in #3584e4" label_drawn "$chosen_pid" "#3584e4"
# The window with the keyboard has a white square (the text's colour on this blue) at the
# strip's right end; the other sandboxed window, without the keyboard, has none. The two
# are apart first (Logo+drag), as both were centred.
read -r cx cy < <(window_json_by_pid "$chosen_pid" | jq -r '"\(.x) \(.y)"')
ctl pointer move $((cx + 30)) $((cy + 30)) >/dev/null
ctl key press super >/dev/null
ctl pointer button left press >/dev/null
ctl pointer move 130 130 >/dev/null
ctl pointer button left release >/dev/null
ctl key release super >/dev/null
wait_for "the chosen window to move" sh -c "$(printf '%q ' "$CORDONCTL") --json windows |
	jq -e --argjson p $chosen_pid 'any(.[]; .pid == \$p and .x == 100)'"
ctl focus "$(window_json_by_pid "$chosen_pid" | jq -r .id)" >/dev/null
focus_mark() {
	local x y w
	read -r x y w < <(window_json_by_pid "$1" | jq -r '"\(.x) \(.y) \(.width)"')
	screenshot HEADLESS-1 "$TEST_TMP/mark.png"
	color_permille "$TEST_TMP/mark.png" "255 255 255" 2 $((x + w + 4 - 6 - 8)) $((y - 26 + 7)) 8 8
}
marked() { (($(focus_mark "$1") >= 990)); }
wait_for "the focus mark on the focused window" marked "$chosen_pid"
ctl focus "$(window_json_by_pid "$labelled_pid" | jq -r .id)" >/dev/null
wait_for "the focus mark to move" marked "$labelled_pid"
assert_eq 0 "$(focus_mark "$chosen_pid")" "focus mark pixels on the window without the keyboard"
stop_client chosen

# A client cordon cannot identify is labelled as such, in the colour no app gets.
start_client unknown "${IN_CGROUP[@]}" "$unknown_cgroup" weston-simple-shm
unknown_pid=$CLIENT_PID
wait_for "the unknown sandbox's window" _has_window_pid "$unknown_pid"
assert_eq '"#c01c28" "unknown sandbox"' \
	"$(window_json_by_pid "$unknown_pid" | jq -c '.label.color, .label.text' | paste -sd' ')" \
	"the unknown sandbox's label"
ctl focus "$(window_json_by_pid "$unknown_pid" | jq -r .id)" >/dev/null
wait_for "the unknown sandbox's label in red" label_drawn "$unknown_pid" "#c01c28"
stop_client unknown

# A real sandbox: weston-simple-shm started by cordon-run is labelled by the security
# context cordon-run made for it. LeakSanitizer cannot run where ptrace is denied.
if [[ -n "${CORDON_RUN:-}" ]]; then
	mkdir -p "$TEST_TMP/app"
	start_client run env XDG_DATA_HOME="$TEST_TMP/data" "$CORDON_RUN" --app-id org.example.Run \
		--app "$TEST_TMP/app" --setenv ASAN_OPTIONS=detect_leaks=0 -- weston-simple-shm
	wait_for "the cordon-run window" sh -c "$(printf '%q ' "$CORDONCTL") --json windows |
		jq -e 'any(.[]; .label.text == \"org.example.Run · cordon\")'"
	run_pid=$(ctl --json windows | jq -r 'first(.[] | select(.label.text == "org.example.Run · cordon")).pid')
	run_color=$(window_json_by_pid "$run_pid" | jq -r .label.color)
	wait_for "the cordon-run window's label in $run_color" label_drawn "$run_pid" "$run_color"
fi
echo "labels: host plain, sandboxed in $color, policy's #3584e4, cordon-run's labelled"
