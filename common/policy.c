#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/app_id.h"
#include "common/format.h"
#include "common/ini.h"
#include "common/policy.h"
#include "common/xdg.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

enum policy_type {
	POLICY_BOOL,
	POLICY_UINT,
	POLICY_DURATION, /* milliseconds */
	POLICY_SIZE, /* bytes */
	POLICY_WORD, /* one word, from words when given */
	POLICY_LIST, /* comma-separated words, from words when given; may be empty */
	POLICY_BUS_NAMES, /* comma-separated D-Bus well-known names, each may end in ".*" */
	POLICY_COLOR, /* #RRGGBB */
};

struct policy_key {
	const char *name;
	enum policy_type type;
	const char *const *words; /* NULL-terminated; NULL: any word without spaces or commas */
	bool app_only; /* meaningless in a profile */
};

static const char *const share_words[] = {"network", NULL};
static const char *const device_words[] = {"dri", "video", NULL};
static const char *const allow_words[] = {"devel", NULL};
/*
 * The privileged globals a sandboxed app may be granted, each in the filter's host-only table
 * (compositor/global_filter.c; tests/unit/test_global_tables.c checks it).
 * tests/integration/policy-globals.sh checks that each name is a global cordon really offers,
 * so a typo here cannot hide.
 */
static const char *const global_words[] = {
	"zwlr_screencopy_manager_v1",
	"zwlr_export_dmabuf_manager_v1",
	/* Screen and window capture need all three; the window's handle comes from the list. */
	"ext_image_copy_capture_manager_v1",
	"ext_output_image_capture_source_manager_v1",
	"ext_foreign_toplevel_image_capture_source_manager_v1",
	"ext_foreign_toplevel_list_v1",
	"zwlr_data_control_manager_v1",
	"ext_data_control_manager_v1",
	"zwp_virtual_keyboard_manager_v1",
	"zwlr_virtual_pointer_manager_v1",
	"zwlr_layer_shell_v1",
	"zwlr_foreign_toplevel_manager_v1",
	"zwlr_gamma_control_manager_v1",
	"zwlr_output_manager_v1",
	/* Tells the app when the user is away from the machine. */
	"ext_idle_notifier_v1",
	/* Takes every key while it has the keyboard, cordon's bindings too (a VM's viewer). */
	"zwp_keyboard_shortcuts_inhibit_manager_v1",
	/* Locks the session: all input and the whole screen for the locker. */
	"ext_session_lock_manager_v1",
	"wp_security_context_manager_v1",
	/* Parents the app's surfaces to another client's exported window. */
	"zxdg_importer_v2",
	NULL,
};
static const char *const portal_words[] = {"file-chooser", "camera", "print", NULL};
/*
 * The control socket's read-only commands (those marked read_only in compositor/ipc/commands.c):
 * the only ones a sandboxed peer may be given. Anything else is a load error.
 */
static const char *const control_words[] = {
	"outputs",
	"windows",
	"clients",
	"transfers",
	"selection",
	"portal-requests",
	"camera-streams",
	"apps",
	"x11-servers",
	NULL,
};

/*
 * Every key a policy file may set, grouped by the module that reads it. Each
 * module's documentation (docs/policy.md links them) says what its keys mean.
 */
