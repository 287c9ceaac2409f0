#!/usr/bin/env bash
# cordon-run and the host's document portal (docs/sandbox.md): with the real
# xdg-document-portal mounted at $XDG_RUNTIME_DIR/doc, the app sees its own documents at
# /run/user/UID/doc and nothing of another app's; without a portal (or with a plain
# directory there) it has no doc dir. As root, the same for an unprivileged user with a
# portal of its own, and that user is not let into root's portal (FUSE's access check).
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/sandbox/lib.sh"
for tool in dbus-daemon fusermount3; do
	command -v "$tool" >/dev/null || skip "$tool is not installed"
done
[[ -x /usr/libexec/xdg-document-portal ]] || skip "xdg-document-portal is not installed"
/usr/bin/python3 -c 'import dbus' 2>/dev/null || skip "no dbus module for /usr/bin/python3"
cordon_test_init
export XDG_DATA_HOME="$TEST_TMP/data"
other_app="org.cordon.Other$$"

# grant FILE APP_ID: the document portal on the current session bus grants APP_ID read
# access to FILE (an O_PATH fd, as cordon passes it); prints the document id.
grant() {
	/usr/bin/python3 - "$1" "$2" <<'EOF_PY'
import os, sys
import dbus
bus = dbus.SessionBus()
docs = dbus.Interface(bus.get_object("org.freedesktop.portal.Documents",
                                     "/org/freedesktop/portal/documents"),
                      "org.freedesktop.portal.Documents")
fd = os.open(sys.argv[1], os.O_PATH | os.O_CLOEXEC)
ids, _ = docs.AddFull([dbus.types.UnixFd(fd)], dbus.UInt32(1), sys.argv[2], ["read"])
print(ids[0])
EOF_PY
}

# No portal: no doc dir inside; a plain directory at $XDG_RUNTIME_DIR/doc is not bound.
mkdir -p "$TEST_TMP/plain-runtime/doc"
echo "not a portal" >"$TEST_TMP/plain-runtime/doc/file"
out=$(XDG_RUNTIME_DIR="$TEST_TMP/plain-runtime" run_sandboxed -- \
	sh -c "ls -A /run/user/$(id -u)") || fail "cordon-run without a portal"
assert_eq "" "$out" "the runtime dir without a portal"

# The real portal, for this user.
start_session_bus
echo "the document $$" >"$TEST_TMP/doc.txt"
echo "another app's $$" >"$TEST_TMP/other.txt"
doc=$(grant "$TEST_TMP/doc.txt" "$APP_ID") || fail "AddFull failed"
other=$(grant "$TEST_TMP/other.txt" "$other_app") || fail "AddFull for the other app failed"
inside="/run/user/$(id -u)/doc"
assert_eq "the document $$" "$(run_sandboxed -- cat "$inside/$doc/doc.txt")" \
	"the granted document inside"
assert_eq "$doc" "$(run_sandboxed -- ls "$inside")" "the documents the app lists"
rc=0
run_sandboxed -- cat "$inside/$other/other.txt" >/dev/null 2>&1 || rc=$?
((rc != 0)) || fail "the app read another app's document"
# The view is the app's own, nosuid and nodev: no by-app dir of the others in it.
run_sandboxed -- sh -c "test ! -e $inside/by-app" || fail "the app sees every app's view"
opts=$(run_sandboxed -- awk -v p="$inside" '$5 == p { print $6 }' /proc/self/mountinfo)
[[ "$opts" == *nosuid* && "$opts" == *nodev* ]] || fail "the doc view's mount options: $opts"
echo "root: the app's own documents at $inside, no other app's"

if ((EUID == 0)); then
	nobody=65534
	setup_user_home "$nobody"
	make_delegated_cgroup "$nobody" || fail "cannot make a delegated cgroup"
	# Root's portal in the user's runtime dir: FUSE keeps the user out, the app runs without.
	user_runtime="$TEST_TMP/user-runtime"
	out=$(sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' as_user "$DELEGATED" \
		setpriv --reuid=$nobody --regid=$nobody --clear-groups env \
		HOME="$TEST_TMP/user-home" XDG_DATA_HOME="$TEST_TMP/user-home/data" \
		XDG_RUNTIME_DIR="$XDG_RUNTIME_DIR" "$CORDON_RUN" --no-wayland --verbose \
		--app-id "$APP_ID" -- sh -c 'ls -A /run/user/*/' 2>"$TEST_TMP/nobody.err") ||
		fail "cordon-run as nobody beside root's portal: $(cat "$TEST_TMP/nobody.err")"
	assert_eq "" "$out" "what nobody's app has beside root's portal"
	grep -q "not ours to use" "$TEST_TMP/nobody.err" ||
		fail "no word on root's portal: $(cat "$TEST_TMP/nobody.err")"

	# A session bus and a portal of the user's own.
	conf="$TEST_TMP/user-bus.conf"
	sed -e "s|$XDG_RUNTIME_DIR/bus|$user_runtime/bus|" -e "s|$TEST_TMP/dbus-services|$user_runtime/services|" \
		"$TEST_TMP/session-bus.conf" >"$conf"
	mkdir -p "$user_runtime/services"
	chown "$nobody" "$user_runtime/services"
	chmod 0644 "$conf"
	user_env=(setpriv --reuid=$nobody --regid=$nobody --clear-groups env -i PATH="$PATH"
		HOME="$TEST_TMP/user-home" XDG_DATA_HOME="$TEST_TMP/user-home/data"
		XDG_RUNTIME_DIR="$user_runtime" DBUS_SESSION_BUS_ADDRESS="unix:path=$user_runtime/bus")
	start_client user-bus "${user_env[@]}" dbus-daemon --nofork --nopidfile --config-file="$conf"
	_user_bus_up() {
		"${user_env[@]}" busctl --user status >/dev/null 2>&1
	}
	wait_for "nobody's session bus" _user_bus_up
	_unmount_user_documents() {
		if grep -qF " $user_runtime/doc " /proc/self/mounts; then
			umount -l "$user_runtime/doc" 2>/dev/null || true
		fi
	}
	on_teardown _unmount_user_documents
	echo "nobody's document $$" >"$TEST_TMP/user-home/mine.txt"
	chown "$nobody" "$TEST_TMP/user-home/mine.txt"
	udoc=$("${user_env[@]}" /usr/bin/python3 -c "$(declare -f grant | sed -n '/^import/,/^print/p')" \
		"$TEST_TMP/user-home/mine.txt" "$APP_ID" 2>"$TEST_TMP/grant.err") ||
		fail "AddFull as nobody: $(cat "$TEST_TMP/grant.err")"
	got=$(sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' as_user "$DELEGATED" \
		"${user_env[@]}" "$CORDON_RUN" --no-wayland --app-id "$APP_ID" -- \
		cat "/run/user/$nobody/doc/$udoc/mine.txt" 2>"$TEST_TMP/nobody.err") ||
		fail "nobody's app cannot read its document: $(cat "$TEST_TMP/nobody.err")"
	assert_eq "nobody's document $$" "$got" "nobody's document inside"
	stop_client user-bus
	_unmount_user_documents
	echo "nobody: its own portal's documents, not root's"
fi
scopes=$(leftover_scopes)
[[ -z "$scopes" ]] || fail "a scope was left behind: $scopes"
