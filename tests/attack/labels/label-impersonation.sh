#!/usr/bin/env bash
# Attack: a sandboxed app names its window after another app, and after cordon itself
# ("cordon" as app_id, the attention overlay's words as title), hoping for their label
# or for none. Each window is labelled by its own tag: the spoofer's name and colour, not
# the imitated app's, and never cordon's trusted frame (the yellow and black hatching of
# cordon's dialogs); a host window beside it has no label at all (docs/security.md,
# "Labels").
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/attack/labels/lib.sh"
SPOOFER=${CORDON_LABEL_SPOOFER:?CORDON_LABEL_SPOOFER is not set}

test_cgroup app-flatpak-org.example.Bank-1.scope
bank_cgroup=$TEST_CGROUP
test_cgroup app-flatpak-org.example.Spoofer-1.scope
spoofer_cgroup=$TEST_CGROUP
cordon_start
hatch_yellow="245 194 17"

# The real app, and the host window the spoofer could pass for.
start_client bank "${IN_CGROUP[@]}" "$bank_cgroup" "$SPOOFER" --app-id org.example.Bank \
	--title "Bank" --color ffe0e0e0
wait_for_window org.example.Bank
bank_color=$(window_json org.example.Bank | jq -r .label.color)
start_client host "$SPOOFER" --app-id host-terminal --color ffe0e0e0
wait_for_window host-terminal
assert_eq null "$(window_json host-terminal | jq -c .label)" "the host window's label"

start_client fake "${IN_CGROUP[@]}" "$spoofer_cgroup" "$SPOOFER" --app-id cordon \
	--title "cordon · secure attention" --color ffe0e0e0
wait_for_window cordon
start_client twin "${IN_CGROUP[@]}" "$spoofer_cgroup" "$SPOOFER" --app-id org.example.Bank \
	--title "Bank" --color ffe0e0e0
wait_for "the twin window" _has_window_pid "$(client_pid twin)"

spoofer_color=
for name in fake twin; do
	win=$(window_json_by_pid "$(client_pid "$name")")
	assert_eq "org.example.Spoofer · flatpak" "$(jq -r .label.text <<<"$win")" \
		"the label of the $name window ($(jq -r .app_id <<<"$win"))"
	spoofer_color=$(jq -r .label.color <<<"$win")
done
[[ "$spoofer_color" != "$bank_color" ]] ||
	fail "the spoofer got the bank's colour $bank_color (pick app ids the palette tells apart)"
ctl windows | grep -F "label=$spoofer_color \"org.example.Spoofer · flatpak\"" >/dev/null ||
	fail "cordonctl windows does not name the spoofer: $(ctl windows)"

# On screen: each spoofing window, brought to the top, wears the spoofer's colour, and
# none of cordon's hatching is around it.
shot="$TEST_TMP/spoof.png"
for name in fake twin; do
	id=$(window_json_by_pid "$(client_pid "$name")" | jq -r .id)
	ctl focus "$id" >/dev/null
	read -r x y w h < <(window_json_by_pid "$(client_pid "$name")" |
		jq -r '"\(.x) \(.y) \(.width) \(.height)"')
	spoofer_label() {
		local strip left right bank hatch
		screenshot HEADLESS-1 "$shot"
		read -r strip left right < <(label_permille "$shot" "$x" "$y" "$w" "$h" "$spoofer_color")
		bank=$(png_probe "$shot" count-color $(rgb "$bank_color") 2 $((x - 4)) $((y - 26)) $((w + 8)) 26)
		hatch=$(png_probe "$shot" count-color $hatch_yellow 8 $((x - 10)) $((y - 40)) $((w + 20)) $((h + 50)))
		echo "$name: strip $strip left $right right $right per mille; bank colour $bank px; hatching $hatch px"
		((strip >= 500 && left >= 990 && right >= 990 && bank == 0 && hatch == 0))
	}
	wait_for "the $name window in the spoofer's label" spoofer_label
done
echo "label impersonation: app ids cordon and org.example.Bank still labelled org.example.Spoofer ($spoofer_color)"
