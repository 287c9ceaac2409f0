#!/usr/bin/env bash
# The camera portal through a sandboxed cordon-portal and the auto UI: a photo from
# the test-pattern provider (a PNG of the asked size whose bars and text are the
# pattern's, with the requesting app's id drawn), the choice between two providers,
# the V4L2 provider failing cleanly without a device, deny without a dialog, allow
# without a dialog, providers that write garbage, too much, the wrong type or hang
# refused while cordon keeps serving, an app leaving mid-photo stopping its provider,
# a malformed provider file reported with its line and skipped, and a stream refused
# without a provider that streams.
# Providers run in cordon-run sandboxes of their own; the last part runs them directly
# ([portal] camera-launcher = none).
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/portal/lib.sh"
: "${CORDON_CAMERA_PATTERN:?}" "${CORDON_CAMERA_V4L2:?}" "${CORDON_RUN:?}"

app=org.example.Camera
camera_providers_init
# launcher_config LAUNCHER: cordon's config, with providers run through LAUNCHER.
launcher_config() {
	portal_auto_ini >"$TEST_TMP/cordon.ini"
	printf 'camera-timeout-ms = 1500\ncamera-max-bytes = 1000000\n' >>"$TEST_TMP/cordon.ini"
	printf 'camera-launcher = %s\n' "$1" >>"$TEST_TMP/cordon.ini"
}
launcher_config "$CORDON_RUN"
# Provider scripts live in a folder of their own: cordon-run shows it to them as /app.
bin="$TEST_TMP/bin"
mkdir -p "$bin"
portal_start --verbose --config "$TEST_TMP/cordon.ini"
portal_sandbox_init "$app"
photo="$TEST_TMP/out/photo.png"

fds_before=$(fd_count)
dialogs() {
	grep -c "auto: request .* camera" "$CORDON_LOG" || true
}
# white_in FILE X Y W H: white pixels in the region.
white_in() {
	png_probe "$1" count-color 255 255 255 0 "$2" "$3" "$4" "$5"
}

# One provider, asked: a dialog, then the pattern, 320x240.
answer "camera-provider=pattern"
portal take-photo --width 320 --height 240 --output "$photo"
assert_eq 0 "$rc" "a photo from the pattern ($err)"
assert_eq image/png "$out" "the mime type printed"
assert_eq 1 "$(dialogs)" "dialogs for an asked photo"
assert_eq "320 240" "$(png_probe "$photo" size)" "the photo's size"
# The bars: white, yellow, ..., blue, black, 40 pixels each, over the top 160 rows.
assert_eq "255 255 0 255" "$(png_probe "$photo" pixel 60 80)" "the yellow bar"
assert_eq "0 0 255 255" "$(png_probe "$photo" pixel 260 80)" "the blue bar"
assert_eq 6400 "$(png_probe "$photo" count-color 0 255 255 0 80 0 40 160)" "the cyan bar, whole"
# The text band (scale 3 at this size: rows 163-177 and 184-198): the date and, on the second line, the app id that cordon told the
# provider. The same provider run by hand for this app id and for another one.
"$CORDON_CAMERA_PATTERN" --width=320 --height=240 -- "$app" >"$TEST_TMP/same.png"
"$CORDON_CAMERA_PATTERN" --width=320 --height=240 -- org.example.Other >"$TEST_TMP/other.png"
line2=(0 183 320 18)
got=$(white_in "$photo" "${line2[@]}")
(( got > 100 )) || fail "no text on the app id line ($got white pixels)"
assert_eq "$(white_in "$TEST_TMP/same.png" "${line2[@]}")" "$got" "the app id line is $app's"
[[ "$(white_in "$TEST_TMP/other.png" "${line2[@]}")" != "$got" ]] ||
	fail "another app id draws the same line"
(( $(white_in "$photo" 0 162 320 18) > 100 )) || fail "no date line"
grep -q "Camera provider pattern made [0-9]* bytes of image/png" "$CORDON_LOG" ||
	fail "cordon did not log the photo"

# The app accepts only JPEG: the pattern does not fit, nothing else is registered.
answer "camera-provider=pattern"
portal take-photo --mime-type image/jpeg --output "$photo"
assert_eq 3 "$rc" "no provider fits"
[[ "$err" == *"unavailable: no camera provider makes an image this app accepts"* ]] ||
	fail "the refusal says: $err"

