#!/usr/bin/env bash
# A store signs a manifest that asks for too much or tries to break out of where its text
# goes: a permission cordon does not know, a policy key that is not a permission (profile,
# sandboxed), a value the policy refuses, a value or name carrying a newline into policy.ini
# or the desktop entry (an Exec= of its own), a command that is an option, an invalid app id,
# another architecture, a newer cordon. Each is refused (exit 4) naming the reason, nothing
# changes on disk; an honest manifest still installs.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/apps/lib.sh"

make_key alpha
capp store add alpha "$APPS_WORK/store" --key "$(pub alpha)" --apps 'org.example.*' >/dev/null
before=$(disk_state)
n=0
# refused PATTERN ID COMMAND PERMISSIONS [ARCH]
refused() {
	local pattern=$1
	shift
	n=$((n + 1))
	make_bundle "$APPS_WORK/bad-$n.cordon" alpha "$1" 1.0 "${@:2}"
	expect_refusal 4 "$pattern" capp install "$APPS_WORK/bad-$n.cordon" --yes
	assert_eq "$before" "$(disk_state)" "the disk after refusing: $pattern"
}
ID=org.example.Greedy
refused "unknown key 'camera-spy'" "$ID" /app/bin/hello '{"camera-spy": "yes"}'
refused "permission 'sandboxed' is not a permission an app may ask for" "$ID" /app/bin/hello \
	'{"sandboxed": "false"}'
refused "permission 'profile' is not a permission" "$ID" /app/bin/hello '{"profile": "devel"}'
refused "'everything' is not a value of 'share'" "$ID" /app/bin/hello '{"share": "everything"}'
refused "unknown or invalid permission" "$ID" /app/bin/hello '{"dbus-talk": "*"}'
refused "its value has characters a policy value may not have" "$ID" /app/bin/hello \
	'{"share": "network\n[app org.example.Victim]\nglobals = zwlr_screencopy_manager_v1"}'
refused "'command' must name a program" "$ID" --help '{}'
refused "'command' item 0 is not a plain word" "$ID" '/app/bin/x %f' '{}'
refused "the app id is not valid" "../../etc" /app/bin/hello '{}'
other=riscv64
[[ $(uname -m) != riscv64 ]] || other=x86_64
refused "the bundle is built for another architecture ($other), this machine is $(uname -m)" \
	"$ID" /app/bin/hello '{}' "$other"

# A name carrying a desktop-entry line of its own.
n=$((n + 1))
make_bundle "$APPS_WORK/name.cordon" alpha "$ID" 1.0
$PYTHON - "$APPS_WORK/name.cordon" "$APPS_WORK/alpha.key" <<'PY' || fail "crafting the bundle"
import json, struct, sys
path = sys.argv[1]
d = open(path, 'rb').read()
m, i = struct.unpack('<II', d[12:20])
manifest = json.loads(d[64:64 + m])
manifest['name'] = 'Nice\nExec=/bin/sh -c evil'
open(path + '.json', 'w').write(json.dumps(manifest))
PY
img="$APPS_WORK/image-1.0.squashfs"
"$CORDON_BUNDLE" build "$APPS_WORK/alpha.key" "$APPS_WORK/name.cordon.json" "$img" - \
	"$APPS_WORK/name2.cordon"
expect_refusal 4 "'name' must be 1 to 100 printable characters" \
	capp install "$APPS_WORK/name2.cordon" --yes
assert_eq "$before" "$(disk_state)" "the disk after refusing a name with a newline"
# A newer cordon than this one.
$PYTHON -c "
import json, sys
m = json.load(open(sys.argv[1])); m['name'] = 'Future'; m['min-cordon'] = '99.0'
json.dump(m, open(sys.argv[1], 'w'))" "$APPS_WORK/name.cordon.json"
"$CORDON_BUNDLE" build "$APPS_WORK/alpha.key" "$APPS_WORK/name.cordon.json" "$img" - \
	"$APPS_WORK/future.cordon"
expect_refusal 4 "the app needs cordon 99.0 or newer" capp install "$APPS_WORK/future.cordon" --yes
assert_eq "$before" "$(disk_state)" "the disk after refusing a newer cordon's app"

# The positive control: permissions the policy knows install, and land in policy.ini.
make_bundle "$APPS_WORK/ok.cordon" alpha "$ID" 1.0 /app/bin/hello \
	'{"share": "network", "portals": "file-chooser", "clipboard-size-limit": "64K",
	  "dbus-own": "org.mpris.MediaPlayer2.Greedy.*"}'
capp install "$APPS_WORK/ok.cordon" --yes >/dev/null || fail "an honest manifest was refused"
grep -q "^portals = file-chooser$" "$XDG_CONFIG_HOME/cordon/policy.ini" ||
	fail "the permissions are not the app's profile"