static const struct policy_key policy_keys[] = {
	/* The profile an [app] uses. */
	{"profile", POLICY_WORD, NULL, true},

	/* cordon-run (docs/sandbox.md): what the sandbox shares with the host. */
	{"share", POLICY_LIST, share_words, false},
	{"devices", POLICY_LIST, device_words, false},
	{"allow", POLICY_LIST, allow_words, false},

	/* cordon's global filter (docs/sandbox-identity.md): privileged globals granted. */
	{"globals", POLICY_LIST, global_words, false},
	/* cordon's client identity: host apps (systemd app units) that count as sandboxed. */
	{"sandboxed", POLICY_BOOL, NULL, false},
	{"sandboxed-launchers", POLICY_LIST, NULL, false},
	/* The portal host (docs/portals.md): the portals an app may use; unset: all. */
	{"portals", POLICY_LIST, portal_words, false},
	/* The camera portal: the providers (file names without .provider) offered; unset: all. */
	{"camera-providers", POLICY_LIST, NULL, false},
	/* cordon (docs/mediation.md): the clipboard and drags across the app's boundary. */
	{"clipboard-types", POLICY_LIST, NULL, false},
	{"clipboard-size-limit", POLICY_SIZE, NULL, false},
	{"clipboard-primary", POLICY_BOOL, NULL, false},
	{"clipboard-explicit", POLICY_BOOL, NULL, false},
	{"clipboard-files", POLICY_BOOL, NULL, false},
	/* cordon's control socket (docs/ipc.md): read-only commands a sandboxed peer may run. */
	{"control-commands", POLICY_LIST, control_words, false},
	/* cordon (docs/freeze.md): freezing hidden apps, boosting the focused one. */
	{"freeze", POLICY_BOOL, NULL, false},
	{"freeze-delay", POLICY_DURATION, NULL, false},
	{"boost-weight", POLICY_UINT, NULL, false},
	/*
	 * cordon-run's session bus proxy (docs/sandbox.md): names the app may talk to, own or
	 * see beyond the portal frontend and its own id; the system bus is absent unless
	 * dbus-system-talk names something; the accessibility bus on unless false.
	 */
	{"dbus-talk", POLICY_BUS_NAMES, NULL, false},
	{"dbus-own", POLICY_BUS_NAMES, NULL, false},
	{"dbus-see", POLICY_BUS_NAMES, NULL, false},
	{"dbus-system-talk", POLICY_BUS_NAMES, NULL, false},
	{"dbus-a11y", POLICY_BOOL, NULL, false},
	/* cordon-run (docs/x11.md): an X display of the sandbox's own, as --x11. */
	{"x11", POLICY_BOOL, NULL, false},
	/* cordon's window labels (docs/policy.md): the colour of the app's frame and strip. */
	{"label-color", POLICY_COLOR, NULL, false},
};

/*
 * The profiles every installation has. A [profile NAME] section in the file
 * with one of these names changes only the keys it sets.
 */
static const char builtin_profiles[] = "[profile default]\n"
				       "share =\n"
				       "devices =\n"
				       "allow =\n"
				       "[profile network-client]\n"
				       "share = network\n"
				       "[profile game]\n"
				       "share = network\n"
				       "devices = dri\n"
				       "[profile devel]\n"
				       "share = network\n"
				       "allow = devel\n";

#define BUILTIN_NAME "(built-in profiles)"
#define DEFAULT_PROFILE "default"

struct policy_entry {
	const struct policy_key *key;
	char *value;
	int line; /* 0 for the built-in profiles */
};

enum section_kind {
	SECTION_PROFILE,
	SECTION_APP,
};

struct policy_section {
	enum section_kind kind;
	char *name;
	struct policy_entry *entries;
	size_t entry_count;
};

struct cordon_policy {
	struct policy_section *sections;
	size_t section_count;
};

struct policy_parser {
	struct cordon_policy *policy;
	struct policy_section *section; /* the one being read */
	bool builtin;
};

