/* Unit tests for the configuration: defaults, every key, environment fallbacks and errors. */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wlr/types/wlr_keyboard.h>

#include "compositor/config.h"

static int failures;

static void check(bool ok, const char *what, const char *file, int line) {
	if (!ok) {
		fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
		failures++;
	}
}

static void check_str(const char *got, const char *want, const char *file, int line) {
	bool same = got == NULL || want == NULL ? got == want : strcmp(got, want) == 0;
	if (!same) {
		fprintf(stderr, "%s:%d: got \"%s\", want \"%s\"\n", file, line,
			got != NULL ? got : "(null)", want != NULL ? want : "(null)");
		failures++;
	}
}

#define CHECK(cond) check((cond), #cond, __FILE__, __LINE__)
#define CHECK_STR(got, want) check_str((got), (want), __FILE__, __LINE__)

#define LOGO WLR_MODIFIER_LOGO
#define SHIFT WLR_MODIFIER_SHIFT
#define ALT WLR_MODIFIER_ALT
#define CTRL WLR_MODIFIER_CTRL

/* Where the test writes its files; removed at the end. */
static char tmpdir[] = "/tmp/cordon-test-config.XXXXXX";

static char *tmp_path(const char *name) {
	char *path;
	if (asprintf(&path, "%s/%s", tmpdir, name) < 0) {
		perror("asprintf");
		exit(1);
	}
	return path;
}

static void make_dirs(const char *path) {
	char *copy = strdup(path);
	for (char *p = copy + 1; *p != '\0'; p++) {
		if (*p == '/') {
			*p = '\0';
			mkdir(copy, 0700);
			*p = '/';
		}
	}
	free(copy);
}

/* Writes text to NAME under the temporary directory and returns its path. */
static char *write_file(const char *name, const char *text) {
	char *path = tmp_path(name);
	make_dirs(path);
	FILE *file = fopen(path, "w");
	if (file == NULL || fputs(text, file) < 0 || fclose(file) != 0) {
		perror(path);
		exit(1);
	}
	return path;
}

static struct cordon_config *load_text(const char *text, char **error) {
	char *path = write_file("cordon.ini", text);
	struct cordon_config *config = cordon_config_load(path, error);
	free(path);
	return config;
}

/* For texts that must load: the tests below need a config to look at. */
static struct cordon_config *require_config(struct cordon_config *config, char *error, int line) {
	if (config == NULL || error != NULL) {
		fprintf(stderr, "%s:%d: loading failed: %s\n", __FILE__, line,
			error != NULL ? error : "(no message)");
		exit(1);
	}
	return config;
}

static struct cordon_config *load_ok_at(const char *text, int line) {
	char *error = NULL;
	struct cordon_config *config = load_text(text, &error);
	return require_config(config, error, line);
}

#define LOAD_OK(text) load_ok_at((text), __LINE__)
#define DEFAULT_OK() require_config(cordon_config_create_default(), NULL, __LINE__)

static int count_bindings(struct cordon_config *config) {
	return wl_list_length(&config->bindings);
}

static struct cordon_binding *find_binding(
	struct cordon_config *config, uint32_t modifiers, xkb_keysym_t keysym) {
	struct cordon_binding *binding;
	wl_list_for_each(binding, &config->bindings, link) {
		if (binding->modifiers == modifiers && binding->keysym == keysym) {
			return binding;
		}
	}
	return NULL;
}

static void check_binding(struct cordon_config *config, uint32_t modifiers, xkb_keysym_t keysym,
	enum cordon_action action, const char *command, int line) {
	struct cordon_binding *binding = find_binding(config, modifiers, keysym);
	check(binding != NULL, "binding exists", __FILE__, line);
	if (binding == NULL) {
		return;
	}
	check(binding->action == action, "binding action", __FILE__, line);
	check_str(binding->command, command, __FILE__, line);
}

#define CHECK_BINDING(config, mods, sym, action, command)                                          \
	check_binding((config), (mods), (sym), (action), (command), __LINE__)

/* Each test starts from an environment without the variables the config reads. */
static void clear_env(void) {
	unsetenv("TERMINAL");
	unsetenv("XCURSOR_SIZE");
	unsetenv("XCURSOR_THEME");
	unsetenv("XDG_CONFIG_HOME");
	unsetenv("HOME");
}