# Two providers: the dialog chooses. The V4L2 one has no device here and fails cleanly.
cat >"$providers/v4l2.provider" <<END
[Camera Provider]
Name = Camera
MimeTypes = image/png, image/jpeg
Exec = $CORDON_CAMERA_V4L2
Device = video
END
answer "camera-provider=v4l2"
portal take-photo --output "$photo"
assert_eq 3 "$rc" "the V4L2 provider without a device"
[[ "$err" == *"i/o error: the camera provider failed"* ]] || fail "the failure says: $err"
grep -q "cordon-camera-v4l2: no V4L2 capture device" "$CORDON_LOG" ||
	fail "the provider's reason is not in the log"
grep -q "Camera provider v4l2 failed (exit status 3)" "$CORDON_LOG" ||
	fail "cordon did not log the provider's status"
answer "camera-provider=pattern"
portal take-photo --output "$photo"
assert_eq 0 "$rc" "the pattern chosen among two ($err)"
assert_eq "640 480" "$(png_probe "$photo" size)" "the pattern's own size"
answer "camera-provider=nonesuch"
portal take-photo --output "$photo"
assert_eq 1 "$rc" "an answer naming no offered provider cancels"
answer
portal take-photo --output "$photo"
assert_eq 1 "$rc" "an empty answer cancels"
rm "$providers/v4l2.provider"

# Deny: no dialog. Allow with one provider: no dialog either.
ctl permissions deny "$app" camera >/dev/null
assert_eq deny "$(ctl --json permissions list | jq -r --arg a "$app" \
	'first(.[] | select(.app_id == $a and .portal == "camera")).permission')" \
	"cordonctl lists the camera permission"
before=$(dialogs)
portal take-photo --output "$photo"
assert_eq 3 "$rc" "a denied photo"
[[ "$err" == "cordon-portal: denied: "* ]] || fail "the denial says: $err"
portal camera-stream
assert_eq 3 "$rc" "a denied stream"
[[ "$err" == "cordon-portal: denied: "* ]] || fail "the stream denial says: $err"
assert_eq "$before" "$(dialogs)" "dialogs for a denied app"
ctl permissions grant "$app" camera >/dev/null
answer
portal take-photo --output "$photo"
assert_eq 0 "$rc" "an allowed photo without a dialog ($err)"
assert_eq "$before" "$(dialogs)" "dialogs for an allowed app with one provider"
ctl permissions revoke "$app" camera >/dev/null

# Providers that misbehave: refused with an error, and cordon serves the next request.
bad() {
	local name=$1 mime=$2 script=$3
	printf '#!/bin/sh\n%s\n' "$script" >"$bin/$name"
	chmod +x "$bin/$name"
	printf '[Camera Provider]\nName = %s\nMimeTypes = %s\nExec = %s\n' \
		"$name" "$mime" "$bin/$name" >"$providers/$name.provider"
}
bad garbage image/png 'echo "not a picture"'
bad huge image/png 'printf "\211PNG\r\n\032\n"; head -c 2000000 /dev/zero'
bad liar image/jpeg 'printf "\211PNG\r\n\032\n0000"'
bad hang image/png 'printf "\211PNG"; exec sleep 60'
# The provider exits at once, but what it started keeps the pipe open: its sandbox
# ends with it, and the orphan with the sandbox.
bad orphan image/png 'sleep 60 &'
printf '[Camera Provider]\nName = Missing\nMimeTypes = image/png\nExec = /nonexistent/provider\n' \
	>"$providers/missing.provider"
check_refused() {
	local name=$1 reason=$2
	answer "camera-provider=$name"
	portal take-photo --output "$photo"
	assert_eq 3 "$rc" "the $name provider's photo"
	[[ "$err" == *"i/o error: $reason"* ]] || fail "the $name provider: $err"
	answer "camera-provider=pattern"
	portal take-photo --output "$photo"
	assert_eq 0 "$rc" "a photo after the $name provider ($err)"
}
check_refused garbage "the camera provider did not make the image it claims"
check_refused huge "the camera provider's photo is too large"
check_refused liar "the camera provider did not make the image it claims"
# Inside its sandbox a missing program is cordon-run failing (127).
check_refused missing "the camera provider failed"
check_refused orphan "the camera provider did not make the image it claims"
start=$(date +%s%N)
check_refused hang "the camera provider took too long"
hang_pid=$(grep -o "Camera provider hang started as pid [0-9]*" "$CORDON_LOG" | tail -1 |
	grep -o "[0-9]*$")
