/*
 * Sandbox tags from cgroup v2 paths. The rules and the table of unit names are in
 * docs/sandbox-identity.md; in short, the outermost sandboxed unit of the path wins (a sandboxed
 * app may be able to create cgroups below its own scope, never above it), and otherwise the
 * innermost systemd unit says which host app this is.
 */
#include <stdio.h>
#include <string.h>

#include "common/app_id.h"
#include "sandbox/cgroup_tag.h"

/* systemd's UNIT_NAME_MAX less the NUL; also the cgroupfs limit for one name. */
#define COMPONENT_MAX 255

enum unit_kind {
	UNIT_NONE, /* not a .scope or .service */
	UNIT_OTHER, /* a unit that names no app (session-2.scope, user@1000.service) */
	UNIT_HOST_APP,
	UNIT_SANDBOX,
	UNIT_MALFORMED,
};

struct span {
	const char *s;
	size_t len;
};

const struct cordon_tag cordon_tag_unknown = {
	.engine = CORDON_SANDBOX_UNKNOWN,
	.sandboxed = true,
};

bool cordon_tag_is_unknown(const struct cordon_tag *tag) {
	return !tag || tag->engine == CORDON_SANDBOX_UNKNOWN;
}

static void set_host(struct cordon_tag *tag) {
	memset(tag, 0, sizeof(*tag));
	tag->engine = CORDON_SANDBOX_HOST;
}

/* A path that does not parse names no one cordon can vouch for: fail closed. */
static bool refuse(struct cordon_tag *tag) {
	*tag = cordon_tag_unknown;
	return false;
}