/* Only that they are there: a config may add its own around them. */
static void check_default_bindings(struct cordon_config *config, const char *terminal) {
	CHECK_BINDING(config, LOGO, XKB_KEY_Return, CORDON_ACTION_EXEC, terminal);
	CHECK_BINDING(config, LOGO | SHIFT, XKB_KEY_e, CORDON_ACTION_QUIT, NULL);
	CHECK_BINDING(config, LOGO | SHIFT, XKB_KEY_q, CORDON_ACTION_CLOSE, NULL);
	CHECK_BINDING(config, ALT, XKB_KEY_Tab, CORDON_ACTION_FOCUS_NEXT, NULL);
	CHECK_BINDING(config, ALT | SHIFT, XKB_KEY_Tab, CORDON_ACTION_FOCUS_PREV, NULL);
	CHECK_BINDING(config, LOGO, XKB_KEY_m, CORDON_ACTION_MINIMIZE, NULL);
	CHECK_BINDING(config, LOGO, XKB_KEY_Up, CORDON_ACTION_MAXIMIZE, NULL);
	CHECK_BINDING(config, LOGO, XKB_KEY_f, CORDON_ACTION_FULLSCREEN, NULL);
	CHECK_BINDING(config, LOGO | SHIFT, XKB_KEY_v, CORDON_ACTION_PASTE_ACROSS, NULL);
}

static void check_defaults(struct cordon_config *config) {
	CHECK(config->xkb_rules == NULL);
	CHECK(config->xkb_model == NULL);
	CHECK(config->xkb_layout == NULL);
	CHECK(config->xkb_variant == NULL);
	CHECK(config->xkb_options == NULL);
	CHECK(config->repeat_rate == 25);
	CHECK(config->repeat_delay == 600);
	CHECK(config->xcursor_theme == NULL);
	CHECK(config->xcursor_size == 24);
	CHECK_STR(config->terminal, "foot");
	CHECK(config->move_modifier == LOGO);
	CHECK(config->xwayland);
	CHECK(count_bindings(config) == 9);
	check_default_bindings(config, "foot");
}

static void test_defaults(void) {
	clear_env();
	struct cordon_config *config = DEFAULT_OK();
	check_defaults(config);
	cordon_config_destroy(config);

	/* an empty file and one with only empty sections change nothing */
	config = LOAD_OK("");
	check_defaults(config);
	cordon_config_destroy(config);

	config = LOAD_OK("# nothing\n[keyboard]\n[pointer]\n[general]\n[bindings]\n");
	check_defaults(config);
	cordon_config_destroy(config);

	cordon_config_destroy(NULL);
}

static void test_env_fallbacks(void) {
	clear_env();
	setenv("TERMINAL", "alacritty -e tmux", 1);
	setenv("XCURSOR_SIZE", "48", 1);
	struct cordon_config *config = DEFAULT_OK();
	CHECK_STR(config->terminal, "alacritty -e tmux");
	CHECK(config->xcursor_size == 48);
	CHECK(count_bindings(config) == 9);
	check_default_bindings(config, "alacritty -e tmux");
	cordon_config_destroy(config);

	/* the file wins over the environment */
	config = LOAD_OK("[general]\nterminal = xterm\n[pointer]\nxcursor-size = 32\n");
	CHECK_STR(config->terminal, "xterm");
	CHECK(config->xcursor_size == 32);
	CHECK_BINDING(config, LOGO, XKB_KEY_Return, CORDON_ACTION_EXEC, "xterm");
	cordon_config_destroy(config);

	/* nonsense in the environment falls back to the built-in defaults */
	static const char *const bad_sizes[] = {"", "0", "513", "-4", "big", "24px"};
	for (size_t i = 0; i < sizeof(bad_sizes) / sizeof(bad_sizes[0]); i++) {
		setenv("XCURSOR_SIZE", bad_sizes[i], 1);
		config = DEFAULT_OK();
		CHECK(config->xcursor_size == 24);
		cordon_config_destroy(config);
	}
	setenv("TERMINAL", "", 1);
	config = DEFAULT_OK();
	CHECK_STR(config->terminal, "foot");
	cordon_config_destroy(config);

	/* wlroots does not read XCURSOR_THEME, so the config carries it */
	setenv("XCURSOR_THEME", "Adwaita", 1);
	config = DEFAULT_OK();
	CHECK_STR(config->xcursor_theme, "Adwaita");
	cordon_config_destroy(config);
	config = LOAD_OK("[pointer]\nxcursor-theme = DMZ-Black\n");
	CHECK_STR(config->xcursor_theme, "DMZ-Black");
	cordon_config_destroy(config);
	config = LOAD_OK("[pointer]\nxcursor-theme = DMZ-Black\nxcursor-theme =\n");
	CHECK_STR(config->xcursor_theme, "Adwaita");
	cordon_config_destroy(config);
	setenv("XCURSOR_THEME", "", 1);
	config = DEFAULT_OK();
	CHECK(config->xcursor_theme == NULL);
	cordon_config_destroy(config);
	clear_env();
}

