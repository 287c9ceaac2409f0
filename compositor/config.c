#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <wlr/types/wlr_keyboard.h>

#include "common/format.h"
#include "common/ini.h"
#include "common/xdg.h"
#include "compositor/config.h"

#define DEFAULT_TERMINAL "foot"
#define DEFAULT_REPEAT_RATE 25
#define DEFAULT_REPEAT_DELAY 600
/*
 * Trusted dialogs ignore input this long after they appear (portals/ui_plugin.c): keys
 * typed for another window must not answer them. Browsers use 500 to 1000 ms.
 */
#define DEFAULT_DIALOG_GRACE_MS 750
#define DEFAULT_XCURSOR_SIZE 24
#define MAX_XCURSOR_SIZE 512

static const struct {
	const char *name;
	uint32_t mask;
} modifier_names[] = {
	{"shift", WLR_MODIFIER_SHIFT},
	{"ctrl", WLR_MODIFIER_CTRL},
	{"control", WLR_MODIFIER_CTRL},
	{"alt", WLR_MODIFIER_ALT},
	{"mod1", WLR_MODIFIER_ALT},
	{"logo", WLR_MODIFIER_LOGO},
	{"super", WLR_MODIFIER_LOGO},
	{"mod4", WLR_MODIFIER_LOGO},
	{"mod2", WLR_MODIFIER_MOD2},
	{"mod3", WLR_MODIFIER_MOD3},
	{"mod5", WLR_MODIFIER_MOD5},
};

/*
 * "terminal" is stored as an exec with no command yet: the terminal may be
 * set anywhere in the file, so it is filled in once the whole file is read.
 */
static const struct {
	const char *name;
	enum cordon_action action;
	bool wants_command;
} action_names[] = {
	{"exec", CORDON_ACTION_EXEC, true},
	{"terminal", CORDON_ACTION_EXEC, false},
	{"quit", CORDON_ACTION_QUIT, false},
	{"close", CORDON_ACTION_CLOSE, false},
	{"focus-next", CORDON_ACTION_FOCUS_NEXT, false},
	{"focus-prev", CORDON_ACTION_FOCUS_PREV, false},
	{"minimize", CORDON_ACTION_MINIMIZE, false},
	{"maximize", CORDON_ACTION_MAXIMIZE, false},
	{"fullscreen", CORDON_ACTION_FULLSCREEN, false},
	{"paste-across", CORDON_ACTION_PASTE_ACROSS, false},
};

static const struct {
	const char *combo;
	const char *action;
} default_bindings[] = {
	{"Logo+Return", "terminal"},
	{"Logo+Shift+e", "quit"},
	{"Logo+Shift+q", "close"},
	{"Alt+Tab", "focus-next"},
	{"Alt+Shift+Tab", "focus-prev"},
	{"Logo+m", "minimize"},
	{"Logo+Up", "maximize"},
	{"Logo+f", "fullscreen"},
	{"Logo+Shift+v", "paste-across"},
};

struct config_parser {
	struct cordon_config *config;
	/* clear-defaults only makes sense before the file's first binding */
	bool seen_binding_key;
};

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* Sets *reason (when wanted) and returns false, so that callers can "return fail(...)". */
__attribute__((format(printf, 2, 3))) static bool fail(char **reason, const char *fmt, ...) {
	if (reason == NULL) {
		return false;
	}
	va_list args;
	va_start(args, fmt);
	*reason = cordon_vformat(fmt, args);
	va_end(args);
	return false;
}

bool cordon_parse_modifier(const char *name, uint32_t *modifier) {
	for (size_t i = 0; i < ARRAY_LEN(modifier_names); i++) {
		if (strcasecmp(name, modifier_names[i].name) == 0) {
			*modifier = modifier_names[i].mask;
			return true;
		}
	}
	return false;
}

/* Copies s[0..len) without its surrounding spaces; false when it does not fit. */
static bool copy_trimmed(char *dst, size_t size, const char *s, size_t len) {
	while (len > 0 && (*s == ' ' || *s == '\t')) {
		s++;
		len--;
	}
	while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t')) {
		len--;
	}
	if (len >= size) {
		return false;
	}
	memcpy(dst, s, len);
	dst[len] = '\0';
	return true;
}