static bool fail(char **reason, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static bool fail(char **reason, const char *fmt, ...) {
	va_list args;
	va_start(args, fmt);
	*reason = cordon_vformat(fmt, args);
	va_end(args);
	return false;
}

static const struct policy_key *find_key(const char *name) {
	for (size_t i = 0; i < ARRAY_LEN(policy_keys); i++) {
		if (strcmp(policy_keys[i].name, name) == 0) {
			return &policy_keys[i];
		}
	}
	return NULL;
}

const char *const *cordon_policy_key_words(const char *name) {
	const struct policy_key *key = find_key(name);
	return key ? key->words : NULL;
}

static struct policy_section *find_section(
	const struct cordon_policy *policy, enum section_kind kind, const char *name) {
	for (size_t i = 0; i < policy->section_count; i++) {
		struct policy_section *section = &policy->sections[i];
		if (section->kind == kind && strcmp(section->name, name) == 0) {
			return section;
		}
	}
	return NULL;
}

static struct policy_entry *find_entry(
	const struct policy_section *section, const struct policy_key *key) {
	for (size_t i = 0; i < section->entry_count; i++) {
		if (section->entries[i].key == key) {
			return &section->entries[i];
		}
	}
	return NULL;
}

static bool is_word(const char *s, size_t len) {
	if (len == 0) {
		return false;
	}
	for (size_t i = 0; i < len; i++) {
		if (isspace((unsigned char)s[i]) || s[i] == ',') {
			return false;
		}
	}
	return true;
}

static bool word_allowed(const char *const *words, const char *word, size_t len) {
	if (words == NULL) {
		return true;
	}
	for (size_t i = 0; words[i] != NULL; i++) {
		if (strlen(words[i]) == len && strncmp(words[i], word, len) == 0) {
			return true;
		}
	}
	return false;
}

/* "a, b, c": calls fn for each trimmed word; false if fn refuses one or a word is empty. */
static bool for_each_word(
	const char *list, bool (*fn)(const char *word, size_t len, void *data), void *data) {
	const char *p = list;
	while (isspace((unsigned char)*p)) {
		p++;
	}
	if (*p == '\0') {
		return true;
	}
	while (true) {
		const char *comma = strchr(p, ',');
		const char *end = comma != NULL ? comma : p + strlen(p);
		const char *start = p;
		while (start < end && isspace((unsigned char)*start)) {
			start++;
		}
		const char *stop = end;
		while (stop > start && isspace((unsigned char)stop[-1])) {
			stop--;
		}
		if (!fn(start, (size_t)(stop - start), data)) {
			return false;
		}
		if (comma == NULL) {
			return true;
		}
		p = comma + 1;
	}
}

struct word_check {
	const struct policy_key *key;
	char **reason;
};

static bool check_list_word(const char *word, size_t len, void *data) {
	struct word_check *check = data;
	if (!is_word(word, len)) {
		return fail(check->reason, "'%s' needs a comma-separated list of words",
			check->key->name);
	}
	if (!word_allowed(check->key->words, word, len)) {
		return fail(check->reason, "'%.*s' is not a value of '%s'", (int)len, word,
			check->key->name);
	}
	return true;
}

/*
 * A D-Bus well-known name as the bus daemon accepts it (two or more elements of letters,
 * digits, '_' and '-', none starting with a digit, at most 255 bytes), optionally ending in
 * ".*" (that name and every name below it, xdg-dbus-proxy's wildcard). A unique name
 * (":1.42") names one connection of the moment, never a service: refused. Checked here so
 * that a typo is an error with its line, not a name the proxy silently never matches.
 */
static const char *bus_name_problem(const char *name, size_t len) {
	if (len >= 2 && name[len - 2] == '.' && name[len - 1] == '*') {
		len -= 2;
	}
	if (len == 0) {
		return "is empty";
	}
	if (name[0] == ':') {
		return "is a unique connection name, not a service name";
	}
	if (len > 255) {
		return "is longer than 255 bytes";
	}
	size_t elements = 1, element_len = 0;
	for (size_t i = 0; i < len; i++) {
		char c = name[i];
		if (c == '.') {
			if (element_len == 0) {
				return "has an empty element";
			}
			elements++;
			element_len = 0;
			continue;
		}
		bool digit = c >= '0' && c <= '9';
		if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || digit || c == '_' ||
			    c == '-')) {
			return "may only hold letters, digits, '_', '-' and '.' (and end in .*)";
		}
		if (digit && element_len == 0) {
			return "has an element starting with a digit";
		}
		element_len++;
	}
	if (element_len == 0) {
		return "has an empty element";
	}
	if (elements < 2) {
		return "needs at least two elements (org.example.Name)";
	}
	return NULL;
}

static bool check_bus_name(const char *word, size_t len, void *data) {
	struct word_check *check = data;
	const char *problem = is_word(word, len) ? bus_name_problem(word, len)
						 : "needs a comma-separated list of names";
	if (problem != NULL) {
		return fail(check->reason, "'%.*s' in '%s' %s", (int)(len > 255 ? 255 : len), word,
			check->key->name, problem);
	}
	return true;
}