static void test_every_key(void) {
	clear_env();
	const char *text = "[keyboard]\n"
			   "layout = de,us\n"
			   "variant = nodeadkeys\n"
			   "model = pc105\n"
			   "rules = evdev\n"
			   "options = grp:alt_shift_toggle,caps:escape\n"
			   "repeat-rate = 40\n"
			   "repeat-delay = 250\n"
			   "[pointer]\n"
			   "xcursor-theme = DMZ-White\n"
			   "xcursor-size = 64\n"
			   "[general]\n"
			   "terminal = foot --server\n"
			   "move-modifier = alt\n";
	struct cordon_config *config = LOAD_OK(text);
	CHECK_STR(config->xkb_layout, "de,us");
	CHECK_STR(config->xkb_variant, "nodeadkeys");
	CHECK_STR(config->xkb_model, "pc105");
	CHECK_STR(config->xkb_rules, "evdev");
	CHECK_STR(config->xkb_options, "grp:alt_shift_toggle,caps:escape");
	CHECK(config->repeat_rate == 40);
	CHECK(config->repeat_delay == 250);
	CHECK_STR(config->xcursor_theme, "DMZ-White");
	CHECK(config->xcursor_size == 64);
	CHECK_STR(config->terminal, "foot --server");
	CHECK(config->move_modifier == ALT);
	CHECK(count_bindings(config) == 9);
	check_default_bindings(config, "foot --server");
	cordon_config_destroy(config);
}

static void test_ranges(void) {
	clear_env();
	struct cordon_config *config = LOAD_OK("[keyboard]\nrepeat-rate = 0\nrepeat-delay = 0\n"
					       "[pointer]\nxcursor-size = 1\n");
	CHECK(config->repeat_rate == 0 && config->repeat_delay == 0 && config->xcursor_size == 1);
	cordon_config_destroy(config);

	config = LOAD_OK("[keyboard]\nrepeat-rate = 1000\nrepeat-delay = 10000\n"
			 "[pointer]\nxcursor-size = 512\n");
	CHECK(config->repeat_rate == 1000 && config->repeat_delay == 10000);
	CHECK(config->xcursor_size == 512);
	cordon_config_destroy(config);
}

static void test_repeated_and_empty_values(void) {
	clear_env();
	struct cordon_config *config = LOAD_OK("[keyboard]\nlayout = us\nlayout = fr\n"
					       "variant = dvorak\nvariant =\n"
					       "[keyboard]\nrepeat-rate = 10\n"
					       "[pointer]\nxcursor-theme =\n");
	CHECK_STR(config->xkb_layout, "fr");
	CHECK(config->xkb_variant == NULL);
	CHECK(config->xcursor_theme == NULL);
	CHECK(config->repeat_rate == 10);
	cordon_config_destroy(config);
}

static void test_modifiers(void) {
	static const struct {
		const char *name;
		uint32_t mask;
	} names[] = {
		{"shift", SHIFT},
		{"SHIFT", SHIFT},
		{"ctrl", CTRL},
		{"Control", CTRL},
		{"alt", ALT},
		{"Mod1", ALT},
		{"logo", LOGO},
		{"Super", LOGO},
		{"mod4", LOGO},
		{"mod2", WLR_MODIFIER_MOD2},
		{"mod3", WLR_MODIFIER_MOD3},
		{"mod5", WLR_MODIFIER_MOD5},
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		uint32_t mask = 0;
		CHECK(cordon_parse_modifier(names[i].name, &mask));
		CHECK(mask == names[i].mask);
	}
	uint32_t mask = 1234;
	CHECK(!cordon_parse_modifier("hyper", &mask));
	CHECK(!cordon_parse_modifier("", &mask));
	CHECK(!cordon_parse_modifier("caps", &mask));
	CHECK(mask == 1234);

	clear_env();
	struct cordon_config *config = LOAD_OK("[general]\nmove-modifier = Super\n");
	CHECK(config->move_modifier == LOGO);
	cordon_config_destroy(config);
	config = LOAD_OK("[general]\nmove-modifier = ctrl\n");
	CHECK(config->move_modifier == CTRL);
	cordon_config_destroy(config);
	config = LOAD_OK("[general]\nxwayland = no\n");
	CHECK(!config->xwayland);
	cordon_config_destroy(config);
	config = LOAD_OK("[general]\nxwayland = yes\n");
	CHECK(config->xwayland);
	cordon_config_destroy(config);
}