static bool parse_combo(
	const char *combo, uint32_t *modifiers, xkb_keysym_t *keysym, char **reason) {
	uint32_t mods = 0;
	const char *part = combo;
	while (true) {
		const char *plus = strchr(part, '+');
		size_t len = plus != NULL ? (size_t)(plus - part) : strlen(part);
		/* No keysym or modifier name comes close to this length. */
		char name[64];
		if (!copy_trimmed(name, sizeof(name), part, len)) {
			return fail(reason, "'%.32s...' is too long for a key name", part);
		}
		if (name[0] == '\0') {
			return fail(reason, "empty part in the key combination '%s'", combo);
		}
		if (plus == NULL) {
			xkb_keysym_t sym = xkb_keysym_from_name(name, XKB_KEYSYM_CASE_INSENSITIVE);
			if (sym == XKB_KEY_NoSymbol) {
				return fail(reason,
					"unknown key '%s' in '%s' (use an xkb keysym name such as Return, Tab or a)",
					name, combo);
			}
			*modifiers = mods;
			*keysym = xkb_keysym_to_lower(sym);
			return true;
		}
		uint32_t mod;
		if (!cordon_parse_modifier(name, &mod)) {
			return fail(reason,
				"unknown modifier '%s' in '%s' (expected shift, ctrl, alt, logo, mod2, mod3 or mod5)",
				name, combo);
		}
		mods |= mod;
		part = plus + 1;
	}
}

bool cordon_parse_key_combo(const char *combo, uint32_t *modifiers, xkb_keysym_t *keysym) {
	if (combo == NULL) {
		return false;
	}
	return parse_combo(combo, modifiers, keysym, NULL);
}

static void binding_destroy(struct cordon_binding *binding) {
	wl_list_remove(&binding->link);
	free(binding->command);
	free(binding);
}

/* Takes command (NULL for the terminal). A combo bound earlier is rebound in place. */
static bool add_binding(struct cordon_config *config, uint32_t modifiers, xkb_keysym_t keysym,
	enum cordon_action action, char *command) {
	struct cordon_binding *binding;
	wl_list_for_each(binding, &config->bindings, link) {
		if (binding->modifiers == modifiers && binding->keysym == keysym) {
			free(binding->command);
			binding->action = action;
			binding->command = command;
			return true;
		}
	}

	binding = calloc(1, sizeof(*binding));
	if (binding == NULL) {
		free(command);
		return false;
	}
	binding->modifiers = modifiers;
	binding->keysym = keysym;
	binding->action = action;
	binding->command = command;
	wl_list_insert(config->bindings.prev, &binding->link);
	return true;
}

static bool parse_binding(
	struct cordon_config *config, const char *combo, const char *value, char **reason) {
	uint32_t modifiers = 0;
	xkb_keysym_t keysym = XKB_KEY_NoSymbol;
	if (!parse_combo(combo, &modifiers, &keysym, reason)) {
		return false;
	}
	/* The seat drops Num Lock before matching, or bindings would stop with it on. */
	if (modifiers & WLR_MODIFIER_MOD2) {
		return fail(reason,
			"'%s' can never fire: Mod2 (Num Lock) is ignored when matching bindings",
			combo);
	}

	size_t name_len = strcspn(value, " \t");
	const char *args = value + name_len;
	args += strspn(args, " \t");
	for (size_t i = 0; i < ARRAY_LEN(action_names); i++) {
		const char *name = action_names[i].name;
		if (strlen(name) != name_len || strncmp(value, name, name_len) != 0) {
			continue;
		}
		char *command = NULL;
		if (action_names[i].wants_command) {
			if (args[0] == '\0') {
				return fail(reason, "'%s' needs a command to run", name);
			}
			command = strdup(args);
			if (command == NULL) {
				return false;
			}
		} else if (args[0] != '\0') {
			return fail(reason, "'%s' takes no arguments, got '%s'", name, args);
		}
		return add_binding(config, modifiers, keysym, action_names[i].action, command);
	}
	return fail(reason,
		"unknown action '%.*s' (expected exec, terminal, quit, close, focus-next, "
		"focus-prev, minimize, maximize or fullscreen)",
		(int)name_len, value);
}