static bool is_alnum(char c) {
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static bool is_digits(struct span sp) {
	if (sp.len == 0) {
		return false;
	}
	for (size_t i = 0; i < sp.len; i++) {
		if (sp.s[i] < '0' || sp.s[i] > '9') {
			return false;
		}
	}
	return true;
}

static int hex_value(char c) {
	if (c >= '0' && c <= '9') {
		return c - '0';
	}
	if (c >= 'a' && c <= 'f') {
		return c - 'a' + 10;
	}
	if (c >= 'A' && c <= 'F') {
		return c - 'A' + 10;
	}
	return -1;
}

/*
 * Decodes systemd's \xNN escapes. Anything else after a backslash, a decoded byte that is not
 * printable ASCII (NUL, control characters, bytes of multi-byte UTF-8) or an output that does
 * not fit makes the name malformed.
 */
static bool decode(struct span sp, char *out, size_t out_size) {
	size_t n = 0;
	for (size_t i = 0; i < sp.len; i++) {
		int c = (unsigned char)sp.s[i];
		if (c == '\\') {
			if (i + 3 >= sp.len || sp.s[i + 1] != 'x') {
				return false;
			}
			int hi = hex_value(sp.s[i + 2]);
			int lo = hex_value(sp.s[i + 3]);
			if (hi < 0 || lo < 0) {
				return false;
			}
			c = hi * 16 + lo;
			i += 3;
		}
		if (c < 0x21 || c > 0x7e) {
			return false;
		}
		if (n + 1 >= out_size) {
			return false;
		}
		out[n++] = (char)c;
	}
	out[n] = '\0';
	return true;
}

static bool valid_instance(const char *inst) {
	size_t len = strlen(inst);
	if (len == 0 || len > CORDON_TAG_INSTANCE_MAX - 1) {
		return false;
	}
	for (size_t i = 0; i < len; i++) {
		if (!is_alnum(inst[i]) && inst[i] != '-' && inst[i] != '_') {
			return false;
		}
	}
	return true;
}

/* A path component cgroupfs could hold and systemd could have named: no ".", "..", controls. */
static bool valid_component(struct span sp) {
	char scratch[COMPONENT_MAX + 1];
	if (sp.len == 0 || sp.len > COMPONENT_MAX) {
		return false;
	}
	if ((sp.len == 1 && sp.s[0] == '.') || (sp.len == 2 && sp.s[0] == '.' && sp.s[1] == '.')) {
		return false;
	}
	return decode(sp, scratch, sizeof(scratch));
}

static bool has_prefix(struct span sp, const char *prefix) {
	size_t n = strlen(prefix);
	return sp.len >= n && memcmp(sp.s, prefix, n) == 0;
}

static bool strip_suffix(struct span *sp, const char *suffix) {
	size_t n = strlen(suffix);
	if (sp->len <= n || memcmp(sp->s + sp->len - n, suffix, n) != 0) {
		return false;
	}
	sp->len -= n;
	return true;
}

static const char *span_rchr(struct span sp, char c) {
	for (size_t i = sp.len; i > 0; i--) {
		if (sp.s[i - 1] == c) {
			return sp.s + i - 1;
		}
	}
	return NULL;
}

static const char *span_chr(struct span sp, char c) {
	return memchr(sp.s, c, sp.len);
}

/* Splits "<left><c><right>" at the last c; both sides must be non-empty. */
static bool split_last(struct span sp, char c, struct span *left, struct span *right) {
	const char *at = span_rchr(sp, c);
	if (at == NULL) {
		return false;
	}
	left->s = sp.s;
	left->len = (size_t)(at - sp.s);
	right->s = at + 1;
	right->len = sp.len - left->len - 1;
	return left->len > 0 && right->len > 0;
}

static bool set_ids(struct cordon_tag *tag, struct span app, struct span inst) {
	if (!decode(app, tag->app_id, sizeof(tag->app_id)) || !cordon_app_id_valid(tag->app_id)) {
		return false;
	}
	if (inst.len == 0) {
		tag->instance[0] = '\0';
		return true;
	}
	return decode(inst, tag->instance, sizeof(tag->instance)) && valid_instance(tag->instance);
}

/* app-cordon-<app_id>-<instance>.scope and app-flatpak-<app_id>-<n>.scope. */
static enum unit_kind classify_app_scope(
	struct span rest, enum cordon_sandbox_engine engine, struct cordon_tag *tag) {
	struct span app, inst;
	if (!split_last(rest, '-', &app, &inst)) {
		return UNIT_MALFORMED;
	}
	if (engine == CORDON_SANDBOX_FLATPAK && !is_digits(inst)) {
		return UNIT_MALFORMED;
	}
	tag->engine = engine;
	tag->sandboxed = true;
	return set_ids(tag, app, inst) ? UNIT_SANDBOX : UNIT_MALFORMED;
}

static bool is_uuid(struct span sp) {
	static const char shape[] = "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx";
	if (sp.len != sizeof(shape) - 1) {
		return false;
	}
	for (size_t i = 0; i < sp.len; i++) {
		bool ok = shape[i] == '-' ? sp.s[i] == '-' : hex_value(sp.s[i]) >= 0;
		if (!ok) {
			return false;
		}
	}
	return true;
}

/*
 * snapd's names: the snap ([a-z0-9-], at most 40, optionally "_<key>" for a parallel install
 * with a key of at most 10 [a-z0-9]) and the app or hook ([A-Za-z0-9-], hooks as "hook.<name>").
 */
static bool valid_snap_name(struct span sp) {
	const char *underscore = span_chr(sp, '_');
	size_t name_len = underscore != NULL ? (size_t)(underscore - sp.s) : sp.len;
	if (name_len == 0 || name_len > 40 || sp.s[0] == '-' || sp.s[name_len - 1] == '-') {
		return false;
	}
	for (size_t i = 0; i < name_len; i++) {
		char c = sp.s[i];
		bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
		if (!ok || (c == '-' && sp.s[i + 1] == '-')) {
			return false;
		}
	}
	if (underscore == NULL) {
		return true;
	}
	size_t key_len = sp.len - name_len - 1;
	if (key_len == 0 || key_len > 10) {
		return false;
	}
	for (size_t i = name_len + 1; i < sp.len; i++) {
		char c = sp.s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) {
			return false;
		}
	}
	return true;
}