not _alive "$hang_pid" || fail "the hanging provider still runs"

# The app goes away mid-photo: its provider is stopped, nothing is left running.
answer "camera-provider=hang"
"${in_sandbox[@]}" "$CORDON_PORTAL" take-photo --output "$photo" 2>/dev/null &
client=$!
second_started() {
	test "$(grep -c "Camera provider hang started as pid" "$CORDON_LOG")" = 2
}
wait_for "the provider of the leaving app" second_started
hang_pid=$(grep -o "Camera provider hang started as pid [0-9]*" "$CORDON_LOG" | tail -1 |
	grep -o "[0-9]*$")
_alive "$hang_pid" || fail "the provider is not running while the app waits"
kill -9 "$client"
wait "$client" 2>/dev/null || true
wait_for "the provider to be stopped" not _alive "$hang_pid"
grep -q "Camera provider hang (pid $hang_pid) stopped: its request went away" "$CORDON_LOG" ||
	fail "cordon did not log stopping the provider"
# The parent window goes mid-photo: the request is cancelled and its provider stopped.
start_client parent "${in_sandbox[@]}" "$CORDON_TEST_CAMERA_CLIENT" parent
third_started() {
	test "$(grep -c "Camera provider hang started as pid" "$CORDON_LOG")" = 3
}
wait_for "the provider of the parent's photo" third_started
hang_pid=$(grep -o "Camera provider hang started as pid [0-9]*" "$CORDON_LOG" | tail -1 |
	grep -o "[0-9]*$")
kill -USR1 "$(client_pid parent)"
wait_for "the parent's photo to be cancelled" grep -qx cancelled "$TEST_TMP/parent.log"
wait_for "the parent's provider to be stopped" not _alive "$hang_pid"
stop_client parent
rm "$providers"/{garbage,huge,liar,hang,orphan,missing}.provider
# Every stopped provider's cordon-run removed its cgroup scope (a SIGKILL would not have).
leftover_scopes() {
	find "$CORDON_CGROUP_MOUNT" -maxdepth 3 -type d -regextype posix-extended \
		-regex '.*/app-cordon-cordon-camera\.(garbage|huge|liar|hang|orphan)-[0-9a-f]+\.scope' \
		2>/dev/null
}
no_leftover_scopes() {
	[[ -z "$(leftover_scopes)" ]]
}
wait_for "the stopped providers' scopes to go" no_leftover_scopes

# A malformed provider file: logged with its line, skipped; the others still serve.
printf '[Camera Provider]\nName = Broken\nMimeTypes = image/png\nColour = blue\n' \
	>"$providers/broken.provider"
printf '[Camera Provider]\nName = Relative\nMimeTypes = image/png\nExec = pattern\n' \
	>"$providers/relative.provider"
answer "camera-provider=broken"
portal take-photo --output "$photo"
assert_eq 1 "$rc" "a skipped provider cannot be chosen"
grep -q "Camera provider skipped: $providers/broken.provider:4: unknown key 'Colour'" \
	"$CORDON_LOG" || fail "the malformed file was not reported with its line"
grep -q "Camera provider skipped: $providers/relative.provider:4: Exec must start with an absolute path" \
	"$CORDON_LOG" || fail "the relative Exec was not reported"
answer "camera-provider=pattern"
portal take-photo --output "$photo"
assert_eq 0 "$rc" "the pattern beside malformed files ($err)"

# A user file overrides the system's of the same name; here the user's is all there is,
# so a second folder is tested through the log of offered providers.
grep -q "providers fit" "$CORDON_LOG" || fail "no provider count in the log"

