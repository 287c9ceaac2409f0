/* Unit tests for cgroup path tagging: real unit names from each engine, and hostile ones. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sandbox/cgroup_tag.h"

#define USER "/user.slice/user-1000.slice/user@1000.service"
#define APPS USER "/app.slice"
#define UUID "6e2a1f9b-0c3d-4e5f-8a7b-1c2d3e4f5a6b"
#define L64 "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl"
#define L256 L64 L64 L64 L64

enum {
	HOST = CORDON_SANDBOX_HOST,
	CORDON = CORDON_SANDBOX_CORDON,
	FLATPAK = CORDON_SANDBOX_FLATPAK,
	SNAP = CORDON_SANDBOX_SNAP,
	SYSAPP = CORDON_SANDBOX_SYSTEMD_APP
};

struct row {
	const char *path;
	bool valid; /* what cordon_tag_from_cgroup_path returns */
	int engine;
	const char *app_id;
	const char *instance;
	bool sandboxed;
};

/* One row per line reads as a table; clang-format would wrap the long ones. */
// clang-format off
static const struct row rows[] = {
	/* Plain host paths. */
	{"/", true, HOST, "", "", false},
	{"/init.scope", true, HOST, "", "", false},
	{"/system.slice/sshd.service", true, HOST, "", "", false},
	{"/user.slice/user-1000.slice/session-2.scope", true, HOST, "", "", false},
	{USER "/init.scope", true, HOST, "", "", false},
	{APPS "/dbus.service", true, HOST, "", "", false},
	{"/system.slice/snapd.service", true, HOST, "", "", false},
	{"/process_api/f3b19408faa35d7900bd7668e20929a4", true, HOST, "", "", false},
	/* cordon's own scopes. */
	{APPS "/app-cordon-org.mozilla.firefox-1.scope", true, CORDON, "org.mozilla.firefox", "1", true},
	{APPS "/app-cordon-org.foo-bar.Baz-a1b2.scope", true, CORDON, "org.foo-bar.Baz", "a1b2", true},
	{APPS "/app-cordon-org.foo\\x2dbar-7.scope", true, CORDON, "org.foo-bar", "7", true},
	{APPS "/app-cordon-x-1.scope/fake-app-gnome-evil-2.scope", true, CORDON, "x", "1", true},
	{APPS "/app-cordon-x-1.scope/app-flatpak-org.other-5.scope", true, CORDON, "x", "1", true},
	{APPS "/app-cordon-x-1.scope/..", true, CORDON, "x", "1", true},
	{APPS "/app-cordon-x-1.scope/\\xzz/\x01", true, CORDON, "x", "1", true},
	{APPS "/app-cordon--1.scope", false, HOST, "", "", false},
	{APPS "/app-cordon-org.foo-.scope", false, HOST, "", "", false},
	{APPS "/app-cordon-.hidden-1.scope", false, HOST, "", "", false},
	{APPS "/app-cordon-org..foo-1.scope", false, HOST, "", "", false},
	{APPS "/app-cordon-org.foo\\x2fetc-1.scope", false, HOST, "", "", false},
	{APPS "/app-cordon-org.f\\xc3\\xa9-1.scope", false, HOST, "", "", false},
	/* flatpak. */
	{APPS "/app-flatpak-org.gnome.Calculator-12345.scope", true, FLATPAK, "org.gnome.Calculator", "12345", true},
	{APPS "/app-flatpak-com.valvesoftware.Steam-3141.scope", true, FLATPAK, "com.valvesoftware.Steam", "3141", true},
	{APPS "/app-flatpak-org.foo_bar.App-9.scope", true, FLATPAK, "org.foo_bar.App", "9", true},
	{APPS "/app-flatpak-org.foo-bar.App-9.scope", true, FLATPAK, "org.foo-bar.App", "9", true},
	{APPS "/app-flatpak-org.foo-123.scope/sub.scope", true, FLATPAK, "org.foo", "123", true},
	{APPS "/app-flatpak-org.foo-123.scope/app-gnome-org.host.Shell-1.scope", true, FLATPAK, "org.foo", "123", true},
	{APPS "/app-flatpak-org.foo-123.scope/" L256, true, FLATPAK, "org.foo", "123", true},
	{APPS "/app-flatpak-org.foo-abc.scope", false, HOST, "", "", false},
	{APPS "/app-flatpak-org.foo.scope", false, HOST, "", "", false},
	{APPS "/app-flatpak-org.foo-12.service", true, SYSAPP, "org.foo-12", "", false},
	/* snap. */
	{APPS "/snap.firefox.firefox-" UUID ".scope", true, SNAP, "firefox.firefox", UUID, true},
	{"/system.slice/snap.lxd.daemon.service", true, SNAP, "lxd.daemon", "", true},
	{APPS "/snap.code-insiders.code-" UUID ".scope", true, SNAP, "code-insiders.code", UUID, true},
	{APPS "/snap.firefox_work.firefox-" UUID ".scope", true, SNAP, "firefox_work.firefox", UUID, true},
	{APPS "/snap.foo.hook.configure-" UUID ".scope", true, SNAP, "foo.hook.configure", UUID, true},
	{APPS "/snap.firefox.firefox-" UUID ".scope/evil.scope", true, SNAP, "firefox.firefox", UUID, true},
	{APPS "/snap.firefox.firefox-1234.scope", false, HOST, "", "", false},
	{APPS "/snap.Firefox.firefox-" UUID ".scope", false, HOST, "", "", false},
	{APPS "/snap..firefox.service", false, HOST, "", "", false},
	{APPS "/snap.firefox.service", false, HOST, "", "", false},
	/* The systemd desktop convention: host apps with an app id. */
	{APPS "/app-gnome-org.gnome.Terminal-2345.scope", true, SYSAPP, "org.gnome.Terminal", "2345", false},
	{APPS "/app-gnome-org.gnome.Foo\\x2dBar-99.scope", true, SYSAPP, "org.gnome.Foo-Bar", "99", false},
	{APPS "/app-gnome-firefox\\x2desr-1234.scope", true, SYSAPP, "firefox-esr", "1234", false},
	{APPS "/app-org.kde.konsole@12ab.service", true, SYSAPP, "org.kde.konsole", "12ab", false},
	{APPS "/app-org.kde.konsole-8f3a.scope", true, SYSAPP, "org.kde.konsole", "8f3a", false},
	{APPS "/app-sway-foot@abc.scope", true, SYSAPP, "foot", "abc", false},
	{APPS "/app-gnome-org.gnome.Nautilus@.service", false, HOST, "", "", false},
	{APPS "/app-gnome-org.gnome.Shell.service", true, SYSAPP, "org.gnome.Shell", "", false},
	{APPS "/app-org.foo.scope", true, SYSAPP, "org.foo", "", false},
	/* Innermost unit decides among host units; a host app's sub-unit is not that app. */
	{APPS "/app-gnome-org.a-1.scope/app-gnome-org.b-2.scope", true, SYSAPP, "org.b", "2", false},
	{APPS "/app-gnome-org.a-1.scope/helper.service", true, HOST, "", "", false},
	{APPS "/app-gnome-org.a-1.scope/app-flatpak-org.b-2.scope", true, FLATPAK, "org.b", "2", true},
	/* Malformed: all the unsandboxed host, and reported. */
	{APPS "/app--x.scope", false, HOST, "", "", false},
	{APPS "/app-gnome--1.scope", false, HOST, "", "", false},
	{APPS "/app-gnome-org.Foo\\x2-1.scope", false, HOST, "", "", false},
	{APPS "/app-gnome-org.Foo\\xzz-1.scope", false, HOST, "", "", false},
	{APPS "/app-gnome-org.Foo\\-1.scope", false, HOST, "", "", false},
	{APPS "/app-gnome-org.Foo\\x00-1.scope", false, HOST, "", "", false},
	{APPS "/app-gnome-org.Foo\\x0a-1.scope", false, HOST, "", "", false},
	{APPS "/app-gnome-org.Fo\xc3\xa9-1.scope", false, HOST, "", "", false},
	{APPS "/" L256 ".scope", false, HOST, "", "", false},
	{APPS "/app-flatpak-" L256 "-1.scope", false, HOST, "", "", false},
	{APPS "//app-flatpak-org.foo-1.scope", false, HOST, "", "", false},
	{APPS "/../app-flatpak-org.foo-1.scope", false, HOST, "", "", false},
	{APPS "/./app-flatpak-org.foo-1.scope", false, HOST, "", "", false},
	{APPS "/", false, HOST, "", "", false},
	{"", false, HOST, "", "", false},
	{"app.slice/app-flatpak-org.foo-1.scope", false, HOST, "", "", false},
	{APPS "/app-gnome-org.foo-1.scope (deleted)", false, HOST, "", "", false},
	{APPS "/app-gnome-org.foo-1.scope\n", false, HOST, "", "", false},
};
// clang-format on

