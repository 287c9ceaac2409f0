#!/usr/bin/env bash
# Attack: the sandbox's pid 1 is a fork of cordon-run, so it held the caller's whole
# environment (a secret token, host paths) and command line, the caller's fds, and was
# dumpable: the app read /proc/1/environ and could open /proc/1/mem read-write. The app
# tries every way to init: environ, mem (read and write), maps, fd, ptrace, pidfd_getfd and
# kcmp, and looks for the caller's words in /proc/1/cmdline and in its own environment.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/sandbox/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/attack/launcher/lib.sh"
cordon_test_init

secret="token-$$-$RANDOM$RANDOM"
host_dir="$TEST_TMP/host-only-$$"
mkdir -p "$host_dir"
cp "$ATTACK_DIR/launcher-attack" "$host_dir/"
# The caller holds a secret in its environment, a host path on its command line and an fd
# of its own open (7) when it starts the app.
out=$(CALLER_SECRET="$secret" "$CORDON_RUN" --no-wayland --app-id "$APP_ID" \
	--app "$host_dir" -- /app/launcher-attack init "$secret" "$host_dir" 2>&1 7<"$host_dir/launcher-attack") || true
refused=("ok open /proc/1/environ: EACCES"
	"ok open /proc/1/mem O_RDWR: EACCES"
	"ok open /proc/1/mem O_RDONLY: EACCES"
	"ok open /proc/1/fd/0: EACCES"
	"ok ptrace(ATTACH, 1): EPERM"
	"ok pidfd_getfd(init, 0): EPERM"
	"ok kcmp(self, init): EPERM"
	"ok /proc/1/cmdline holds no word 0 of the caller's"
	"ok /proc/1/cmdline holds no word 1 of the caller's"
	"control /proc/self/environ readable")
assert_attack "init" "$out" init "${refused[@]}"

# The same as an unprivileged user (uid 0 inside owns more of /proc).
if ((EUID == 0)); then
	setup_user_home 65534
	make_delegated_cgroup 65534 || fail "cannot make a delegated cgroup"
	out=$(CALLER_SECRET="$secret" as_user 65534 "$CORDON_RUN" --no-wayland --app-id "$APP_ID" \
		--app "$host_dir" -- /app/launcher-attack init "$secret" "$host_dir" 2>&1) || true
	assert_attack "init, as nobody" "$out" init "${refused[@]}"
fi

# The same from a shell: the bytes of init's environment never reach the app, and init
# keeps none of the caller's fds beyond /dev/null.
out=$(CALLER_SECRET="$secret" run_sandboxed -- sh -c '
	cat /proc/1/environ 2>&1 || echo "environ refused"
	ls /proc/1/fd 2>&1 | tr "\n" " "; echo
	echo "shell ran"' 7<"$host_dir/launcher-attack" 2>&1) || true
grep -qx "shell ran" <<<"$out" || fail "the shell inside did not run: $out"
grep -q "environ refused" <<<"$out" || fail "/proc/1/environ was read: $out"
! grep -qF "$secret" <<<"$out" || fail "the caller's secret reached the app: $out"
echo "ok: init holds nothing of its caller that the app can reach"