static void test_key_combos(void) {
	uint32_t mods = 0;
	xkb_keysym_t sym = 0;
	CHECK(cordon_parse_key_combo("Logo+Shift+Return", &mods, &sym));
	CHECK(mods == (LOGO | SHIFT) && sym == XKB_KEY_Return);
	CHECK(cordon_parse_key_combo("a", &mods, &sym));
	CHECK(mods == 0 && sym == XKB_KEY_a);
	/* keysyms are matched without regard to case and stored lower-case */
	CHECK(cordon_parse_key_combo("ctrl+alt+E", &mods, &sym));
	CHECK(mods == (CTRL | ALT) && sym == XKB_KEY_e);
	CHECK(cordon_parse_key_combo("super+return", &mods, &sym));
	CHECK(mods == LOGO && sym == XKB_KEY_Return);
	CHECK(cordon_parse_key_combo(" Mod4 + Shift + plus ", &mods, &sym));
	CHECK(mods == (LOGO | SHIFT) && sym == XKB_KEY_plus);
	/* the parser knows Mod2; only [bindings] refuses it (see test_errors) */
	CHECK(cordon_parse_key_combo("Mod2+Mod3+Mod5+KP_1", &mods, &sym));
	CHECK(mods == (WLR_MODIFIER_MOD2 | WLR_MODIFIER_MOD3 | WLR_MODIFIER_MOD5));
	CHECK(sym == XKB_KEY_KP_1);
	CHECK(cordon_parse_key_combo("Logo+F12", &mods, &sym));
	CHECK(mods == LOGO && sym == XKB_KEY_F12);
	CHECK(cordon_parse_key_combo("Logo+Odiaeresis", &mods, &sym));
	CHECK(mods == LOGO && sym == XKB_KEY_odiaeresis);

	static const char *const bad[] = {
		"",
		"+",
		"Logo+",
		"+a",
		"Logo++a",
		"Hyper+a",
		"Logo+NoSuchKey",
		"Logo+Shift",
		"Logo+aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		mods = 77;
		sym = 77;
		bool ok = cordon_parse_key_combo(bad[i], &mods, &sym);
		check(!ok, bad[i], __FILE__, __LINE__);
		CHECK(mods == 77 && sym == 77);
	}
	CHECK(!cordon_parse_key_combo(NULL, &mods, &sym));
}

static void test_bindings(void) {
	clear_env();
	const char *text = "[bindings]\n"
			   "Logo+Shift+Return = exec foot -e htop\n"
			   "Logo+d = exec   fuzzel --lines 5 ; echo done  \n"
			   "Ctrl+Alt+Delete = quit\n"
			   "Logo+w = close\n"
			   "Logo+j = focus-next\n"
			   "Logo+k = focus-prev\n"
			   "Logo+h = minimize\n"
			   "Logo+Shift+Up = maximize\n"
			   "F11 = fullscreen\n"
			   "Logo+t = terminal\n"
			   "[general]\n"
			   "terminal = kitty\n";
	struct cordon_config *config = LOAD_OK(text);
	CHECK(count_bindings(config) == 19);
	CHECK_BINDING(config, LOGO | SHIFT, XKB_KEY_Return, CORDON_ACTION_EXEC, "foot -e htop");
	CHECK_BINDING(config, LOGO, XKB_KEY_d, CORDON_ACTION_EXEC, "fuzzel --lines 5 ; echo done");
	CHECK_BINDING(config, CTRL | ALT, XKB_KEY_Delete, CORDON_ACTION_QUIT, NULL);
	CHECK_BINDING(config, LOGO, XKB_KEY_w, CORDON_ACTION_CLOSE, NULL);
	CHECK_BINDING(config, LOGO, XKB_KEY_j, CORDON_ACTION_FOCUS_NEXT, NULL);
	CHECK_BINDING(config, LOGO, XKB_KEY_k, CORDON_ACTION_FOCUS_PREV, NULL);
	CHECK_BINDING(config, LOGO, XKB_KEY_h, CORDON_ACTION_MINIMIZE, NULL);
	CHECK_BINDING(config, LOGO | SHIFT, XKB_KEY_Up, CORDON_ACTION_MAXIMIZE, NULL);
	CHECK_BINDING(config, 0, XKB_KEY_F11, CORDON_ACTION_FULLSCREEN, NULL);
	/* terminal is resolved after the whole file, so [general] below still counts */
	CHECK_BINDING(config, LOGO, XKB_KEY_t, CORDON_ACTION_EXEC, "kitty");
	check_default_bindings(config, "kitty");
	cordon_config_destroy(config);
}