static void clear_bindings(struct cordon_config *config) {
	struct cordon_binding *binding, *tmp;
	wl_list_for_each_safe(binding, tmp, &config->bindings, link) {
		binding_destroy(binding);
	}
}

static bool resolve_terminal_bindings(struct cordon_config *config) {
	struct cordon_binding *binding;
	wl_list_for_each(binding, &config->bindings, link) {
		if (binding->action != CORDON_ACTION_EXEC || binding->command != NULL) {
			continue;
		}
		binding->command = strdup(config->terminal);
		if (binding->command == NULL) {
			return false;
		}
	}
	return true;
}

static bool parse_long(const char *s, long min, long max, long *out) {
	if (s[0] == '\0') {
		return false;
	}
	char *end;
	errno = 0;
	long value = strtol(s, &end, 10);
	if (errno != 0 || *end != '\0' || value < min || value > max) {
		return false;
	}
	*out = value;
	return true;
}

static bool set_int(
	int32_t *field, const char *key, const char *value, long min, long max, char **reason) {
	long n;
	if (!parse_long(value, min, max, &n)) {
		return fail(reason, "%s must be a whole number from %ld to %ld, got '%s'", key, min,
			max, value);
	}
	*field = (int32_t)n;
	return true;
}

/* An empty value means unset, so that a line can be kept in the file as a reminder. */
static bool set_optional_string(char **field, const char *value) {
	char *copy = NULL;
	if (value[0] != '\0') {
		copy = strdup(value);
		if (copy == NULL) {
			return false;
		}
	}
	free(*field);
	*field = copy;
	return true;
}

static bool unknown_key(const char *section, const char *key, char **reason) {
	return fail(reason, "unknown key '%s' in [%s]", key, section);
}

static bool handle_keyboard_key(
	struct config_parser *parser, const char *key, const char *value, char **reason) {
	struct cordon_config *config = parser->config;
	if (strcmp(key, "layout") == 0) {
		return set_optional_string(&config->xkb_layout, value);
	} else if (strcmp(key, "variant") == 0) {
		return set_optional_string(&config->xkb_variant, value);
	} else if (strcmp(key, "model") == 0) {
		return set_optional_string(&config->xkb_model, value);
	} else if (strcmp(key, "rules") == 0) {
		return set_optional_string(&config->xkb_rules, value);
	} else if (strcmp(key, "options") == 0) {
		return set_optional_string(&config->xkb_options, value);
	} else if (strcmp(key, "repeat-rate") == 0) {
		return set_int(&config->repeat_rate, key, value, 0, 1000, reason);
	} else if (strcmp(key, "repeat-delay") == 0) {
		return set_int(&config->repeat_delay, key, value, 0, 10000, reason);
	}
	return unknown_key("keyboard", key, reason);
}

/* wlroots' cursor loading reads no XCURSOR_THEME of its own: NULL means its "default" theme. */
static bool set_default_xcursor_theme(struct cordon_config *config) {
	const char *env = getenv("XCURSOR_THEME");
	return set_optional_string(&config->xcursor_theme, env != NULL ? env : "");
}

static bool handle_pointer_key(
	struct config_parser *parser, const char *key, const char *value, char **reason) {
	struct cordon_config *config = parser->config;
	if (strcmp(key, "xcursor-theme") == 0) {
		if (value[0] == '\0') {
			return set_default_xcursor_theme(config);
		}
		return set_optional_string(&config->xcursor_theme, value);
	} else if (strcmp(key, "xcursor-size") == 0) {
		long size;
		if (!parse_long(value, 1, MAX_XCURSOR_SIZE, &size)) {
			return fail(reason, "%s must be a whole number from 1 to %d, got '%s'", key,
				MAX_XCURSOR_SIZE, value);
		}
		config->xcursor_size = (uint32_t)size;
		return true;
	}
	return unknown_key("pointer", key, reason);
}

