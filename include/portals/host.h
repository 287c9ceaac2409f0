/*
 * What the portal host needs of the compositor it runs in, and nothing more. The compositor
 * fills one (compositor/portal_host.c) and hands it to cordon_portals_create; the portals
 * library is linked without the compositor (portals/meson.build), so this is its only way
 * back into it.
 */
#ifndef CORDON_PORTALS_HOST_H
#define CORDON_PORTALS_HOST_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <systemd/sd-bus.h>
#include <wayland-server-core.h>

struct cordon_policy;
struct cordon_tag;
struct cordon_ui_font;
struct wlr_box;
struct wlr_scene_tree;
struct wlr_surface;

/* Room for an escaped app id and the engine, as a window label has. */
#define CORDON_PORTAL_LABEL_TEXT_MAX 512

/* How a requester is named in a dialog's frame: as the label on its windows says. */
struct cordon_portal_label {
	bool shown; /* false: a host app, whose windows have no label */
	uint32_t color; /* 0xRRGGBB */
	char text[CORDON_PORTAL_LABEL_TEXT_MAX]; /* printable: escaped, never the app's title */
};

/*
 * [portal] in cordon.ini (docs/config.md). 0 or NULL, but for the grace: the portals'
 * defaults. The strings are the compositor's and outlive the portals.
 */
struct cordon_portal_settings {
	const char *ui; /* "auto", "builtin", "none", or a plugin's file name */
	const char *ui_plugin_dir;
	const char *ui_options;
	int32_t dialog_grace_ms; /* 0: no grace */
	int32_t camera_timeout_ms, camera_max_bytes;
	const char *camera_launcher; /* cordon-run's path, or "none" */
	uint64_t print_max_size;
};

struct cordon_portal_host {
	/* The portal manager global is made on it. */
	struct wl_display *display;
	/* Runs the portals' timers, pipes, child processes and idle callbacks. */
	struct wl_event_loop *event_loop;
	/*
	 * The scene's root: the portal layer is made in it after every other layer, so that
	 * dialogs and the camera indicator are drawn above every app.
	 */
	struct wlr_scene_tree *scene_root;
	/* policy.ini: the "portals" and "camera-providers" lists of each app; NULL for none. */
	const struct cordon_policy *policy;
	struct cordon_portal_settings settings;
	/* The D-Bus door and folder grants go through it; NULL without a session bus. */
	sd_bus *session_bus;

	/* Handed back to every callback below; every one of them is set. */
	void *data;
	/*
	 * Messages were queued on session_bus outside a bus callback: the compositor's loop
	 * must flush them and poll for what sd-bus now waits for.
	 */
	void (*session_bus_changed)(void *data);
	/*
	 * Who CLIENT is, as cordon proved it at connect: its tag (cordon_tag_unknown when not
	 * known, never a host tag) and its pid (0 when not identified). Never the client's word.
	 */
	void (*client_identity)(
		void *data, struct wl_client *client, struct cordon_tag *tag, pid_t *pid);
	/* Thaws CLIENT's app if it is frozen: a portal's answer is about to reach it. */
	void (*wake_client)(void *data, struct wl_client *client, const char *reason);
	/*
	 * The xdg_toplevel an app exported as HANDLE (xdg-foreign-v2), or NULL: how a D-Bus
	 * request names its parent window.
	 */
	struct wl_resource *(*exported_toplevel)(void *data, const char *handle);
	/*
	 * The layout box of the shown window whose main surface is SURFACE; false when there is
	 * no such window or it is not mapped. A dialog goes on its parent window's output.
	 */
	bool (*window_box)(void *data, struct wlr_surface *surface, struct wlr_box *box);
	/* The pointer's layout position; false without a seat. Dialogs without parents go there. */
	bool (*pointer_position)(void *data, double *lx, double *ly);
	/* The layout box of the output under a point, else of the first; false without outputs. */
	bool (*output_box_at)(void *data, double lx, double ly, struct wlr_box *box);
	/* The label TAG's windows carry, so that a dialog's frame names its requester alike. */
	void (*label_for_tag)(
		void *data, const struct cordon_tag *tag, struct cordon_portal_label *label);
	/* The labels' font (loaded once, shared) for that name; NULL when none loads. */
	struct cordon_ui_font *(*label_font)(void *data);
	/*
	 * A dialog gave the keyboard back: the focused app is sent the modifiers as they are
	 * now, since those it saw last are from before the dialog.
	 */
	void (*keyboard_returned)(void *data);
};

#endif