static void test_binding_replacement(void) {
	clear_env();
	const char *text = "[bindings]\n"
			   "Logo+Return = exec first\n"
			   "logo+SHIFT+E = exec wlogout\n"
			   "super+RETURN = exec second\n"
			   "Logo+x = quit\n"
			   "[bindings]\n"
			   "Mod4+X = close\n";
	struct cordon_config *config = LOAD_OK(text);
	CHECK(count_bindings(config) == 10);
	CHECK_BINDING(config, LOGO, XKB_KEY_Return, CORDON_ACTION_EXEC, "second");
	CHECK_BINDING(config, LOGO | SHIFT, XKB_KEY_e, CORDON_ACTION_EXEC, "wlogout");
	CHECK_BINDING(config, LOGO, XKB_KEY_x, CORDON_ACTION_CLOSE, NULL);

	/* replaced in place: the list keeps the order the combos first appeared in */
	struct cordon_binding *first = wl_container_of(config->bindings.next, first, link);
	CHECK(first->modifiers == LOGO && first->keysym == XKB_KEY_Return);
	cordon_config_destroy(config);
}

static void test_clear_defaults(void) {
	clear_env();
	struct cordon_config *config = LOAD_OK("[bindings]\n"
					       "clear-defaults = true\n"
					       "Logo+Return = terminal\n"
					       "Logo+Escape = quit\n");
	CHECK(count_bindings(config) == 2);
	CHECK_BINDING(config, LOGO, XKB_KEY_Return, CORDON_ACTION_EXEC, "foot");
	CHECK_BINDING(config, LOGO, XKB_KEY_Escape, CORDON_ACTION_QUIT, NULL);
	cordon_config_destroy(config);

	config = LOAD_OK("# comments do not count\n[general]\nterminal = xterm\n"
			 "[bindings]\n\n# nor here\nclear-defaults = yes\n");
	CHECK(count_bindings(config) == 0);
	cordon_config_destroy(config);

	config = LOAD_OK("[bindings]\nclear-defaults = false\n");
	CHECK(count_bindings(config) == 9);
	check_default_bindings(config, "foot");
	cordon_config_destroy(config);
}

/* Loads TEXT from cordon.ini and expects exactly "PATH:LINE: REASON". */
static void expect_error(const char *text, int line, const char *reason, int source_line) {
	char *path = tmp_path("cordon.ini");
	char *want;
	if (asprintf(&want, "%s:%d: %s", path, line, reason) < 0) {
		exit(1);
	}
	char *error = NULL;
	struct cordon_config *config = load_text(text, &error);
	check(config == NULL, "load fails", __FILE__, source_line);
	check_str(error, want, __FILE__, source_line);
	cordon_config_destroy(config);
	free(error);
	free(want);
	free(path);
}

#define EXPECT_ERROR(text, line, reason) expect_error((text), (line), (reason), __LINE__)

static void test_freeze(void) {
	clear_env();
	struct cordon_config *config = DEFAULT_OK();
	CHECK(config->freeze_sandboxed && !config->freeze_host);
	CHECK(config->freeze_delay_ms == 10000);
	CHECK(config->boost_weight == 400);
	cordon_config_destroy(config);

	config = LOAD_OK("[freeze]\nsandboxed = no\nhost = yes\ndelay = 250ms\nboost-weight = 0\n");
	CHECK(!config->freeze_sandboxed && config->freeze_host);
	CHECK(config->freeze_delay_ms == 250);
	CHECK(config->boost_weight == 0);
	cordon_config_destroy(config);

	config = LOAD_OK("[freeze]\ndelay = 3\n");
	CHECK(config->freeze_delay_ms == 3000);
	cordon_config_destroy(config);
	config = LOAD_OK("[freeze]\ndelay = 2s\nboost-weight = 10000\n");
	CHECK(config->freeze_delay_ms == 2000 && config->boost_weight == 10000);
	cordon_config_destroy(config);
}