static int failures;

static void check_row(const struct row *row) {
	struct cordon_tag tag;
	memset(&tag, 0x5a, sizeof(tag));
	bool valid = cordon_tag_from_cgroup_path(row->path, &tag);
	/* A refused path is the unknown sandbox, whatever the row's other columns say. */
	int want_engine = row->valid ? row->engine : CORDON_SANDBOX_UNKNOWN;
	bool want_sandboxed = row->valid ? row->sandboxed : true;
	bool ok = valid == row->valid && (int)tag.engine == want_engine &&
		strcmp(tag.app_id, row->app_id) == 0 && strcmp(tag.instance, row->instance) == 0 &&
		tag.sandboxed == want_sandboxed && cordon_tag_is_unknown(&tag) == !valid;
	if (!ok) {
		fprintf(stderr,
			"%.200s:\n  got  valid=%d engine=%s app_id=\"%.60s\" instance=\"%.60s\" sandboxed=%d\n"
			"  want valid=%d engine=%s app_id=\"%s\" instance=\"%s\" sandboxed=%d\n",
			row->path, valid, cordon_sandbox_engine_name(tag.engine), tag.app_id,
			tag.instance, tag.sandboxed, row->valid,
			cordon_sandbox_engine_name((enum cordon_sandbox_engine)want_engine),
			row->app_id, row->instance, want_sandboxed);
		failures++;
	}
}

