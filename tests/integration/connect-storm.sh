#!/usr/bin/env bash
# 500 clients connecting at once are each tagged from their own process: host
# clients, clients through a security-context listener and (as root) clients in a
# flatpak-named cgroup, all in one burst from three processes at the same time.
# Prints the storm times (microseconds per connection) to the test log.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"

cordon_start
sock="$TEST_TMP/ctx.sock"
start_client launcher "$TC/security-context-client" --listen "$sock" --engine org.flatpak \
	--app-id org.example.Storm --instance 3 --commit
wait_log launcher '^ready$'

scope=
mount=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
if [[ -n "$mount" && -w "$mount" ]]; then
	test_cgroup app-flatpak-org.example.Cgroup-9.scope
	scope=$TEST_CGROUP
fi
if [[ -n "$scope" ]]; then
	# Each sandboxed storm stays under its app's cap of 128 connections (app_limits.h).
	host_count=250 ctx_count=120 cg_count=120
else
	host_count=370 ctx_count=120 cg_count=0
fi

start_client host-storm "$TC/storm-client" --count "$host_count"
host_pid=$CLIENT_PID
start_client ctx-storm "$TC/storm-client" --count "$ctx_count" --display "$sock"
ctx_pid=$CLIENT_PID
if ((cg_count)); then
	start_client cg-storm "${IN_CGROUP[@]}" "$scope" "$TC/storm-client" --count "$cg_count"
	cg_pid=$CLIENT_PID
fi
wait_log host-storm '^ready$'
wait_log ctx-storm '^ready$'
((cg_count == 0)) || wait_log cg-storm '^ready$'

clients=$(ctl --json clients)
# tags PID: "count tag" for each distinct tag among that pid's connections.
tags() {
	jq -r --argjson pid "$1" '[.[] | select(.pid == $pid)
		| "\(.sandboxed) \(.engine) \(.app_id) \(.instance) \(.tag_source)"]
		| group_by(.) | map("\(length) \(.[0])") | .[]' <<<"$clients"
}
host_tags=$(tags "$host_pid")
[[ "$host_tags" == "$host_count false host   host" ||
	"$host_tags" == "$host_count false systemd-app "* ]] ||
	fail "the host storm's tags: $host_tags"
assert_eq "$ctx_count true flatpak org.example.Storm 3 security-context" "$(tags "$ctx_pid")" \
	"the tags of the storm through the listener"
if ((cg_count)); then
	assert_eq "$cg_count true flatpak org.example.Cgroup 9 cgroup" "$(tags "$cg_pid")" \
		"the tags of the storm in the flatpak cgroup"
fi
total=$((host_count + ctx_count + cg_count))
assert_eq "$total" "$(jq --argjson a "$host_pid" --argjson b "$ctx_pid" --argjson c "${cg_pid:-0}" \
	'[.[] | select(.pid == $a or .pid == $b or .pid == $c)] | length' <<<"$clients")" \
	"connections listed"
for name in host-storm ctx-storm cg-storm; do
	[[ -e "$TEST_TMP/$name.log" ]] || continue
	us=$(log_last "$name" '^storm ' | sed 's/.*us=//')
	count=$(log_last "$name" '^storm ' | sed 's/.*count=\([0-9]*\).*/\1/')
	echo "$name: $count connections in $us us, $((us / count)) us each (concurrent storms)" >&2
done