static bool valid_snap_app(struct span sp) {
	if (sp.len == 0 || sp.s[0] == '-' || sp.s[0] == '.' || sp.s[sp.len - 1] == '-') {
		return false;
	}
	for (size_t i = 0; i < sp.len; i++) {
		if (!is_alnum(sp.s[i]) && sp.s[i] != '-' && sp.s[i] != '.') {
			return false;
		}
	}
	return true;
}

/* snap.<snap>.<app>-<uuid>.scope and snap.<snap>.<app>.service; app id "<snap>.<app>". */
static enum unit_kind classify_snap(struct span stem, bool scope, struct cordon_tag *tag) {
	struct span rest = {stem.s + 5, stem.len - 5};
	struct span security_tag = rest, uuid = {"", 0};
	if (scope) {
		/* A uuid has dashes of its own: it is the last 36 characters, after a dash. */
		if (rest.len < 38 || rest.s[rest.len - 37] != '-') {
			return UNIT_MALFORMED;
		}
		uuid.s = rest.s + rest.len - 36;
		uuid.len = 36;
		security_tag.len = rest.len - 37;
		if (!is_uuid(uuid)) {
			return UNIT_MALFORMED;
		}
	}
	const char *dot = span_chr(security_tag, '.');
	if (dot == NULL) {
		return UNIT_MALFORMED;
	}
	struct span name = {security_tag.s, (size_t)(dot - security_tag.s)};
	struct span app = {dot + 1, security_tag.len - name.len - 1};
	if (!valid_snap_name(name) || !valid_snap_app(app)) {
		return UNIT_MALFORMED;
	}
	tag->engine = CORDON_SANDBOX_SNAP;
	tag->sandboxed = true;
	return set_ids(tag, security_tag, uuid) ? UNIT_SANDBOX : UNIT_MALFORMED;
}

static bool is_alnum_span(struct span sp) {
	if (sp.len == 0) {
		return false;
	}
	for (size_t i = 0; i < sp.len; i++) {
		if (!is_alnum(sp.s[i])) {
			return false;
		}
	}
	return true;
}

/*
 * The systemd desktop convention: app[-<launcher>]-<app_id>[@<random>].service and
 * app[-<launcher>]-<app_id>[@<random>|-<random>].scope, the app id with '-' escaped as \x2d.
 * A host app: the launcher decides nothing here (the config may later mark it sandboxed).
 */
static enum unit_kind classify_systemd_app(struct span stem, bool scope, struct cordon_tag *tag) {
	struct span rest = {stem.s + 4, stem.len - 4};
	struct span main_part = rest, random = {"", 0};
	if (span_chr(rest, '@') != NULL) {
		if (!split_last(rest, '@', &main_part, &random)) {
			return UNIT_MALFORMED;
		}
	} else if (scope && span_chr(rest, '-') != NULL) {
		struct span left, right;
		const char *dash = span_rchr(rest, '-');
		left.s = rest.s;
		left.len = (size_t)(dash - rest.s);
		right.s = dash + 1;
		right.len = rest.len - left.len - 1;
		if (left.len == 0 || right.len == 0) {
			return UNIT_MALFORMED;
		}
		/* Randoms are pids or hex; "org.foo" after the last dash is the app id itself. */
		if (is_alnum_span(right)) {
			main_part = left;
			random = right;
		}
	}
	struct span launcher = {"", 0}, app = main_part;
	const char *dash = span_chr(main_part, '-');
	if (dash != NULL) {
		launcher.s = main_part.s;
		launcher.len = (size_t)(dash - main_part.s);
		app.s = dash + 1;
		app.len = main_part.len - launcher.len - 1;
		if (launcher.len == 0 || app.len == 0 || !is_alnum_span(launcher)) {
			return UNIT_MALFORMED;
		}
	}
	if (app.len == 0) {
		return UNIT_MALFORMED;
	}
	tag->engine = CORDON_SANDBOX_SYSTEMD_APP;
	tag->sandboxed = false;
	/* Letters and digits only (checked above), so it is copied as it is. */
	memcpy(tag->launcher, launcher.s, launcher.len);
	tag->launcher[launcher.len] = '\0';
	return set_ids(tag, app, random) ? UNIT_HOST_APP : UNIT_MALFORMED;
}