static bool parse_bool(const char *s, bool *out) {
	if (strcasecmp(s, "true") == 0 || strcasecmp(s, "yes") == 0 || strcmp(s, "1") == 0) {
		*out = true;
		return true;
	}
	if (strcasecmp(s, "false") == 0 || strcasecmp(s, "no") == 0 || strcmp(s, "0") == 0) {
		*out = false;
		return true;
	}
	return false;
}

static bool handle_general_key(
	struct config_parser *parser, const char *key, const char *value, char **reason) {
	struct cordon_config *config = parser->config;
	if (strcmp(key, "terminal") == 0) {
		if (value[0] == '\0') {
			return fail(reason, "terminal must not be empty");
		}
		char *terminal = strdup(value);
		if (terminal == NULL) {
			return false;
		}
		free(config->terminal);
		config->terminal = terminal;
		return true;
	} else if (strcmp(key, "secure-attention-key") == 0) {
		if (!cordon_parse_key_combo(
			    value, &config->attention_modifiers, &config->attention_keysym)) {
			return fail(reason,
				"secure-attention-key must be a key with modifiers such as Logo+Escape, got '%s'",
				value);
		}
		return true;
	} else if (strcmp(key, "move-modifier") == 0) {
		if (!cordon_parse_modifier(value, &config->move_modifier)) {
			return fail(reason,
				"move-modifier must be one of shift, ctrl, alt, logo, mod2, mod3 or mod5, got '%s'",
				value);
		}
		return true;
	} else if (strcmp(key, "xwayland") == 0) {
		if (!parse_bool(value, &config->xwayland)) {
			return fail(reason, "xwayland must be yes or no, got '%s'", value);
		}
		return true;
	}
	return unknown_key("general", key, reason);
}

static bool handle_bindings_key(
	struct config_parser *parser, const char *key, const char *value, char **reason) {
	bool first = !parser->seen_binding_key;
	parser->seen_binding_key = true;
	if (strcmp(key, "clear-defaults") != 0) {
		return parse_binding(parser->config, key, value, reason);
	}

	/* Later, it would also drop the user's own bindings above it, which nobody means. */
	if (!first) {
		return fail(reason, "clear-defaults must be the first key in [bindings]");
	}
	bool clear;
	if (!parse_bool(value, &clear)) {
		return fail(reason, "clear-defaults must be true or false, got '%s'", value);
	}
	if (clear) {
		clear_bindings(parser->config);
	}
	return true;
}

/* A byte count with an optional K, M or G (binary) suffix, from 1 KiB to 4 GiB. */
static bool parse_print_max_size(const char *value, uint64_t *out) {
	char *end;
	errno = 0;
	unsigned long long n = strtoull(value, &end, 10);
	if (errno != 0 || end == value || value[0] == '-') {
		return false;
	}
	unsigned shift = 0;
	if (*end == 'K' || *end == 'k') {
		shift = 10;
	} else if (*end == 'M' || *end == 'm') {
		shift = 20;
	} else if (*end == 'G' || *end == 'g') {
		shift = 30;
	}
	end += shift ? 1 : 0;
	if (*end != '\0' || n > (4ull << 30) >> shift) {
		return false;
	}
	n <<= shift;
	if (n < 1024) {
		return false;
	}
	*out = n;
	return true;
}