/* A 255-character app id is the most a tag holds; 256 does not fit a unit name anyway. */
static void check_lengths(void) {
	char path[1024], id[300];
	memset(id, 'a', 240);
	id[240] = '\0';
	snprintf(path, sizeof(path), "/app-flatpak-%s-1.scope", id);
	struct cordon_tag tag;
	if (cordon_tag_from_cgroup_path(path, &tag)) {
		fprintf(stderr, "a 261-character unit name was accepted\n");
		failures++;
	}
	id[230] = '\0';
	snprintf(path, sizeof(path), "/app-flatpak-%s-1.scope", id);
	if (!cordon_tag_from_cgroup_path(path, &tag) || strcmp(tag.app_id, id) != 0 ||
		!tag.sandboxed) {
		fprintf(stderr, "a 251-character unit name was refused\n");
		failures++;
	}
	if (cordon_tag_from_cgroup_path(NULL, &tag) || !cordon_tag_is_unknown(&tag)) {
		fprintf(stderr, "NULL was accepted\n");
		failures++;
	}
}

/* A small deterministic generator, so that a failure reproduces. */
static uint32_t next_random(uint32_t *state) {
	*state = *state * 1103515245u + 12345u;
	return *state >> 8;
}

/*
 * Whatever a sandboxed app creates below its own scope (here: random text from a hostile
 * alphabet with '/', '\\', escapes, control characters and non-ASCII bytes) never changes its
 * tag. Random paths elsewhere must give a consistent tag (sandboxed exactly for the sandbox
 * engines, the unknown sandbox when refused); under ASan this also runs the parser over 20000
 * hostile inputs.
 */