static void test_errors(void) {
	clear_env();
	EXPECT_ERROR("[keyboard]\nlayout = us\n\n[colors]\nbg = red\n", 4,
		"unknown section [colors] (expected [keyboard], [pointer], [general], [bindings], [portal] or [freeze])");
	EXPECT_ERROR("[keyboard]\nlayuot = us\n", 2, "unknown key 'layuot' in [keyboard]");
	EXPECT_ERROR("[pointer]\nsize = 3\n", 2, "unknown key 'size' in [pointer]");
	EXPECT_ERROR("[general]\n# x\nshell = sh\n", 3, "unknown key 'shell' in [general]");

	EXPECT_ERROR("[keyboard]\nrepeat-rate = fast\n", 2,
		"repeat-rate must be a whole number from 0 to 1000, got 'fast'");
	EXPECT_ERROR("[keyboard]\nrepeat-rate = 1001\n", 2,
		"repeat-rate must be a whole number from 0 to 1000, got '1001'");
	EXPECT_ERROR("[keyboard]\nrepeat-rate = -1\n", 2,
		"repeat-rate must be a whole number from 0 to 1000, got '-1'");
	EXPECT_ERROR("[keyboard]\nrepeat-rate =\n", 2,
		"repeat-rate must be a whole number from 0 to 1000, got ''");
	EXPECT_ERROR("[keyboard]\nrepeat-delay = 10001\n", 2,
		"repeat-delay must be a whole number from 0 to 10000, got '10001'");
	EXPECT_ERROR("[keyboard]\nrepeat-delay = 600ms\n", 2,
		"repeat-delay must be a whole number from 0 to 10000, got '600ms'");
	EXPECT_ERROR("[keyboard]\nrepeat-delay = 99999999999999999999999\n", 2,
		"repeat-delay must be a whole number from 0 to 10000, got '99999999999999999999999'");
	EXPECT_ERROR("[pointer]\nxcursor-size = 0\n", 2,
		"xcursor-size must be a whole number from 1 to 512, got '0'");
	EXPECT_ERROR("[pointer]\nxcursor-size = 513\n", 2,
		"xcursor-size must be a whole number from 1 to 512, got '513'");
	EXPECT_ERROR("[pointer]\nxcursor-size = 2.5\n", 2,
		"xcursor-size must be a whole number from 1 to 512, got '2.5'");

	EXPECT_ERROR("[general]\nterminal =\n", 2, "terminal must not be empty");
	EXPECT_ERROR("[general]\nxwayland = maybe\n", 2, "xwayland must be yes or no, got 'maybe'");
	EXPECT_ERROR("[general]\nmove-modifier = hyper\n", 2,
		"move-modifier must be one of shift, ctrl, alt, logo, mod2, mod3 or mod5, got 'hyper'");
	EXPECT_ERROR("[general]\nmove-modifier = logo+shift\n", 2,
		"move-modifier must be one of shift, ctrl, alt, logo, mod2, mod3 or mod5, got 'logo+shift'");

	EXPECT_ERROR("[bindings]\nLogo+Nope = quit\n", 2,
		"unknown key 'Nope' in 'Logo+Nope' (use an xkb keysym name such as Return, Tab or a)");
	EXPECT_ERROR("[bindings]\nHyper+a = quit\n", 2,
		"unknown modifier 'Hyper' in 'Hyper+a' (expected shift, ctrl, alt, logo, mod2, mod3 or mod5)");
	EXPECT_ERROR(
		"[bindings]\nLogo++a = quit\n", 2, "empty part in the key combination 'Logo++a'");
	EXPECT_ERROR("[bindings]\nMod2+a = quit\n", 2,
		"'Mod2+a' can never fire: Mod2 (Num Lock) is ignored when matching bindings");
	EXPECT_ERROR("[bindings]\nLogo+a = launch firefox\n", 2,
		"unknown action 'launch' (expected exec, terminal, quit, close, focus-next, focus-prev, minimize, maximize or fullscreen)");
	EXPECT_ERROR("[bindings]\nLogo+a =\n", 2,
		"unknown action '' (expected exec, terminal, quit, close, focus-next, focus-prev, minimize, maximize or fullscreen)");
	EXPECT_ERROR("[bindings]\nLogo+a = execute foo\n", 2,
		"unknown action 'execute' (expected exec, terminal, quit, close, focus-next, focus-prev, minimize, maximize or fullscreen)");
	EXPECT_ERROR("[bindings]\nLogo+a = exec\n", 2, "'exec' needs a command to run");
	EXPECT_ERROR("[bindings]\nLogo+a = exec   \n", 2, "'exec' needs a command to run");
	EXPECT_ERROR("[bindings]\nLogo+a = quit now\n", 2, "'quit' takes no arguments, got 'now'");
	EXPECT_ERROR("[bindings]\nLogo+a = terminal -e htop\n", 2,
		"'terminal' takes no arguments, got '-e htop'");

	EXPECT_ERROR("[bindings]\nLogo+a = quit\nclear-defaults = true\n", 3,
		"clear-defaults must be the first key in [bindings]");
	EXPECT_ERROR("[bindings]\nLogo+a = quit\n[bindings]\nclear-defaults = true\n", 4,
		"clear-defaults must be the first key in [bindings]");
	EXPECT_ERROR("[bindings]\nclear-defaults = please\n", 2,
		"clear-defaults must be true or false, got 'please'");

	EXPECT_ERROR("[freeze]\ndelay = soon\n", 2,
		"delay must be a duration like 10s or 500ms (at most an hour), got 'soon'");
	EXPECT_ERROR("[freeze]\ndelay = -1s\n", 2,
		"delay must be a duration like 10s or 500ms (at most an hour), got '-1s'");
	EXPECT_ERROR("[freeze]\ndelay = 3601s\n", 2,
		"delay must be a duration like 10s or 500ms (at most an hour), got '3601s'");
	EXPECT_ERROR("[freeze]\nboost-weight = 10001\n", 2,
		"boost-weight must be 0 (off) or a cpu.weight from 1 to 10000, got '10001'");
	EXPECT_ERROR(
		"[freeze]\nsandboxed = maybe\n", 2, "sandboxed must be true or false, got 'maybe'");
	EXPECT_ERROR("[freeze]\nfrozen = yes\n", 2, "unknown key 'frozen' in [freeze]");

	/* the INI reader's own errors come through with the same prefix */
	EXPECT_ERROR("[keyboard\n", 1,
		"a section header must end with ']' (comments take a whole line)");
	EXPECT_ERROR("layout = us\n", 1, "'layout' comes before any [section]");
	EXPECT_ERROR("[keyboard]\nlayout us\n", 2,
		"expected '[section]', 'key = value' or a comment, got 'layout us'");

	/* a NULL error pointer is allowed */
	char *path = write_file("cordon.ini", "[nope]\n");
	CHECK(cordon_config_load(path, NULL) == NULL);
	free(path);
}