static bool handle_portal_key(
	struct config_parser *parser, const char *key, const char *value, char **reason) {
	struct cordon_config *config = parser->config;
	if (strcmp(key, "ui") == 0) {
		if (strchr(value, '/')) {
			return fail(reason, "ui is a plugin name without a slash, got '%s'", value);
		}
		return set_optional_string(&config->portal_ui, value) ||
			fail(reason, "out of memory");
	} else if (strcmp(key, "plugin-dir") == 0) {
		if (value[0] != '\0' && value[0] != '/') {
			return fail(reason, "plugin-dir must be an absolute path, got '%s'", value);
		}
		return set_optional_string(&config->portal_plugin_dir, value) ||
			fail(reason, "out of memory");
	} else if (strcmp(key, "ui-options") == 0) {
		return set_optional_string(&config->portal_ui_options, value) ||
			fail(reason, "out of memory");
	} else if (strcmp(key, "camera-timeout-ms") == 0) {
		return set_int(&config->portal_camera_timeout_ms, key, value, 1, 600000, reason);
	} else if (strcmp(key, "camera-max-bytes") == 0) {
		return set_int(&config->portal_camera_max_bytes, key, value, 1, 1 << 30, reason);
	} else if (strcmp(key, "camera-launcher") == 0) {
		if (value[0] != '/' && strcmp(value, "none") != 0) {
			return fail(reason,
				"camera-launcher is cordon-run's absolute path or none, "
				"got '%s'",
				value);
		}
		return set_optional_string(&config->portal_camera_launcher, value) ||
			fail(reason, "out of memory");
	} else if (strcmp(key, "dialog-grace-ms") == 0) {
		return set_int(&config->portal_dialog_grace_ms, key, value, 0, 10000, reason);
	} else if (strcmp(key, "print-max-size") == 0) {
		return parse_print_max_size(value, &config->portal_print_max_size) ||
			fail(reason,
				"print-max-size is a size such as 512M (K, M or G), from 1K to 4G, "
				"got '%s'",
				value);
	}
	return unknown_key("portal", key, reason);
}

/* "10s", "500ms" or a plain number of seconds, up to an hour. */
static bool parse_duration_ms(const char *s, uint32_t *out) {
	char *end;
	errno = 0;
	unsigned long long value = strtoull(s, &end, 10);
	if (errno != 0 || end == s || s[0] == '-') {
		return false;
	}
	unsigned long long ms;
	if (strcmp(end, "ms") == 0) {
		ms = value;
	} else if (strcmp(end, "s") == 0 || *end == '\0') {
		ms = value * 1000;
	} else {
		return false;
	}
	if (value > 3600 * 1000 || ms > 3600 * 1000) {
		return false;
	}
	*out = (uint32_t)ms;
	return true;
}

static bool handle_freeze_key(
	struct config_parser *parser, const char *key, const char *value, char **reason) {
	struct cordon_config *config = parser->config;
	if (strcmp(key, "sandboxed") == 0 || strcmp(key, "host") == 0) {
		bool *field = key[0] == 's' ? &config->freeze_sandboxed : &config->freeze_host;
		if (!parse_bool(value, field)) {
			return fail(reason, "%s must be true or false, got '%s'", key, value);
		}
		return true;
	} else if (strcmp(key, "delay") == 0) {
		if (!parse_duration_ms(value, &config->freeze_delay_ms)) {
			return fail(reason,
				"delay must be a duration like 10s or 500ms (at most an hour), got '%s'",
				value);
		}
		return true;
	} else if (strcmp(key, "boost-weight") == 0) {
		long weight;
		/* cgroup v2's cpu.weight range; 0 switches boosting off. */
		if (!parse_long(value, 0, 10000, &weight)) {
			return fail(reason,
				"boost-weight must be 0 (off) or a cpu.weight from 1 to 10000, got '%s'",
				value);
		}
		config->boost_weight = (uint32_t)weight;
		return true;
	}
	return unknown_key("freeze", key, reason);
}

static const struct {
	const char *name;
	bool (*handle_key)(
		struct config_parser *parser, const char *key, const char *value, char **reason);
} sections[] = {
	{"keyboard", handle_keyboard_key},
	{"pointer", handle_pointer_key},
	{"general", handle_general_key},
	{"bindings", handle_bindings_key},
	{"portal", handle_portal_key},
	{"freeze", handle_freeze_key},
};

static bool handle_ini_line(void *data, const char *section, const char *key, const char *value,
	int line, char **reason) {
	struct config_parser *parser = data;
	for (size_t i = 0; i < ARRAY_LEN(sections); i++) {
		if (strcmp(section, sections[i].name) != 0) {
			continue;
		}
		if (key == NULL) {
			return true;
		}
		return sections[i].handle_key(parser, key, value, reason);
	}
	return fail(reason,
		"unknown section [%s] (expected [keyboard], [pointer], [general], [bindings], [portal] or [freeze])",
		section);
}