static bool parse_bool(const char *text, bool *value) {
	static const char *const yes[] = {"true", "yes", "on", "1"};
	static const char *const no[] = {"false", "no", "off", "0"};
	for (size_t i = 0; i < ARRAY_LEN(yes); i++) {
		if (strcasecmp(text, yes[i]) == 0) {
			*value = true;
			return true;
		}
		if (strcasecmp(text, no[i]) == 0) {
			*value = false;
			return true;
		}
	}
	return false;
}

/* A decimal number followed by an optional unit from units (multipliers alongside). */
static bool parse_scaled(const char *text, const char *const *units, const uint64_t *scales,
	size_t unit_count, uint64_t bare_scale, uint64_t *value) {
	if (!isdigit((unsigned char)text[0])) {
		return false;
	}
	errno = 0;
	char *end;
	unsigned long long number = strtoull(text, &end, 10);
	if (errno == ERANGE) {
		return false;
	}
	while (isspace((unsigned char)*end)) {
		end++;
	}
	uint64_t scale = bare_scale;
	if (*end != '\0') {
		size_t i = 0;
		while (i < unit_count && strcasecmp(end, units[i]) != 0) {
			i++;
		}
		if (i == unit_count) {
			return false;
		}
		scale = scales[i];
	}
	if (scale != 0 && number > UINT64_MAX / scale) {
		return false;
	}
	*value = (uint64_t)number * scale;
	return true;
}

static bool parse_uint(const char *text, uint64_t *value) {
	return parse_scaled(text, NULL, NULL, 0, 1, value);
}

static bool parse_duration_ms(const char *text, uint64_t *value) {
	static const char *const units[] = {"ms", "s", "min"};
	static const uint64_t scales[] = {1, 1000, 60 * 1000};
	return parse_scaled(text, units, scales, ARRAY_LEN(units), 1000, value);
}

static bool parse_size(const char *text, uint64_t *value) {
	static const char *const units[] = {"K", "KiB", "M", "MiB", "G", "GiB"};
	static const uint64_t scales[] = {
		1ULL << 10, 1ULL << 10, 1ULL << 20, 1ULL << 20, 1ULL << 30, 1ULL << 30};
	return parse_scaled(text, units, scales, ARRAY_LEN(units), 1, value);
}

static bool check_value(const struct policy_key *key, const char *value, char **reason) {
	bool b;
	uint64_t n;
	switch (key->type) {
	case POLICY_BOOL:
		return parse_bool(value, &b) ||
			fail(reason, "'%s' must be true or false, not '%s'", key->name, value);
	case POLICY_UINT:
		return parse_uint(value, &n) ||
			fail(reason, "'%s' must be a whole number, not '%s'", key->name, value);
	case POLICY_DURATION:
		return parse_duration_ms(value, &n) ||
			fail(reason, "'%s' must be a duration such as 500ms, 10s or 2min, not '%s'",
				key->name, value);
	case POLICY_SIZE:
		return parse_size(value, &n) ||
			fail(reason, "'%s' must be a size such as 4096, 64K, 64M or 1G, not '%s'",
				key->name, value);
	case POLICY_WORD:
		if (!is_word(value, strlen(value))) {
			return fail(reason, "'%s' needs one word, not '%s'", key->name, value);
		}
		return word_allowed(key->words, value, strlen(value)) ||
			fail(reason, "'%s' is not a value of '%s'", value, key->name);
	case POLICY_LIST: {
		struct word_check check = {key, reason};
		return for_each_word(value, check_list_word, &check);
	}
	case POLICY_BUS_NAMES: {
		struct word_check check = {key, reason};
		return for_each_word(value, check_bus_name, &check);
	}
	case POLICY_COLOR: {
		uint32_t rgb;
		return cordon_policy_parse_color(value, &rgb) ||
			fail(reason, "'%s' must be a colour such as #3584e4, not '%s'", key->name,
				value);
	}
	}
	return fail(reason, "'%s' has no type", key->name);
}

