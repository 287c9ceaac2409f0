/*
 * The auto UI plugin, for tests and kiosks (CORDON_PORTAL_UI=auto): no person,
 * the answer to every file chooser request is the list of host paths, one per
 * line, in the file named by CORDON_PORTAL_AUTO, read when the request comes.
 * An empty file cancels; a missing file leaves the dialog open, like a person
 * who has not answered yet (until the app or its window goes away).
 *
 * Print requests are answered with the file's "print.KEY=VALUE" lines (such as
 * print.printer=PDF, print.copies=2), the settings the user chooses; a file
 * without such lines cancels. File chooser requests skip those lines, and print
 * requests skip the paths, so one file can answer both.
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
	if (request->portal == CORDON_PORTAL_UI_PRINT) {
		host->log(CORDON_PORTAL_UI_LOG_INFO, "auto: print dialog for request %s from '%s' "
			"(%s), %zu printers", request->token, request->app.app_id, request->app.engine,
			request->printer_count);
	}
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
		bool print_line = strncmp(line, "print.", 6) == 0;
		if (len == 0 || print_line != (request->portal == CORDON_PORTAL_UI_PRINT)) {
			continue;
		}
		answers++;
		if (print_line) {
			char *eq = strchr(line, '=');
			if (eq) {
				*eq = '\0';
			}
			host->log(CORDON_PORTAL_UI_LOG_INFO, "auto: print request %s from '%s' (%s): "
				"%s=%s", request->token, request->app.app_id, request->app.engine,
				line + 6, eq ? eq + 1 : "");
			/* A refused setting is logged by cordon; the rest still counts. */
			host->set_print_setting(dialog, line + 6, eq ? eq + 1 : "");
			continue;
		}
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