static uint32_t default_xcursor_size(void) {
	const char *env = getenv("XCURSOR_SIZE");
	long size;
	if (env != NULL && parse_long(env, 1, MAX_XCURSOR_SIZE, &size)) {
		return (uint32_t)size;
	}
	return DEFAULT_XCURSOR_SIZE;
}

/* The defaults, with the terminal bindings still to be resolved. */
static struct cordon_config *config_create(void) {
	struct cordon_config *config = calloc(1, sizeof(*config));
	if (config == NULL) {
		return NULL;
	}
	wl_list_init(&config->bindings);
	config->repeat_rate = DEFAULT_REPEAT_RATE;
	config->repeat_delay = DEFAULT_REPEAT_DELAY;
	config->xcursor_size = default_xcursor_size();
	config->move_modifier = WLR_MODIFIER_LOGO;
	config->xwayland = true;
	config->attention_modifiers = WLR_MODIFIER_LOGO;
	config->attention_keysym = XKB_KEY_Escape;
	config->freeze_sandboxed = true;
	config->freeze_host = false;
	config->freeze_delay_ms = 10000;
	config->boost_weight = 400;
	config->portal_dialog_grace_ms = DEFAULT_DIALOG_GRACE_MS;

	const char *terminal = getenv("TERMINAL");
	if (terminal == NULL || terminal[0] == '\0') {
		terminal = DEFAULT_TERMINAL;
	}
	config->terminal = strdup(terminal);
	if (config->terminal == NULL || !set_default_xcursor_theme(config)) {
		goto error;
	}

	for (size_t i = 0; i < ARRAY_LEN(default_bindings); i++) {
		const char *combo = default_bindings[i].combo;
		if (!parse_binding(config, combo, default_bindings[i].action, NULL)) {
			goto error;
		}
	}
	return config;

error:
	cordon_config_destroy(config);
	return NULL;
}

struct cordon_config *cordon_config_create_default(void) {
	struct cordon_config *config = config_create();
	if (config != NULL && !resolve_terminal_bindings(config)) {
		cordon_config_destroy(config);
		return NULL;
	}
	return config;
}

void cordon_config_destroy(struct cordon_config *config) {
	if (config == NULL) {
		return;
	}
	clear_bindings(config);
	free(config->xkb_rules);
	free(config->xkb_model);
	free(config->xkb_layout);
	free(config->xkb_variant);
	free(config->xkb_options);
	free(config->xcursor_theme);
	free(config->terminal);
	free(config->portal_ui);
	free(config->portal_plugin_dir);
	free(config->portal_ui_options);
	free(config->portal_camera_launcher);
	free(config);
}

__attribute__((format(printf, 2, 3))) static void set_error(char **error, const char *fmt, ...) {
	if (error == NULL) {
		return;
	}
	va_list args;
	va_start(args, fmt);
	*error = cordon_vformat(fmt, args);
	va_end(args);
}

struct cordon_config *cordon_config_load_file(FILE *file, const char *name, char **error) {
	struct config_parser parser = {
		.config = config_create(),
	};
	if (parser.config == NULL) {
		set_error(error, "out of memory");
		return NULL;
	}
	if (!cordon_ini_parse_file(file, name, handle_ini_line, &parser, error)) {
		cordon_config_destroy(parser.config);
		return NULL;
	}
	if (!resolve_terminal_bindings(parser.config)) {
		set_error(error, "out of memory");
		cordon_config_destroy(parser.config);
		return NULL;
	}
	return parser.config;
}

struct cordon_config *cordon_config_load(const char *path, char **error) {
	if (error != NULL) {
		*error = NULL;
	}
	char *default_path = NULL;
	if (path == NULL) {
		default_path = cordon_user_config_path("cordon.ini");
		if (default_path == NULL) {
			return cordon_config_create_default();
		}
		path = default_path;
	}

	struct cordon_config *config = NULL;
	FILE *file = fopen(path, "re");
	if (file != NULL) {
		config = cordon_config_load_file(file, path, error);
		fclose(file);
	} else if (default_path != NULL && errno == ENOENT) {
		/* Nobody has to write a config file to get a working desktop. */
		config = cordon_config_create_default();
	} else {
		set_error(error, "%s: %s", path, strerror(errno));
	}
	free(default_path);
	return config;
}