static bool open_section(struct policy_parser *parser, const char *header, char **reason) {
	const char *space = strchr(header, ' ');
	if (space == NULL) {
		return fail(reason,
			"unknown section [%s] (expected [profile NAME] or [app APP_ID])", header);
	}
	size_t kind_len = (size_t)(space - header);
	enum section_kind kind;
	if (kind_len == strlen("profile") && strncmp(header, "profile", kind_len) == 0) {
		kind = SECTION_PROFILE;
	} else if (kind_len == strlen("app") && strncmp(header, "app", kind_len) == 0) {
		kind = SECTION_APP;
	} else {
		return fail(reason,
			"unknown section [%s] (expected [profile NAME] or [app APP_ID])", header);
	}
	const char *name = space;
	while (*name == ' ' || *name == '\t') {
		name++;
	}
	if (!is_word(name, strlen(name))) {
		return fail(reason, "[%s] needs one name without spaces or commas", header);
	}
	/* Tags only carry ids of that rule: a section for any other could never apply. */
	const char *problem = kind == SECTION_APP ? cordon_app_id_problem(name) : NULL;
	if (problem != NULL) {
		return fail(
			reason, "[%s]: the app id %s (docs/sandbox-identity.md)", header, problem);
	}

	struct cordon_policy *policy = parser->policy;
	struct policy_section *section = find_section(policy, kind, name);
	if (section != NULL) {
		parser->section = section;
		return true;
	}
	struct policy_section *sections =
		realloc(policy->sections, (policy->section_count + 1) * sizeof(*sections));
	if (sections == NULL) {
		return fail(reason, "out of memory");
	}
	policy->sections = sections;
	section = &sections[policy->section_count];
	*section = (struct policy_section){.kind = kind, .name = strdup(name)};
	if (section->name == NULL) {
		return fail(reason, "out of memory");
	}
	policy->section_count++;
	parser->section = section;
	return true;
}

static bool set_entry(struct policy_parser *parser, const char *name, const char *value, int line,
	char **reason) {
	struct policy_section *section = parser->section;
	const struct policy_key *key = find_key(name);
	if (key == NULL) {
		return fail(reason, "unknown key '%s' (docs/policy.md lists the keys)", name);
	}
	if (key->app_only && section->kind != SECTION_APP) {
		return fail(reason, "'%s' belongs in an [app APP_ID] section", name);
	}
	if (!check_value(key, value, reason)) {
		return false;
	}

	char *copy = strdup(value);
	if (copy == NULL) {
		return fail(reason, "out of memory");
	}
	struct policy_entry *entry = find_entry(section, key);
	if (entry != NULL) {
		/* The file may change a built-in profile, but says each thing once. */
		if (entry->line != 0 && !parser->builtin) {
			free(copy);
			return fail(reason, "'%s' is already set on line %d", name, entry->line);
		}
		free(entry->value);
		entry->value = copy;
		entry->line = line;
		return true;
	}
	struct policy_entry *entries =
		realloc(section->entries, (section->entry_count + 1) * sizeof(*entries));
	if (entries == NULL) {
		free(copy);
		return fail(reason, "out of memory");
	}
	section->entries = entries;
	entries[section->entry_count++] = (struct policy_entry){key, copy, line};
	return true;
}

static bool handle_ini_line(void *data, const char *section, const char *key, const char *value,
	int line, char **reason) {
	struct policy_parser *parser = data;
	if (key == NULL) {
		return open_section(parser, section, reason);
	}
	return set_entry(parser, key, value, parser->builtin ? 0 : line, reason);
}

/* After the whole file: every profile an app names must exist by then. */
static bool check_profiles(const struct cordon_policy *policy, const char *name, char **error) {
	const struct policy_key *profile_key = find_key("profile");
	for (size_t i = 0; i < policy->section_count; i++) {
		const struct policy_section *section = &policy->sections[i];
		const struct policy_entry *entry = find_entry(section, profile_key);
		if (entry == NULL || cordon_policy_has_profile(policy, entry->value)) {
			continue;
		}
		*error =
			cordon_format("%s:%d: [app %s] uses the profile '%s', which is not defined",
				name, entry->line, section->name, entry->value);
		return false;
	}
	return true;
}