static void check_nesting(void) {
	static const char alphabet[] = "ab.-_@\\x2d/.scope.service\x01\x7f\xc3 app-flatpak-snap.";
	uint32_t state = 42;
	char path[8192];
	size_t n = sizeof(rows) / sizeof(rows[0]);
	for (size_t i = 0; i < n; i++) {
		if (!rows[i].sandboxed || strlen(rows[i].path) > 2048) {
			continue;
		}
		for (int round = 0; round < 200; round++) {
			size_t len = (size_t)snprintf(path, sizeof(path), "%s/", rows[i].path);
			size_t extra = next_random(&state) % 600;
			for (size_t k = 0; k < extra && len < sizeof(path) - 1; k++) {
				path[len++] =
					alphabet[next_random(&state) % (sizeof(alphabet) - 1)];
			}
			path[len] = '\0';
			struct cordon_tag tag;
			bool valid = cordon_tag_from_cgroup_path(path, &tag);
			if (!valid || (int)tag.engine != rows[i].engine || !tag.sandboxed ||
				strcmp(tag.app_id, rows[i].app_id) != 0 ||
				strcmp(tag.instance, rows[i].instance) != 0) {
				fprintf(stderr, "nested below %s, \"%s\" changed the tag\n",
					rows[i].path, path + strlen(rows[i].path));
				failures++;
				break;
			}
		}
	}
	for (int round = 0; round < 20000; round++) {
		size_t len = 0;
		path[len++] = '/';
		size_t extra = next_random(&state) % 300;
		for (size_t k = 0; k < extra; k++) {
			path[len++] = alphabet[next_random(&state) % (sizeof(alphabet) - 1)];
		}
		path[len] = '\0';
		struct cordon_tag tag;
		bool valid = cordon_tag_from_cgroup_path(path, &tag);
		bool sandbox_engine = tag.engine == CORDON_SANDBOX_CORDON ||
			tag.engine == CORDON_SANDBOX_FLATPAK || tag.engine == CORDON_SANDBOX_SNAP ||
			tag.engine == CORDON_SANDBOX_UNKNOWN;
		if (tag.sandboxed != sandbox_engine || cordon_tag_is_unknown(&tag) != !valid ||
			strlen(tag.app_id) >= sizeof(tag.app_id)) {
			fprintf(stderr, "inconsistent tag for \"%s\"\n", path);
			failures++;
			break;
		}
	}
}

/* The launcher part of systemd app units, which the policy may mark as a sandbox. */
static void check_launchers(void) {
	static const struct {
		const char *path;
		const char *launcher;
	} cases[] = {
		{APPS "/app-gnome-org.gnome.Terminal-2345.scope", "gnome"},
		{APPS "/app-myjail-org.example.App@x1.service", "myjail"},
		{APPS "/app-org.kde.konsole@12ab.service", ""},
		{APPS "/app-org.foo.scope", ""},
		/* The innermost app unit names the launcher, as it names the app. */
		{APPS "/app-gnome-org.a-1.scope/app-kde-org.b-2.scope", "kde"},
		/* Not a systemd app: no launcher, whatever the names say. */
		{APPS "/app-flatpak-org.foo-1.scope", ""},
		{APPS "/app-cordon-org.foo-1.scope", ""},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cordon_tag tag;
		cordon_tag_from_cgroup_path(cases[i].path, &tag);
		if (strcmp(tag.launcher, cases[i].launcher) != 0) {
			fprintf(stderr, "%s: launcher \"%s\", want \"%s\"\n", cases[i].path,
				tag.launcher, cases[i].launcher);
			failures++;
		}
	}
}

int main(void) {
	size_t n = sizeof(rows) / sizeof(rows[0]);
	for (size_t i = 0; i < n; i++) {
		check_row(&rows[i]);
	}
	check_lengths();
	check_nesting();
	check_launchers();
	if (failures > 0) {
		fprintf(stderr, "%d of %zu checks failed\n", failures, n + 4);
		return 1;
	}
	printf("%zu paths tagged as expected\n", n);
	return 0;
}