/* [portal] print-max-size: a size with K, M or G, 1K to 4G (docs/configuration.md). */
static void test_print_max_size(void) {
	clear_env();
	struct cordon_config *config = LOAD_OK("[portal]\nui = auto\n");
	CHECK(config->portal_print_max_size == 0);
	cordon_config_destroy(config);
	config = LOAD_OK("[portal]\nprint-max-size = 64M\n");
	CHECK(config->portal_print_max_size == 64ull << 20);
	cordon_config_destroy(config);
	config = LOAD_OK("[portal]\nprint-max-size = 4G\n");
	CHECK(config->portal_print_max_size == 4ull << 30);
	cordon_config_destroy(config);
	config = LOAD_OK("[portal]\nprint-max-size = 2048\n");
	CHECK(config->portal_print_max_size == 2048);
	cordon_config_destroy(config);
	static const char *const bad[] = {"big", "5G", "100", "-1M", "1T", "12MB", ""};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *text, *reason;
		if (asprintf(&text, "[portal]\nprint-max-size = %s\n", bad[i]) < 0 ||
			asprintf(&reason,
				"print-max-size is a size such as 512M (K, M or G), "
				"from 1K to 4G, got '%s'",
				bad[i]) < 0) {
			exit(1);
		}
		EXPECT_ERROR(text, 2, reason);
		free(text);
		free(reason);
	}
}

/* [portal] dialog-grace-ms: 750 by default (never 0 unless set), 0 to 10000. */
static void test_dialog_grace(void) {
	clear_env();
	struct cordon_config *config = LOAD_OK("[portal]\nui = auto\n");
	CHECK(config->portal_dialog_grace_ms == 750);
	cordon_config_destroy(config);
	config = LOAD_OK("[portal]\ndialog-grace-ms = 0\n");
	CHECK(config->portal_dialog_grace_ms == 0);
	cordon_config_destroy(config);
	config = LOAD_OK("[portal]\ndialog-grace-ms = 1500\n");
	CHECK(config->portal_dialog_grace_ms == 1500);
	cordon_config_destroy(config);
	EXPECT_ERROR("[portal]\ndialog-grace-ms = 10001\n", 2,
		"dialog-grace-ms must be a whole number from 0 to 10000, got '10001'");
	EXPECT_ERROR("[portal]\ndialog-grace-ms = -1\n", 2,
		"dialog-grace-ms must be a whole number from 0 to 10000, got '-1'");
}

static void test_attention_key(void) {
	clear_env();
	struct cordon_config *config = LOAD_OK("[general]\nterminal = foot\n");
	CHECK(config->attention_modifiers == WLR_MODIFIER_LOGO);
	CHECK(config->attention_keysym == XKB_KEY_Escape);
	cordon_config_destroy(config);
	config = LOAD_OK("[general]\nsecure-attention-key = Ctrl+Alt+Delete\n");
	CHECK(config->attention_modifiers == (WLR_MODIFIER_CTRL | WLR_MODIFIER_ALT));
	CHECK(config->attention_keysym == XKB_KEY_Delete);
	cordon_config_destroy(config);
	EXPECT_ERROR("[general]\nsecure-attention-key = Logo+Nokey\n", 2,
		"secure-attention-key must be a key with modifiers such as Logo+Escape, got "
		"'Logo+Nokey'");
}

