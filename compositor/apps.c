/*
 * Apps: clients grouped by their sandbox tag and app cgroup, both taken when each client
 * connected (compositor/client.c, sandbox/peer.c). An app lives while it has a client; its
 * cgroup directory is opened when its first client connects, so that what freeze.c later
 * writes goes to the cgroup that client was in, not to whatever a path names by then.
 */
#include "compositor/apps.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wlr/util/log.h>

#include "common/escape.h"
#include "compositor/client.h"
#include "compositor/server.h"
#include "compositor/tag_policy.h"
#include "sandbox/cgroup_mount.h"

struct app_member {
	struct cordon_app *app;
	struct wl_listener destroy;
};

static bool contains(const char *outer, const char *inner) {
	size_t n = strlen(outer);
	if (strcmp(outer, "/") == 0) {
		return true;
	}
	return strncmp(outer, inner, n) == 0 && (inner[n] == '\0' || inner[n] == '/');
}

static struct cordon_app *app_create(
	struct cordon_apps *apps, const struct cordon_tag *tag, char *cgroup) {
	struct cordon_app *app = calloc(1, sizeof(*app));
	if (!app) {
		free(cgroup);
		return NULL;
	}
	app->apps = apps;
	app->tag = *tag;
	app->cgroup = cgroup;
	app->cgroup_fd = -1;
	wl_signal_init(&app->events.destroy);
	/* Unknown means unsafe: if cordon's own cgroup cannot be read, leave every app alone. */
	app->holds_compositor = apps->own_cgroup[0] == '\0' || contains(cgroup, apps->own_cgroup);
	/*
	 * The directory is only ever used to freeze or boost, which an app holding cordon never
	 * is; and clients in cordon's own cgroup (its helpers, a session without app scopes) come
	 * and go often enough for an open and a close each to count.
	 */
	if (apps->cgroup_mount[0] != '\0' && !app->holds_compositor) {
		char *dir = NULL;
		if (asprintf(&dir, "%s%s", apps->cgroup_mount, cgroup) >= 0) {
			app->cgroup_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
			if (app->cgroup_fd < 0) {
				wlr_log_errno(WLR_DEBUG, "Cannot open the cgroup %s", dir);
			}
			free(dir);
		}
	}
	wl_list_insert(apps->apps.prev, &app->link);
	wlr_log(WLR_DEBUG, "New app %s %s%s%s in %s", cordon_sandbox_engine_name(tag->engine),
		cordon_log_text(tag->app_id), tag->instance[0] ? "/" : "",
		cordon_log_text(tag->instance), cordon_log_text(cgroup));
	wl_signal_emit(&apps->events.new_app, app);
	return app;
}

static void app_destroy(struct cordon_app *app) {
	wl_signal_emit(&app->events.destroy, app);
	wl_list_remove(&app->link);
	if (app->cgroup_fd >= 0) {
		close(app->cgroup_fd);
	}
	free(app->cgroup);
	free(app);
}

static void handle_member_destroy(struct wl_listener *listener, void *data) {
	struct app_member *member = wl_container_of(listener, member, destroy);
	struct cordon_app *app = member->app;
	wl_list_remove(&member->destroy.link);
	free(member);
	if (--app->client_count == 0) {
		app_destroy(app);
	}
}

void cordon_apps_add_client(struct cordon_apps *apps, struct cordon_client *client) {
	if (!apps) {
		return;
	}
	struct wl_client *wl_client = client->wl_client;
	const struct cordon_tag *tag = cordon_client_get_tag(client);
	if (cordon_tag_is_unknown(tag)) {
		/* No trustworthy cgroup: nothing to group, freeze or boost. */
		return;
	}
	/* Marked by the policy as the client's tag was, so that a marked app is its unit. */
	char *cgroup = cordon_tag_policy_app_cgroup(apps->server->policy, client->peer.cgroup, tag);
	if (!cgroup) {
		return;
	}
	struct cordon_app *app, *found = NULL;
	wl_list_for_each(app, &apps->apps, link) {
		if (cordon_tag_same_sandbox(&app->tag, tag) && strcmp(app->cgroup, cgroup) == 0) {
			found = app;
			break;
		}
	}
	struct app_member *member = calloc(1, sizeof(*member));
	if (!member) {
		free(cgroup);
		return;
	}
	if (found) {
		free(cgroup);
	} else {
		found = app_create(apps, tag, cgroup);
		if (!found) {
			free(member);
			return;
		}
	}
	member->app = found;
	found->client_count++;
	member->destroy.notify = handle_member_destroy;
	wl_client_add_destroy_listener(wl_client, &member->destroy);
}

