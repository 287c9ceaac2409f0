/* Apps: the connected clients that share a sandbox tag and an app cgroup, grouped at connect. */
#ifndef CORDON_COMPOSITOR_APPS_H
#define CORDON_COMPOSITOR_APPS_H

#include <stdbool.h>
#include <stddef.h>
#include <wayland-server-core.h>

#include "sandbox/cgroup_tag.h"

struct cordon_server;
struct cordon_app_freeze;

struct cordon_app {
	struct cordon_apps *apps;
	struct wl_list link; /* cordon_apps.apps */
	struct cordon_tag tag;
	/*
	 * The app's own cgroup, relative to the cgroup2 mount: the sandbox unit (flatpak, snap,
	 * cordon scope) or the host app's systemd unit, else the client's own cgroup. Derived
	 * from the path the kernel gave at the first client's connect, never re-read from a pid.
	 */
	char *cgroup;
	/* That cgroup's directory, opened at connect; -1 when it could not be opened, or when the
	 * app holds cordon (it is never frozen nor boosted). */
	int cgroup_fd;
	/* True when cordon itself runs in this cgroup or below it: never freeze or boost it. */
	bool holds_compositor;
	int client_count;
	struct cordon_app_freeze *freeze; /* freeze.c's state, NULL until it takes the app */

	struct {
		struct wl_signal destroy; /* the last client went away; the app is freed after */
	} events;
};

struct cordon_apps {
	struct cordon_server *server;
	struct wl_list apps; /* cordon_app.link, oldest first */
	char cgroup_mount[4096]; /* empty when no cgroup2 hierarchy is mounted */
	char own_cgroup[4096]; /* cordon's own cgroup v2 path, empty if unknown */

	struct {
		struct wl_signal new_app; /* struct cordon_app * */
	} events;
};

struct cordon_client;

struct cordon_apps *cordon_apps_create(struct cordon_server *server);
/* After every client is gone. */
void cordon_apps_destroy(struct cordon_apps *apps);

/*
 * Puts a client that was just identified into its app (client.c calls it from the
 * client-created handler: the order of a wl_display's client-created listeners is not fixed).
 */
void cordon_apps_add_client(struct cordon_apps *apps, struct cordon_client *client);
/* The app of a client; NULL for a client whose sandbox is unknown (it is in no app). */
struct cordon_app *cordon_app_from_client(struct cordon_apps *apps, struct wl_client *client);
bool cordon_app_has_client(struct cordon_app *app, struct wl_client *client);
/* "engine/app_id/instance" into buf, e.g. "flatpak/org.example.App/42" or "host//". */
void cordon_app_describe(const struct cordon_app *app, char *buf, size_t size);
/* An app by app id (the first match) or by "engine/app_id/instance"; NULL if none. */
struct cordon_app *cordon_app_find(struct cordon_apps *apps, const char *name);

#endif