# What a provider gets (SECURITY-NOTES: argument and environment injection): its argv
# with "--" before the app id, stdin /dev/null, stdout a pipe, stderr and no other fd
# of cordon's, in a sandbox of its own: its folder at /app, no host files, no camera
# device (Device = none), no network, cordon-run's listed environment. Read from
# outside while it waits for SIGUSR1.
cp "$TEST_TMP/same.png" "$bin/same.png"
cat >"$bin/spy" <<'END'
#!/bin/sh
trap 'cat /app/same.png; exit 0' USR1
while :; do sleep 0.05; done
END
chmod +x "$bin/spy"
printf '[Camera Provider]\nName = Spy\nMimeTypes = image/png\nExec = %s\nAppId = true\n' \
	"$bin/spy" >"$providers/spy.provider"
answer "camera-provider=spy"
start_client spy "${in_sandbox[@]}" "$CORDON_PORTAL" take-photo --width 320 --height 240 \
	--output "$photo"
wait_for "the spy to start" grep -q "Camera provider spy started as pid" "$CORDON_LOG"
run_pid=$(grep -o "Camera provider spy started as pid [0-9]*" "$CORDON_LOG" | grep -o "[0-9]*$")
assert_eq "$CORDON_RUN --no-wayland --no-dbus --app-id cordon-camera.spy --app $bin --policy /dev/fd/3 --profile cordon-camera -- /app/spy --width=320 --height=240 --mime-type=image/png -- $app" \
	"$(tr '\0' ' ' <"/proc/$run_pid/cmdline" | sed 's/ $//')" "cordon-run's arguments"