static enum unit_kind classify_unit(struct span comp, struct cordon_tag *tag) {
	struct span stem = comp;
	bool scope = strip_suffix(&stem, ".scope");
	if (!scope && !strip_suffix(&stem, ".service")) {
		return UNIT_NONE;
	}
	set_host(tag);
	if (scope && has_prefix(stem, "app-cordon-")) {
		struct span rest = {stem.s + 11, stem.len - 11};
		return classify_app_scope(rest, CORDON_SANDBOX_CORDON, tag);
	}
	if (scope && has_prefix(stem, "app-flatpak-")) {
		struct span rest = {stem.s + 12, stem.len - 12};
		return classify_app_scope(rest, CORDON_SANDBOX_FLATPAK, tag);
	}
	if (has_prefix(stem, "snap.")) {
		return classify_snap(stem, scope, tag);
	}
	if (has_prefix(stem, "app-")) {
		return classify_systemd_app(stem, scope, tag);
	}
	return UNIT_OTHER;
}

bool cordon_tag_from_cgroup_path(const char *path, struct cordon_tag *tag) {
	set_host(tag);
	if (path == NULL || path[0] != '/') {
		return refuse(tag);
	}
	if (path[1] == '\0') {
		return true;
	}
	struct cordon_tag innermost_app;
	bool have_app = false;
	const char *p = path + 1;
	for (;;) {
		const char *slash = strchr(p, '/');
		struct span comp = {p, slash != NULL ? (size_t)(slash - p) : strlen(p)};
		if (!valid_component(comp)) {
			return refuse(tag);
		}
		struct cordon_tag unit;
		switch (classify_unit(comp, &unit)) {
		case UNIT_SANDBOX:
			/* Outermost wins: what lies below may be the app's own doing. */
			*tag = unit;
			return true;
		case UNIT_HOST_APP:
			innermost_app = unit;
			have_app = true;
			break;
		case UNIT_OTHER:
			have_app = false;
			break;
		case UNIT_MALFORMED:
			return refuse(tag);
		case UNIT_NONE:
			break;
		}
		if (slash == NULL) {
			break;
		}
		p = slash + 1;
	}
	if (have_app) {
		*tag = innermost_app;
	}
	return true;
}

const char *cordon_sandbox_engine_name(enum cordon_sandbox_engine engine) {
	switch (engine) {
	case CORDON_SANDBOX_UNKNOWN:
		return "unknown";
	case CORDON_SANDBOX_HOST:
		return "host";
	case CORDON_SANDBOX_CORDON:
		return "cordon";
	case CORDON_SANDBOX_FLATPAK:
		return "flatpak";
	case CORDON_SANDBOX_SNAP:
		return "snap";
	case CORDON_SANDBOX_SYSTEMD_APP:
		return "systemd-app";
	case CORDON_SANDBOX_OTHER:
		return "other";
	}
	return "unknown";
}

bool cordon_tag_same_sandbox(const struct cordon_tag *a, const struct cordon_tag *b) {
	if (cordon_tag_is_unknown(a) || cordon_tag_is_unknown(b)) {
		return false;
	}
	return a->engine == b->engine && a->sandboxed == b->sandboxed &&
		strcmp(a->app_id, b->app_id) == 0 && strcmp(a->instance, b->instance) == 0 &&
		(a->engine != CORDON_SANDBOX_OTHER || strcmp(a->engine_name, b->engine_name) == 0);
}

const char *cordon_tag_engine_name(const struct cordon_tag *tag) {
	if (cordon_tag_is_unknown(tag)) {
		return "unknown";
	}
	if (tag->engine != CORDON_SANDBOX_OTHER) {
		return cordon_sandbox_engine_name(tag->engine);
	}
	return tag->engine_name[0] ? tag->engine_name : "unknown";
}
