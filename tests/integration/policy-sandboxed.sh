#!/usr/bin/env bash
# The policy's switch for host apps that are sandboxes: a systemd app unit is a host
# app by default, but "sandboxed = true" for its app id, or its launcher listed in
# "sandboxed-launchers", makes its clients sandboxed (allow-listed globals only).
# An app the policy does not name stays a trusted host app.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
command -v wayland-info >/dev/null || skip "wayland-info not found (Debian package wayland-utils)"

mount=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
[[ -n "$mount" ]] || skip "no cgroup v2 mount"
slice="$mount/cordon-test-$$.slice"
marked="$slice/app-gnome-org.example.Marked-7.scope"
jailed="$slice/app-myjail-org.example.Jailed-8.scope"
plain="$slice/app-gnome-org.example.Plain-9.scope"
remove_cgroups() {
	rmdir "$marked" "$jailed" "$plain" "$slice" 2>/dev/null || true
}
mkdir "$slice" "$marked" "$jailed" "$plain" 2>/dev/null ||
	skip "cannot create cgroups under $mount (needs root)"
on_teardown remove_cgroups

cordon_test_init
cat >"$TEST_TMP/policy.ini" <<'EOF2'
[profile default]
sandboxed-launchers = myjail

[app org.example.Marked]
sandboxed = true
EOF2
cordon_start --policy "$TEST_TMP/policy.ini"

# "${run_in[@]}" CGROUP CMD...: runs CMD inside CGROUP (a command, so start_client can run it).
run_in=(sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' run_in)
globals_in() {
	"${run_in[@]}" "$1" timeout 20 wayland-info | grep -o "interface: '[a-z_0-9]*'" | cut -d"'" -f2
}

for case in "marked:$marked:org.example.Marked:true" "jailed:$jailed:org.example.Jailed:true" \
		"plain:$plain:org.example.Plain:false"; do
	IFS=: read -r name cgroup app sandboxed <<<"$case"
	start_client "$name" "${run_in[@]}" "$cgroup" "$CORDON_TEST_CLIENTS/focus-client" --app-id "win-$name"
	wait_for_window "win-$name"
	pid=$(window_json "win-$name" | jq -r .pid)
	assert_eq "$sandboxed systemd-app $app cgroup" "$(ctl --json clients | jq -r --argjson pid "$pid" \
		'first(.[] | select(.pid == $pid)) | "\(.sandboxed) \(.engine) \(.app_id) \(.tag_source)"')" \
		"the tag of $name"
	globals=$(globals_in "$cgroup")
	if [[ "$sandboxed" == true ]]; then
		! grep -qx zwlr_screencopy_manager_v1 <<<"$globals" || fail "$name sees screencopy"
		grep -qx wl_compositor <<<"$globals" || fail "$name misses wl_compositor"
	else
		grep -qx zwlr_screencopy_manager_v1 <<<"$globals" || fail "$name does not see screencopy"
	fi
done