struct cordon_app *cordon_app_from_client(struct cordon_apps *apps, struct wl_client *client) {
	if (!apps || !client) {
		return NULL;
	}
	/* Our destroy listener is the way from a wl_client to its app. */
	struct wl_listener *listener =
		wl_client_get_destroy_listener(client, handle_member_destroy);
	if (!listener) {
		return NULL;
	}
	struct app_member *member = wl_container_of(listener, member, destroy);
	return member->app;
}

bool cordon_app_has_client(struct cordon_app *app, struct wl_client *client) {
	return app && cordon_app_from_client(app->apps, client) == app;
}

void cordon_app_describe(const struct cordon_app *app, char *buf, size_t size) {
	snprintf(buf, size, "%s/%s/%s", cordon_sandbox_engine_name(app->tag.engine),
		app->tag.app_id, app->tag.instance);
}

struct cordon_app *cordon_app_find(struct cordon_apps *apps, const char *name) {
	struct cordon_app *app;
	bool full = strchr(name, '/') != NULL;
	wl_list_for_each(app, &apps->apps, link) {
		char described[sizeof(app->tag.app_id) + sizeof(app->tag.instance) + 32];
		cordon_app_describe(app, described, sizeof(described));
		if (full ? strcmp(described, name) == 0
			 : app->tag.app_id[0] != '\0' && strcmp(app->tag.app_id, name) == 0) {
			return app;
		}
	}
	return NULL;
}

/* The "0::" line of /proc/self/cgroup. */
static void read_own_cgroup(char *out, size_t size) {
	out[0] = '\0';
	FILE *file = fopen("/proc/self/cgroup", "re");
	if (!file) {
		return;
	}
	char line[4200];
	while (fgets(line, sizeof(line), file)) {
		if (strncmp(line, "0::", 3) == 0) {
			line[strcspn(line, "\n")] = '\0';
			/* Too long to hold: unknown, so that no app counts as safe to freeze. */
			if (strlen(line + 3) < size) {
				memcpy(out, line + 3, strlen(line + 3) + 1);
			}
			break;
		}
	}
	fclose(file);
}

struct cordon_apps *cordon_apps_create(struct cordon_server *server) {
	struct cordon_apps *apps = calloc(1, sizeof(*apps));
	if (!apps) {
		return NULL;
	}
	apps->server = server;
	wl_list_init(&apps->apps);
	wl_signal_init(&apps->events.new_app);
	if (!cordon_cgroup2_mount(apps->cgroup_mount, sizeof(apps->cgroup_mount))) {
		apps->cgroup_mount[0] = '\0';
		wlr_log(WLR_INFO, "No cgroup v2 hierarchy: apps cannot be frozen or boosted");
	}
	read_own_cgroup(apps->own_cgroup, sizeof(apps->own_cgroup));
	return apps;
}

void cordon_apps_destroy(struct cordon_apps *apps) {
	if (!apps) {
		return;
	}
	/* Clients still connected (a failed start) keep members pointing here: end them. */
	struct wl_client *client;
	wl_client_for_each(client, wl_display_get_client_list(apps->server->display)) {
		struct wl_listener *listener =
			wl_client_get_destroy_listener(client, handle_member_destroy);
		if (listener) {
			handle_member_destroy(listener, NULL);
		}
	}
	free(apps);
}
