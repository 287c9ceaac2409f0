#!/usr/bin/env bash
# Attack: camera dialogs as a way to turn the camera on, and to pile up provider
# sandboxes (docs/security.md). One sandboxed app opens 12 connections, each asking for a
# photo, with one provider that can stream (whose preview once started with every dialog
# at once: 12 connections started 96 provider sandboxes before the user answered). No
# provider may run before the user asks for it, and the app's requests are capped over
# all its connections: the 8 first wait for the user, the others are refused at once as
# busy, with a log line naming the app. A host client still gets its dialog (the cap is
# the app's, not everyone's). Positive control: the user's Preview starts the provider,
# its live picture shows, and Return takes the photo.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/portal/lib.sh"
: "${CORDON_CAMERA_PATTERN:?}" "${CORDON_RUN:?}"

builtin_ui_init
camera_providers_init "Stream = true"
printf '[portal]\ncamera-launcher = %s\n' "$CORDON_RUN" >"$TEST_TMP/cordon.ini"
cordon_start --verbose --config "$TEST_TMP/cordon.ini"
app_id=org.example.Camera$$
portal_sandbox_init "$app_id"

pending() {
	[[ "$(ctl --json portal-requests | jq length)" == "$1" ]]
}
refused_count() {
	grep -l "busy: too many requests of this app" "$TEST_TMP"/photo*.log 2>/dev/null | wc -l
}
refused() {
	(($(refused_count) == $1))
}
# Provider processes: cordon starts each through cordon-run, so they are cordon's
# descendants (this cordon's only: other cordons may run on the machine).
descendants() {
	local pid
	for pid in $(pgrep -P "$1" || true); do
		echo "$pid"
		descendants "$pid"
	done
}
providers_running() {
	descendants "$CORDON_PID" | wc -l
}
provider_starts() {
	grep -c "Camera provider pattern \(started\|streams\)" "$CORDON_LOG" || true
}

for i in $(seq 1 12); do
	start_client "photo$i" "${in_sandbox[@]}" "$CORDON_PORTAL" take-photo \
		--output "$TEST_TMP/out/$i.png"
done
# Each request is either waiting (its dialog opened within its submit) or refused.
handled() {
	(($(ctl --json portal-requests | jq length) + $(refused_count) == 12))
}
wait_for "all 12 requests to be shown or refused" handled
# Nothing of the camera runs while the dialogs wait.
assert_eq 0 "$(provider_starts)" "providers started while the dialogs wait"
assert_eq 0 "$(providers_running)" "provider processes while the dialogs wait"
pending 8 || fail "$(ctl --json portal-requests | jq length) requests wait, not 8"
assert_eq 4 "$(refused_count)" "requests refused over the app's cap"
for i in $(seq 1 12); do
	if grep -q "busy: too many requests of this app" "$TEST_TMP/photo$i.log"; then
		wait_for "photo$i to end" not client_alive "photo$i"
	fi
done
grep -q "refused: $app_id (flatpak) already has 8 requests waiting" "$CORDON_LOG" ||
	fail "no log line naming the app at its cap: $(grep refused "$CORDON_LOG" | head -n 2)"
echo "ok: 12 connections of one app: 8 dialogs, 4 refused, no provider running"

# The cap is the app's: a host client still asks.
start_client host "$CORDON_PORTAL" take-photo --output "$TEST_TMP/out/host.png"
wait_for "the host client's dialog" pending 9
assert_eq 0 "$(providers_running)" "provider processes after the host's dialog"

# Positive control: the user asks for the preview in the newest dialog (the host's),
# sees it, and takes the photo.
press_preview() {
	ctl key click p >/dev/null
	grep -q "preview of pattern started" "$CORDON_LOG"
}
wait_for "the preview the user asked for" press_preview
preview_yellow() {
	screenshot HEADLESS-1 "$TEST_TMP/preview.png"
	(($(png_probe "$TEST_TMP/preview.png" count-color 255 255 0 4 480 0 320 720) > 5000))
}
wait_for "the live picture" preview_yellow
assert_eq 1 "$(provider_starts)" "providers started after one Preview"
(($(providers_running) > 0)) || fail "no provider process for the preview"
# The preview grew the dialog, which restarts its grace period.
dialog_ready
ctl key click Return >/dev/null
wait_for "the host client's photo" not client_alive host
rc=0
wait "$(client_pid host)" || rc=$?
assert_eq 0 "$rc" "the photo after the preview ($(cat "$TEST_TMP/host.log"))"
[[ -s "$TEST_TMP/out/host.png" ]] || fail "no photo written"
wait_for "8 requests again" pending 8
echo "ok: the preview started on the user's Preview only, and the photo was taken"
