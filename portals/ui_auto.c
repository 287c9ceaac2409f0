/*
 * The auto UI plugin, for tests and kiosks (CORDON_PORTAL_UI=auto): no person,
 * the answer to every file chooser request is the list of host paths, one per
 * line, in the file named by CORDON_PORTAL_AUTO, read when the request comes.
 * An empty file cancels; a missing file leaves the dialog open, like a person
 * who has not answered yet (until the app or its window goes away).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "portals/ui_plugin.h"

struct auto_plugin {
	const struct cordon_portal_ui_host *host;
	char *answers;
};

static void *auto_create(const struct cordon_portal_ui_host *host, const char *options) {
	const char *answers = getenv("CORDON_PORTAL_AUTO");
	if (!answers || answers[0] != '/') {
		host->log(CORDON_PORTAL_UI_LOG_ERROR,
			"CORDON_PORTAL_UI=auto needs CORDON_PORTAL_AUTO, an absolute path");
		return NULL;
	}
	struct auto_plugin *plugin = calloc(1, sizeof(*plugin));
	if (!plugin) {
		return NULL;
	}
	plugin->host = host;
	plugin->answers = strdup(answers);
	if (!plugin->answers) {
		free(plugin);
		return NULL;
	}
	return plugin;
}

static void auto_destroy(void *data) {
	struct auto_plugin *plugin = data;
	free(plugin->answers);
	free(plugin);
}

static bool auto_open(void *data, struct cordon_portal_ui_dialog *dialog,
		const struct cordon_portal_ui_request *request) {
	struct auto_plugin *plugin = data;
	const struct cordon_portal_ui_host *host = plugin->host;
	FILE *file = fopen(plugin->answers, "re");
	if (!file) {
		host->log(CORDON_PORTAL_UI_LOG_INFO, "auto: request %s from '%s' waits: %s: %s",
			request->token, request->app.app_id, plugin->answers, strerror(errno));
		return true;
	}
	char *line = NULL;
	size_t size = 0;
	ssize_t len;
	size_t answers = 0;
	while ((len = getline(&line, &size, file)) > 0) {
		if (line[len - 1] == '\n') {
			line[--len] = '\0';
		}
		if (len == 0) {
			continue;
		}
		answers++;
		host->log(CORDON_PORTAL_UI_LOG_INFO, "auto: request %s from '%s' (%s): %s",
			request->token, request->app.app_id, request->app.engine, line);
		host->choose_path(dialog, line);
	}
	free(line);
	fclose(file);
	if (answers == 0) {
		host->cancel(dialog);
	} else {
		host->done(dialog);
	}
	return true;
}

static void auto_close(void *data, struct cordon_portal_ui_dialog *dialog) {
}

static const struct cordon_portal_ui_plugin auto_plugin = {
	.abi_version = CORDON_PORTAL_UI_ABI_VERSION,
	.name = "auto",
	.create = auto_create,
	.destroy = auto_destroy,
	.open = auto_open,
	.close = auto_close,
};

const struct cordon_portal_ui_plugin *cordon_portal_ui_auto_plugin(void) {
	return &auto_plugin;
}
