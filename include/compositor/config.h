/* The compositor's configuration: keyboard, pointer, bindings, from an INI file. */
#ifndef CORDON_COMPOSITOR_CONFIG_H
#define CORDON_COMPOSITOR_CONFIG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <wayland-util.h>
#include <xkbcommon/xkbcommon.h>

enum cordon_action {
	CORDON_ACTION_EXEC,
	CORDON_ACTION_QUIT,
	CORDON_ACTION_CLOSE,
	CORDON_ACTION_FOCUS_NEXT,
	CORDON_ACTION_FOCUS_PREV,
	CORDON_ACTION_MINIMIZE,
	CORDON_ACTION_MAXIMIZE,
	CORDON_ACTION_FULLSCREEN,
	CORDON_ACTION_PASTE_ACROSS, /* explicit cross-boundary paste (docs/mediation.md) */
};

struct cordon_binding {
	uint32_t modifiers; /* WLR_MODIFIER_* mask */
	xkb_keysym_t keysym; /* lower-case keysym */
	enum cordon_action action;
	char *command; /* for CORDON_ACTION_EXEC, run with /bin/sh -c */
	struct wl_list link; /* cordon_config.bindings */
};

struct cordon_config {
	/* [keyboard]; NULL means "use XKB_DEFAULT_* or xkbcommon's default" */
	char *xkb_rules, *xkb_model, *xkb_layout, *xkb_variant, *xkb_options;
	int32_t repeat_rate; /* keys per second */
	int32_t repeat_delay; /* milliseconds */

	/* [pointer] */
	char *xcursor_theme; /* XCURSOR_THEME when unset; NULL: wlroots' "default" theme */
	uint32_t xcursor_size;

	/* [general] */
	char *terminal; /* what the terminal binding runs */
	uint32_t move_modifier; /* modifier+left drag moves, +right drag resizes */
	/* A rootless X server for host X11 apps, started at the first X connection (xwayland.c). */
	bool xwayland;
	/* The secure attention key (compositor/attention.c): never an app's, never inhibited. */
	uint32_t attention_modifiers;
	xkb_keysym_t attention_keysym; /* lower-case, as bindings */

	struct wl_list bindings; /* cordon_binding.link */

	/* [portal] (docs/portals.md); NULL: the built-in dialog, the installed plugin dir */
	char *portal_ui, *portal_plugin_dir, *portal_ui_options;
	/* [portal] camera-timeout-ms and camera-max-bytes; 0: the defaults (portals/camera.c) */
	int32_t portal_camera_timeout_ms, portal_camera_max_bytes;
	/* [portal] camera-launcher: cordon-run's path, "none" (run directly); NULL: BINDIR's */
	char *portal_camera_launcher;
	/* [portal] print-max-size: the largest document the print portal takes; 0: 512 MiB */
	uint64_t portal_print_max_size;
	/* [portal] dialog-grace-ms: how long a dialog ignores input after it appears */
	int32_t portal_dialog_grace_ms;
	/* [freeze] (docs/freeze.md): the defaults for every app */
	bool freeze_sandboxed; /* freeze hidden sandboxed apps */
	bool freeze_host; /* freeze hidden host apps */
	uint32_t freeze_delay_ms; /* how long an app stays hidden before it is frozen */
	uint32_t boost_weight; /* cpu.weight of the focused app's cgroup; 0: no boost */
};

/*
 * Loads the configuration. path NULL means the default location
 * ($XDG_CONFIG_HOME/cordon/cordon.ini, else ~/.config/cordon/cordon.ini),
 * where a missing file is not an error and gives the defaults. An explicit
 * path must exist. On failure returns NULL and sets *error to a malloc'ed
 * "FILE:LINE: reason" message.
 */
struct cordon_config *cordon_config_load(const char *path, char **error);
/* The same from an open stream (a file, or bytes in memory); name is what errors call it. */
struct cordon_config *cordon_config_load_file(FILE *file, const char *name, char **error);
struct cordon_config *cordon_config_create_default(void);
void cordon_config_destroy(struct cordon_config *config);

/* Parses a binding like "Logo+Shift+Return"; false when malformed. */
bool cordon_parse_key_combo(const char *combo, uint32_t *modifiers, xkb_keysym_t *keysym);
bool cordon_parse_modifier(const char *name, uint32_t *modifier);

#endif