# descendants PID: every process below PID.
descendants() {
	local child
	for child in $(cat /proc/"$1"/task/*/children 2>/dev/null); do
		echo "$child"
		descendants "$child"
	done
}
spy_pid() {
	local pid
	for pid in $(descendants "$run_pid"); do
		if [[ "$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)" == "/bin/sh /app/spy "* ]]; then
			echo "$pid"
			return 0
		fi
	done
	return 1
}
wait_for "the spy in its sandbox" spy_pid
spy=$(spy_pid)
assert_eq "/bin/sh /app/spy --width=320 --height=240 --mime-type=image/png -- $app" \
	"$(tr '\0' ' ' <"/proc/$spy/cmdline" | sed 's/ $//')" "the provider's arguments"
env_of_spy=$(tr '\0' '\n' <"/proc/$spy/environ")
grep -qx "CORDON_APP_ID=cordon-camera.spy" <<<"$env_of_spy" || fail "the spy's environment: $env_of_spy"
! grep -q "WAYLAND_DISPLAY\|CORDON_PORTAL\|XDG_RUNTIME_DIR=$XDG_RUNTIME_DIR" <<<"$env_of_spy" ||
	fail "cordon's environment reached the provider: $env_of_spy"
assert_eq /dev/null "$(readlink "/proc/$spy/fd/0")" "the provider's stdin"
[[ "$(readlink "/proc/$spy/fd/1")" == "pipe:"* ]] || fail "the provider's stdout"
others=""
for fd in /proc/"$spy"/fd/*; do
	n=${fd##*/}
	target=$(readlink "$fd" || true)
	# The shell's own fd of the script it reads.
	if ((n > 2)) && [[ "$target" != "/app/spy" ]]; then
		others+="$n:$target "
	fi
done
assert_eq "" "$others" "fds of cordon's in the provider"
[[ -e "/proc/$spy/root/app/spy" && ! -e "/proc/$spy/root$TEST_TMP" ]] ||
	fail "the provider sees host files"
! ls "/proc/$spy/root/dev" | grep -q video || fail "a Device = none provider has a video device"
[[ "$(readlink "/proc/$spy/ns/net")" != "$(readlink /proc/self/ns/net)" ]] ||
	fail "the provider shares the host's network"
kill -USR1 "$spy"
wait_for "the spy's photo" not client_alive spy
assert_eq "320 240" "$(png_probe "$photo" size)" "the spy's photo"
rm "$providers/spy.provider"

# Misuse is a protocol error; one request more than the per-client cap too (the
# answer file is gone, so the first eight wait like dialogs nobody answers).
for mode_error in "late cordon_portal_camera_photo_v1 0" "size cordon_portal_camera_photo_v1 1" \
		"mime cordon_portal_camera_photo_v1 1" "mimes cordon_portal_camera_photo_v1 2"; do
	set -- $mode_error
	start_client "misuse-$1" "${in_sandbox[@]}" "$CORDON_TEST_CAMERA_CLIENT" "$1"
	wait_for "the $1 error" grep -qx "protocol-error $2 $3" "$TEST_TMP/misuse-$1.log"
done
rm "$ANSWER"
start_client cap "${in_sandbox[@]}" "$CORDON_TEST_CAMERA_CLIENT" cap
wait_for "the cap's error" grep -qx "protocol-error cordon_portal_manager_v1 0" \
	"$TEST_TMP/cap.log"
no_pending() {
	[[ "$(ctl --json portal-requests | jq length)" == 0 ]]
}
wait_for "the capped client's requests to go" no_pending

# Camera streams need a provider whose file says Stream = true; this one does not
# (tests/portal/camera-stream.sh streams).
answer "camera-stream=allow"
portal camera-stream
assert_eq 3 "$rc" "a stream without a streaming provider"
[[ "$err" == *"unavailable: no camera provider can stream to this app"* ]] ||
	fail "the stream failure says: $err"

# Misuse is a protocol error, and file chooser answers skip camera lines.
echo "content" >"$TEST_TMP/file.txt"
answer "camera-provider=pattern" "$TEST_TMP/file.txt"
portal open-file --output "$TEST_TMP/out"
assert_eq 0 "$rc" "a file chosen from an answer with a camera line ($err)"
assert_eq content "$(cat "$TEST_TMP/out/file.txt")" "the chosen file"
kill -0 "$CORDON_PID" || fail "cordon died"
# The app in a real cordon-run sandbox (tagged cordon/org.example.RunCam by its socket):
# it has no camera device, takes a photo through the portal, and the photo shows its id.
run_app=org.example.RunCam
answer "camera-provider=pattern"
rc=0
"$CORDON_RUN" --app-id "$run_app" --app "$(dirname "$CORDON_PORTAL")" -- /bin/sh -c \
	'for d in /dev/video*; do [ -e "$d" ] && echo "has $d"; done
	 exec /app/cordon-portal take-photo --width 200 --height 100 \
		--output "$XDG_DATA_HOME/photo.png"' >"$TEST_TMP/run.out" 2>"$TEST_TMP/run.err" || rc=$?
assert_eq 0 "$rc" "a photo inside cordon-run ($(cat "$TEST_TMP/run.err"))"
assert_eq image/png "$(cat "$TEST_TMP/run.out")" "no camera device inside, and the mime type"
run_photo="$XDG_DATA_HOME/cordon/apps/$run_app/data/photo.png"
assert_eq "200 100" "$(png_probe "$run_photo" size)" "the sandboxed app's photo"
"$CORDON_CAMERA_PATTERN" --width=200 --height=100 -- "$run_app" >"$TEST_TMP/run-same.png"
# Scale 2 at this size: the app id line is rows 83-92.
assert_eq "$(white_in "$TEST_TMP/run-same.png" 0 82 200 12)" \
	"$(white_in "$run_photo" 0 82 200 12)" "the app id cordon-run's tag gave"
grep -q "Portal camera request .* (cordon $run_app)" "$CORDON_LOG" ||
	fail "the request was not from the cordon-run tag"

# Every pipe, pidfd, memfd and device fd of the requests above was closed.
fds_back() {
	[[ "$(fd_count)" == "$fds_before" ]]
}
wait_for "cordon's fd count to return to $fds_before" fds_back

# The per-app policy can leave the camera out: denied without a dialog.
cordon_stop
printf '[app %s]\nportals = file-chooser\n' "$app" >"$TEST_TMP/policy.ini"
cordon_start --verbose --config "$TEST_TMP/cordon.ini" --policy "$TEST_TMP/policy.ini"
answer "camera-provider=pattern"
portal take-photo --output "$photo"
assert_eq 3 "$rc" "a camera the policy leaves out"
[[ "$err" == *"denied: the app's policy does not allow this portal"* ]] ||
	fail "the policy refusal says: $err"
assert_eq 0 "$(dialogs)" "dialogs for a camera the policy leaves out"

# The policy can pin the providers an app is offered: here only one that is not there.
cordon_stop
printf '[app %s]\ncamera-providers = v4l2\n' "$app" >"$TEST_TMP/policy.ini"
cordon_start --verbose --config "$TEST_TMP/cordon.ini" --policy "$TEST_TMP/policy.ini"
portal take-photo --output "$photo"
assert_eq 3 "$rc" "a photo from providers the policy does not offer"
[[ "$err" == *"unavailable: no camera provider makes an image this app accepts"* ]] ||
	fail "the pinned refusal says: $err"
cordon_stop
printf '[app %s]\ncamera-providers = pattern\n' "$app" >"$TEST_TMP/policy.ini"
cordon_start --verbose --config "$TEST_TMP/cordon.ini" --policy "$TEST_TMP/policy.ini"
portal take-photo --output "$photo"
assert_eq 0 "$rc" "a photo from the provider the policy pins ($err)"

# Without a launcher ([portal] camera-launcher = none) the provider is started directly:
# exactly the listed environment, the same fds, and a child it leaves on the pipe is
# stopped with its process group at the timeout.
cordon_stop
launcher_config none
cordon_start --verbose --config "$TEST_TMP/cordon.ini"
# What a provider gets (SECURITY-NOTES: argument and environment injection): its argv
# with "--" before the app id, exactly the listed environment, stdin /dev/null, stdout
# a pipe, stderr, and no other fd of cordon's. Read from outside while it waits.
cat >"$TEST_TMP/spy.sh" <<END
while [ ! -e "$TEST_TMP/spy.go" ]; do sleep 0.05; done
cat "$TEST_TMP/same.png"
END
printf '[Camera Provider]\nName = Spy\nMimeTypes = image/png\nExec = /bin/sh %s\nAppId = true\n' \
	"$TEST_TMP/spy.sh" >"$providers/spy.provider"
answer "camera-provider=spy"
start_client spy "${in_sandbox[@]}" "$CORDON_PORTAL" take-photo --width 320 --height 240 \
	--output "$photo"
wait_for "the spy to start" grep -q "Camera provider spy started as pid" "$CORDON_LOG"
spy_pid=$(grep -o "Camera provider spy started as pid [0-9]*" "$CORDON_LOG" | grep -o "[0-9]*$")
assert_eq "/bin/sh $TEST_TMP/spy.sh --width=320 --height=240 --mime-type=image/png -- $app" \
	"$(tr '\0' ' ' <"/proc/$spy_pid/cmdline" | sed 's/ $//')" "the provider's arguments"
assert_eq "PATH=/usr/local/bin:/usr/bin:/bin LC_ALL=C" \
	"$(tr '\0' ' ' <"/proc/$spy_pid/environ" | sed 's/ $//')" "the provider's environment"
assert_eq /dev/null "$(readlink "/proc/$spy_pid/fd/0")" "the provider's stdin"
[[ "$(readlink "/proc/$spy_pid/fd/1")" == "pipe:"* ]] || fail "the provider's stdout"
others=""
for fd in /proc/"$spy_pid"/fd/*; do
	n=${fd##*/}
	target=$(readlink "$fd" || true)
	# The shell's own fd of the script it reads.
	if ((n > 2)) && [[ "$target" != "$TEST_TMP/spy.sh" ]]; then
		others+="$n:$target "
	fi
done
assert_eq "" "$others" "fds of cordon's in the provider"
touch "$TEST_TMP/spy.go"
wait_for "the spy's photo" not client_alive spy
assert_eq "320 240" "$(png_probe "$photo" size)" "the spy's photo"
rm "$providers/spy.provider"
bad orphan image/png 'sleep 60 & echo $! >"'"$TEST_TMP"'/orphan.pid"'
check_refused orphan "the camera provider took too long"
wait_for "the orphan the provider left to be stopped" not _alive "$(cat "$TEST_TMP/orphan.pid")"
printf '[Camera Provider]\nName = Missing\nMimeTypes = image/png\nExec = /nonexistent/provider\n' \
	>"$providers/missing.provider"
check_refused missing "cordon could not start the camera provider"
rm "$providers"/{orphan,missing}.provider