static void test_explicit_path(void) {
	clear_env();
	char *path = tmp_path("does-not-exist.ini");
	char *want;
	if (asprintf(&want, "%s: No such file or directory", path) < 0) {
		exit(1);
	}
	char *error = NULL;
	CHECK(cordon_config_load(path, &error) == NULL);
	CHECK_STR(error, want);
	free(error);
	free(want);
	free(path);

	/* a directory opens but does not read */
	error = NULL;
	CHECK(cordon_config_load(tmpdir, &error) == NULL);
	if (asprintf(&want, "%s: Is a directory", tmpdir) < 0) {
		exit(1);
	}
	CHECK_STR(error, want);
	free(error);
	free(want);
}

/* Loads the default path, which must give a config and no error. */
static struct cordon_config *load_default_ok(int line) {
	char *error = NULL;
	struct cordon_config *config = cordon_config_load(NULL, &error);
	return require_config(config, error, line);
}

static void test_default_path(void) {
	clear_env();
	char *xdg = tmp_path("xdg");
	char *home = tmp_path("home");

	/* no file anywhere: the defaults, and no error */
	setenv("XDG_CONFIG_HOME", xdg, 1);
	setenv("HOME", home, 1);
	struct cordon_config *config = load_default_ok(__LINE__);
	check_defaults(config);
	cordon_config_destroy(config);

	/* $XDG_CONFIG_HOME/cordon/cordon.ini comes first */
	char *path = write_file("xdg/cordon/cordon.ini", "[keyboard]\nlayout = xdg\n");
	free(write_file("home/.config/cordon/cordon.ini", "[keyboard]\nlayout = home\n"));
	config = load_default_ok(__LINE__);
	CHECK_STR(config->xkb_layout, "xdg");
	cordon_config_destroy(config);

	/* errors in the default file are still errors, named by their full path */
	free(write_file("xdg/cordon/cordon.ini", "[keyboard]\nlayout = xdg\nbogus = 1\n"));
	char *error = NULL;
	CHECK(cordon_config_load(NULL, &error) == NULL);
	char *want;
	if (asprintf(&want, "%s:3: unknown key 'bogus' in [keyboard]", path) < 0) {
		exit(1);
	}
	CHECK_STR(error, want);
	free(want);
	free(error);
	free(path);

	/* ~/.config/cordon/cordon.ini without XDG_CONFIG_HOME, or with a relative one */
	unsetenv("XDG_CONFIG_HOME");
	config = load_default_ok(__LINE__);
	CHECK_STR(config->xkb_layout, "home");
	cordon_config_destroy(config);

	setenv("XDG_CONFIG_HOME", "relative/dir", 1);
	config = load_default_ok(__LINE__);
	CHECK_STR(config->xkb_layout, "home");
	cordon_config_destroy(config);

	/* no home at all */
	clear_env();
	config = load_default_ok(__LINE__);
	check_defaults(config);
	cordon_config_destroy(config);

	free(xdg);
	free(home);
}

/* The example in docs/ must stay loadable. */
static void test_example_file(void) {
	clear_env();
	char *error = NULL;
	struct cordon_config *config = cordon_config_load(CORDON_EXAMPLE_INI, &error);
	config = require_config(config, error, __LINE__);
	CHECK_STR(config->xkb_layout, "us,de");
	CHECK_BINDING(config, LOGO, XKB_KEY_d, CORDON_ACTION_EXEC, "fuzzel");
	cordon_config_destroy(config);
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw) {
	return remove(path);
}

int main(void) {
	if (mkdtemp(tmpdir) == NULL) {
		perror("mkdtemp");
		return 1;
	}

	test_defaults();
	test_env_fallbacks();
	test_every_key();
	test_ranges();
	test_repeated_and_empty_values();
	test_modifiers();
	test_key_combos();
	test_bindings();
	test_binding_replacement();
	test_clear_defaults();
	test_freeze();
	test_errors();
	test_print_max_size();
	test_dialog_grace();
	test_attention_key();
	test_explicit_path();
	test_default_path();
	test_example_file();

	nftw(tmpdir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	if (failures > 0) {
		fprintf(stderr, "%d check(s) failed\n", failures);
		return 1;
	}
	printf("test_config: all checks passed\n");
	return 0;
}