static struct cordon_policy *policy_create(void) {
	struct cordon_policy *policy = calloc(1, sizeof(*policy));
	if (policy == NULL) {
		return NULL;
	}
	struct policy_parser parser = {.policy = policy, .builtin = true};
	char *error = NULL;
	if (!cordon_ini_parse_string(
		    builtin_profiles, BUILTIN_NAME, handle_ini_line, &parser, &error)) {
		/* The built-in text is ours: only memory can run out here. */
		free(error);
		cordon_policy_destroy(policy);
		return NULL;
	}
	return policy;
}

static void set_error(char **error, char *message) {
	if (error != NULL) {
		*error = message != NULL ? message : strdup("out of memory");
	} else {
		free(message);
	}
}

/* Parses text or file (exactly one given) over the built-in profiles. */
static struct cordon_policy *load(FILE *file, const char *text, const char *name, char **error) {
	struct cordon_policy *policy = policy_create();
	if (policy == NULL) {
		set_error(error, NULL);
		return NULL;
	}
	struct policy_parser parser = {.policy = policy};
	char *message = NULL;
	bool ok = file != NULL
		? cordon_ini_parse_file(file, name, handle_ini_line, &parser, &message)
		: cordon_ini_parse_string(text, name, handle_ini_line, &parser, &message);
	if (ok) {
		ok = check_profiles(policy, name, &message);
	}
	if (!ok) {
		set_error(error, message);
		cordon_policy_destroy(policy);
		return NULL;
	}
	return policy;
}

struct cordon_policy *cordon_policy_load_string(const char *text, const char *name, char **error) {
	if (error != NULL) {
		*error = NULL;
	}
	return load(NULL, text, name, error);
}

struct cordon_policy *cordon_policy_load_file(FILE *file, const char *name, char **error) {
	if (error != NULL) {
		*error = NULL;
	}
	return load(file, NULL, name, error);
}

struct cordon_policy *cordon_policy_load(const char *path, char **error) {
	if (error != NULL) {
		*error = NULL;
	}
	char *default_path = NULL;
	if (path == NULL) {
		default_path = cordon_user_config_path("policy.ini");
		if (default_path == NULL) {
			struct cordon_policy *policy = policy_create();
			if (policy == NULL) {
				set_error(error, NULL);
			}
			return policy;
		}
		path = default_path;
	}

	struct cordon_policy *policy = NULL;
	FILE *file = fopen(path, "re");
	if (file != NULL) {
		policy = load(file, NULL, path, error);
		fclose(file);
	} else if (default_path != NULL && errno == ENOENT) {
		/* Without a file, every app gets the built-in default profile. */
		policy = policy_create();
		if (policy == NULL) {
			set_error(error, NULL);
		}
	} else {
		set_error(error, cordon_format("%s: %s", path, strerror(errno)));
	}
	free(default_path);
	return policy;
}

void cordon_policy_destroy(struct cordon_policy *policy) {
	if (policy == NULL) {
		return;
	}
	for (size_t i = 0; i < policy->section_count; i++) {
		struct policy_section *section = &policy->sections[i];
		for (size_t j = 0; j < section->entry_count; j++) {
			free(section->entries[j].value);
		}
		free(section->entries);
		free(section->name);
	}
	free(policy->sections);
	free(policy);
}

bool cordon_policy_has_key(const char *name) {
	return find_key(name) != NULL;
}

bool cordon_policy_has_profile(const struct cordon_policy *policy, const char *profile) {
	return profile != NULL && find_section(policy, SECTION_PROFILE, profile) != NULL;
}

static const char *section_value(const struct cordon_policy *policy, enum section_kind kind,
	const char *name, const struct policy_key *key) {
	if (name == NULL) {
		return NULL;
	}
	const struct policy_section *section = find_section(policy, kind, name);
	if (section == NULL) {
		return NULL;
	}
	const struct policy_entry *entry = find_entry(section, key);
	return entry != NULL ? entry->value : NULL;
}

