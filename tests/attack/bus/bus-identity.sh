#!/usr/bin/env bash
# Attack: the portals know a sandboxed app by the .flatpak-info in the root of its bus peer,
# which through cordon-run's bus is the proxy (sandbox/launcher/dbus_proxy.c). An app that
# could rewrite that file, or its own copy, or reach the proxy's root, would pass for
# another app (its documents, its permissions). The app tries: writing, replacing,
# removing and mounting over its /.flatpak-info, and finding the proxy's root through
# /proc. Evidence: the file is unchanged and the portal still names the app by its own
# id in the dialog it asks cordon for (the auto UI's log line), with a document of the
# file the "user" chose.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/sandbox/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/sandbox/bus-lib.sh"

bus_start
out=$(run_app -- sh -c '
	id_before=$(cat /.flatpak-info)
	echo "[Application]" >/.flatpak-info 2>/dev/null && echo "wrote"
	# Wherever the path leads: the file itself, made writable first if the app owns it.
	target=$(readlink -f /.flatpak-info)
	chmod u+w "$target" 2>/dev/null && echo "[Application]" >"$target" 2>/dev/null && echo "wrote"
	printf "[Application]\nname=org.freedesktop.Evil\n" >/tmp/fake 2>/dev/null
	mv /tmp/fake /.flatpak-info 2>/dev/null && echo "replaced"
	cp /tmp/fake /tmp/fake2 && mv /tmp/fake2 "$target" 2>/dev/null && echo "replaced"
	rm -f /.flatpak-info 2>/dev/null && echo "removed"
	rm -f "$target" 2>/dev/null && echo "removed"
	mount --bind /tmp/fake /.flatpak-info 2>/dev/null && echo "mounted"
	ln -sf /tmp/fake /.flatpak-info 2>/dev/null && echo "linked"
	for p in /proc/[0-9]*; do
		[ -r "$p/root/.flatpak-info" ] || continue
		grep -q "session-bus-proxy" "$p/root/.flatpak-info" && echo "root of ${p#/proc/} readable"
	done
	ls /proc | grep -c "^[0-9]" | sed "s/^/pids /"
	[ "$(cat /.flatpak-info)" = "$id_before" ] && echo "unchanged"
	grep "^name=" /.flatpak-info
	echo probe done' 2>&1) || fail "the shell inside failed: $out"
grep -qx "probe done" <<<"$out" || fail "the probe did not run: $out"
for what in wrote replaced removed mounted linked; do
	! grep -qx "$what" <<<"$out" || fail "the app $what its /.flatpak-info: $out"
done
grep -qx "unchanged" <<<"$out" || fail "/.flatpak-info changed: $out"
grep -qx "name=$APP_ID" <<<"$out" || fail "/.flatpak-info names another app: $out"
echo "the app's /.flatpak-info: not writable, replaceable, removable or mountable"
# Every root the app can see is its own sandbox's: the proxy is in no pid it can see.
grep -q "^root of 1 readable$" <<<"$out" && fail "init's root was readable: $out"
echo "the proxy's root: not reachable from the app ($(grep pids <<<"$out"))"

# The portal names the app by its own id: the request the auto UI logs is from $APP_ID.
host="$TEST_TMP/host"
mkdir -p "$host"
echo "chosen by the user $$" >"$host/chosen.txt"
answer "$host/chosen.txt"
probe -- open-file
assert_eq 0 "$RC" "the probe's exit status ($OUT)"
grep -qx "response 0" <<<"$OUT" || fail "OpenFile did not succeed: $OUT"
grep -q "auto: request .* from '$APP_ID' (xdg-desktop-portal): $host/chosen.txt" "$CORDON_LOG" ||
	fail "the dialog did not name $APP_ID: $(grep 'auto: request' "$CORDON_LOG" || true)"
grep -qx "content chosen by the user $$" <<<"$OUT" || fail "the document's content: $OUT"
# The portal names the host's mount point (/run/user/UID/doc on a desktop; the test's
# private runtime dir here, which cordon-run links to the app's view).
grep -q "^uri file://$XDG_RUNTIME_DIR/doc/" <<<"$OUT" || fail "not a document: $OUT"
echo "xdg-desktop-portal knows the app as $APP_ID through the proxy; the file came as a document"
