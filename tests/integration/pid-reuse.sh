#!/usr/bin/env bash
# A pid is not an identity: a sandboxed client (in a flatpak-named cgroup) connects,
# hands its connection to a child and exits; a host process is then given the same
# pid (through /proc/sys/kernel/ns_last_pid) and connects. The old connection keeps
# the flatpak tag taken at connect, and the new client is the host: neither is ever
# recomputed from the pid.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"

[[ $(id -u) == 0 ]] || skip "needs root (cgroups and ns_last_pid)"
[[ -w /proc/sys/kernel/ns_last_pid ]] || skip "/proc/sys/kernel/ns_last_pid is not writable"
mount=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
[[ -n "$mount" ]] || skip "no cgroup v2 mount"
slice="$mount/cordon-test-$$.slice"
scope="$slice/app-flatpak-org.example.Reuse-5.scope"
child=
cleanup() {
	if [[ -n "$child" ]]; then
		kill "$child" 2>/dev/null || true
	fi
	rmdir "$scope" "$slice" 2>/dev/null || true
}
mkdir "$slice" "$scope" 2>/dev/null || skip "cannot create cgroups under $mount"
on_teardown cleanup

cordon_start
# entries PID: the cordonctl clients entries of that pid, one "sandboxed engine app_id
# tag_source" line each, sorted.
entries() {
	ctl --json clients | jq -r --argjson pid "$1" \
		'.[] | select(.pid == $pid) | "\(.sandboxed) \(.engine) \(.app_id) \(.tag_source)"' | sort
}

start_client sandboxed sh -c 'echo $$ > "$1/cgroup.procs" && exec "$2"' sh "$scope" \
	"$TC/fork-client"
pid=$CLIENT_PID
wait_log sandboxed '^connected pid='
line=$(log_last sandboxed '^connected pid=')
assert_eq "$pid" "$(sed 's/.*pid=\([0-9]*\).*/\1/' <<<"$line")" "the client's pid"
child=$(sed 's/.*child=\([0-9]*\).*/\1/' <<<"$line")
wait_for "the sandboxed client to exit" not client_alive sandboxed
wait "$pid" 2>/dev/null || true
# Its connection lives on in the child, with the tag of the process that connected.
assert_eq "true flatpak org.example.Reuse cgroup" "$(entries "$pid")" "the old connection's tag"

# Give the next process the old pid. Others may fork in between: try again a few times.
reused=0
for attempt in $(seq 1 50); do
	echo $((pid - 1)) >/proc/sys/kernel/ns_last_pid
	start_client "host-$attempt" "$TC/focus-client" --app-id reuse-host
	if [[ "$CLIENT_PID" == "$pid" ]]; then
		reused=1
		break
	fi
	stop_client "host-$attempt"
done
((reused)) || skip "could not get pid $pid again in 50 attempts (a busy machine)"

wait_for_window reuse-host
assert_eq "$pid" "$(window_json reuse-host | jq -r .pid)" "the new client's pid"
host_tag=$(ctl --json clients | jq -r --argjson pid "$pid" \
	'.[] | select(.pid == $pid and .sandboxed == false) | "\(.engine) \(.tag_source)"')
[[ "$host_tag" == "host host" || "$host_tag" == "systemd-app cgroup" ]] ||
	fail "the new process is not tagged as the host: $(entries "$pid")"
# Both connections, each with its own tag: the old one still flatpak, the new one not.
assert_eq 2 "$(entries "$pid" | wc -l)" "connections with pid $pid"
grep -qx "true flatpak org.example.Reuse cgroup" <<<"$(entries "$pid")" ||
	fail "the old connection lost its tag: $(entries "$pid")"
assert_eq false "$(window_json reuse-host | jq -r .sandboxed)" "the new window's owner"
