/*
 * Who asks through the D-Bus door. xdg-desktop-portal names the app (it read the
 * caller's /.flatpak-info); when the app also names its window ("wayland:HANDLE", an
 * xdg-foreign export), the window's Wayland client is the caller and its tag, taken by
 * cordon at connect, must carry the same app id: a mismatch is refused, since one of
 * the two is lying about who asks.
 */
#include "portals/dbus.h"

#include <string.h>
#include <wlr/util/log.h>

#include "common/app_id.h"
#include "common/escape.h"
#include "portals/portals.h"

#define WAYLAND_PREFIX "wayland:"

/* The toplevel exported as HANDLE, or NULL. */
static struct wl_resource *find_parent(
	struct cordon_dbus_portal *service, const char *parent_window) {
	if (strncmp(parent_window, WAYLAND_PREFIX, strlen(WAYLAND_PREFIX)) != 0) {
		/* "" (no window), or "x11:XID": cordon has no X server. */
		return NULL;
	}
	const struct cordon_portal_host *host = &service->portals->host;
	return host->exported_toplevel(host->data, parent_window + strlen(WAYLAND_PREFIX));
}

bool cordon_dbus_portal_caller(struct cordon_dbus_portal *service, const char *app_id,
	const char *parent_window, struct cordon_portal_caller *caller, struct wl_resource **parent,
	bool *mismatch) {
	*caller = (struct cordon_portal_caller){.tag = cordon_tag_unknown};
	*mismatch = false;
	*parent = find_parent(service, parent_window);
	if (*parent) {
		struct wl_client *client = wl_resource_get_client(*parent);
		const struct cordon_portal_host *host = &service->portals->host;
		struct cordon_tag tag;
		pid_t pid;
		host->client_identity(host->data, client, &tag, &pid);
		/* An unknown sandbox has no app id to match, not even an empty one. */
		if (cordon_tag_is_unknown(&tag) || strcmp(tag.app_id, app_id) != 0) {
			wlr_log(WLR_ERROR,
				"D-Bus portal: refused: the frontend says app '%s', the "
				"parent window %s belongs to pid %d tagged '%s' (%s)",
				cordon_log_text(app_id), cordon_log_text(parent_window), (int)pid,
				cordon_log_text(tag.app_id), cordon_tag_engine_name(&tag));
			*mismatch = true;
			*parent = NULL;
			return false;
		}
		wlr_log(WLR_INFO, "D-Bus portal: '%s' asks over its window %s (pid %d, %s)",
			cordon_log_text(app_id), cordon_log_text(parent_window), (int)pid,
			cordon_tag_engine_name(&tag));
		caller->client = client;
		caller->tag = tag;
		caller->pid = pid;
		return true;
	}
	/*
	 * No window: the frontend's app id is all there is, and it becomes permission store
	 * keys and log lines, so it must be an app id like every other one cordon tags ("" is
	 * an unsandboxed caller).
	 */
	const char *problem = app_id[0] != '\0' ? cordon_app_id_problem(app_id) : NULL;
	if (problem != NULL) {
		wlr_log(WLR_ERROR, "D-Bus portal: refused: the frontend says app '%s': %s",
			cordon_log_text(app_id), problem);
		return false;
	}
	/* The engine is the frontend's word, not a tag cordon took; an app id means a sandbox
	 * (fail closed). */
	caller->tag = (struct cordon_tag){.engine = CORDON_SANDBOX_OTHER};
	snprintf(caller->tag.engine_name, sizeof(caller->tag.engine_name), "xdg-desktop-portal");
	snprintf(caller->tag.app_id, sizeof(caller->tag.app_id), "%s", app_id);
	caller->tag.sandboxed = app_id[0] != '\0';
	return true;
}