const char *cordon_policy_app_profile(const struct cordon_policy *policy, const char *app_id) {
	const char *profile = section_value(policy, SECTION_APP, app_id, find_key("profile"));
	return profile != NULL ? profile : DEFAULT_PROFILE;
}

const char *cordon_policy_get(const struct cordon_policy *policy, const char *app_id,
	const char *profile, const char *name) {
	const struct policy_key *key = find_key(name);
	if (key == NULL) {
		/* A caller asking for a key nobody can set is a bug in cordon, not in the file. */
		fprintf(stderr, "cordon: policy key '%s' is not in the key table\n", name);
		abort();
	}
	const char *value = section_value(policy, SECTION_APP, app_id, key);
	if (value != NULL) {
		return value;
	}
	if (profile == NULL) {
		profile = cordon_policy_app_profile(policy, app_id);
	}
	value = section_value(policy, SECTION_PROFILE, profile, key);
	if (value != NULL) {
		return value;
	}
	return section_value(policy, SECTION_PROFILE, DEFAULT_PROFILE, key);
}

bool cordon_policy_get_bool(const struct cordon_policy *policy, const char *app_id,
	const char *profile, const char *key, bool fallback) {
	const char *value = cordon_policy_get(policy, app_id, profile, key);
	bool result;
	return value != NULL && parse_bool(value, &result) ? result : fallback;
}

/* A number-like key read with parse; fallback when nothing sets it. */
static uint64_t get_number(const struct cordon_policy *policy, const char *app_id,
	const char *profile, const char *key, uint64_t fallback,
	bool (*parse)(const char *text, uint64_t *value)) {
	const char *value = cordon_policy_get(policy, app_id, profile, key);
	uint64_t result;
	/* Values were checked at load, so parse cannot fail on them. */
	return value != NULL && parse(value, &result) ? result : fallback;
}

uint64_t cordon_policy_get_uint(const struct cordon_policy *policy, const char *app_id,
	const char *profile, const char *key, uint64_t fallback) {
	return get_number(policy, app_id, profile, key, fallback, parse_uint);
}

uint64_t cordon_policy_get_duration_ms(const struct cordon_policy *policy, const char *app_id,
	const char *profile, const char *key, uint64_t fallback) {
	return get_number(policy, app_id, profile, key, fallback, parse_duration_ms);
}

uint64_t cordon_policy_get_size(const struct cordon_policy *policy, const char *app_id,
	const char *profile, const char *key, uint64_t fallback) {
	return get_number(policy, app_id, profile, key, fallback, parse_size);
}

bool cordon_policy_parse_color(const char *text, uint32_t *rgb) {
	if (text[0] != '#' || strlen(text) != 7) {
		return false;
	}
	uint32_t value = 0;
	for (int i = 1; i < 7; i++) {
		char c = text[i];
		int digit = c >= '0' && c <= '9' ? c - '0'
			: c >= 'a' && c <= 'f'   ? c - 'a' + 10
			: c >= 'A' && c <= 'F'   ? c - 'A' + 10
						 : -1;
		if (digit < 0) {
			return false;
		}
		value = value << 4 | (uint32_t)digit;
	}
	*rgb = value;
	return true;
}

bool cordon_policy_get_color(const struct cordon_policy *policy, const char *app_id,
	const char *profile, const char *key, uint32_t *rgb) {
	const char *value = cordon_policy_get(policy, app_id, profile, key);
	return value && cordon_policy_parse_color(value, rgb);
}

struct word_match {
	const char *word;
	bool found;
};

static bool match_word(const char *word, size_t len, void *data) {
	struct word_match *match = data;
	if (strlen(match->word) == len && strncmp(match->word, word, len) == 0) {
		match->found = true;
	}
	return true;
}

bool cordon_policy_word_in_list(const char *list, const char *word) {
	struct word_match match = {word, false};
	if (list != NULL) {
		for_each_word(list, match_word, &match);
	}
	return match.found;
}

bool cordon_policy_list_contains(const struct cordon_policy *policy, const char *app_id,
	const char *profile, const char *key, const char *word) {
	return cordon_policy_word_in_list(cordon_policy_get(policy, app_id, profile, key), word);
}
