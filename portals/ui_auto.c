/*
 * The auto UI plugin, for tests and kiosks ([portal] ui = auto in cordon.ini): no
 * person, the answer to every file chooser request is the list of host paths, one
 * per line, in the file named by [portal] ui-options (an absolute path), read when
 * the request comes.
 * An empty file cancels; a missing file leaves the dialog open, like a person
 * who has not answered yet (until the app or its window goes away).
 *
 * Camera requests read the same file: a line "camera-provider=ID" takes a photo
 * with the provider of that id, "camera-stream=allow" consents to a stream (with
 * the provider a "camera-provider=ID" line names, else the first); a file without
 * the line for the request cancels it. File chooser requests skip
 * "camera-" lines, so one file can answer both.
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
	const char *answers = options;
	if (!answers || answers[0] != '/') {
		host->log(CORDON_PORTAL_UI_LOG_ERROR,
			"[portal] ui = auto needs ui-options, the absolute path of the answers file");
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

#define CAMERA_PREFIX "camera-"
#define PROVIDER_KEY "camera-provider="
#define STREAM_LINE "camera-stream=allow"

/* A camera answer: the line for this kind of request, or a cancel. */
static void answer_camera(const struct cordon_portal_ui_host *host,
	struct cordon_portal_ui_dialog *dialog, const struct cordon_portal_ui_request *request,
	FILE *file) {
	char *line = NULL;
	size_t size = 0;
	ssize_t len;
	bool accepted = false;
	bool stream = request->portal == CORDON_PORTAL_UI_CAMERA_STREAM;
	bool consented = false;
	while (!accepted && (len = getline(&line, &size, file)) > 0) {
		if (line[len - 1] == '\n') {
			line[--len] = '\0';
		}
		if (stream && strcmp(line, STREAM_LINE) == 0) {
			consented = true;
			continue;
		}
		if (strncmp(line, PROVIDER_KEY, strlen(PROVIDER_KEY)) != 0) {
			continue;
		}
		const char *id = line + strlen(PROVIDER_KEY);
		bool chosen = false;
		for (size_t i = 0; i < request->provider_count; i++) {
			if (strcmp(request->providers[i].id, id) == 0) {
				chosen = host->choose_provider(dialog, i);
			}
		}
		/* A stream reads on for its consent; a photo is taken with the first fit. */
		accepted = chosen && !stream;
		if (!chosen) {
			host->log(CORDON_PORTAL_UI_LOG_INFO,
				"auto: request %s: no provider '%s' "
				"among the %zu offered",
				request->token, id, request->provider_count);
		}
	}
	free(line);
	accepted = accepted || consented;
	host->log(CORDON_PORTAL_UI_LOG_INFO, "auto: request %s from '%s' (%s): camera %s%s",
		request->token, request->app.app_id, request->app.engine,
		request->portal == CORDON_PORTAL_UI_CAMERA_STREAM ? "stream" : "photo",
		accepted ? "" : ", cancelled");
	if (accepted) {
		host->done(dialog);
	} else {
		host->cancel(dialog);
	}
}

static bool auto_open(void *data, struct cordon_portal_ui_dialog *dialog,
	const struct cordon_portal_ui_request *request) {
	struct auto_plugin *plugin = data;
	const struct cordon_portal_ui_host *host = plugin->host;
	if (request->portal == CORDON_PORTAL_UI_PRINT) {
		host->log(CORDON_PORTAL_UI_LOG_INFO,
			"auto: print dialog for request %s from '%s' "
			"(%s), %zu printers",
			request->token, request->app.app_id, request->app.engine,
			request->printer_count);
	}
	FILE *file = fopen(plugin->answers, "re");
	if (!file) {
		host->log(CORDON_PORTAL_UI_LOG_INFO, "auto: request %s from '%s' waits: %s: %s",
			request->token, request->app.app_id, plugin->answers, strerror(errno));
		return true;
	}
	if (request->portal == CORDON_PORTAL_UI_CAMERA_PHOTO ||
		request->portal == CORDON_PORTAL_UI_CAMERA_STREAM) {
		answer_camera(host, dialog, request, file);
		fclose(file);
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
		if (len == 0 || strncmp(line, CAMERA_PREFIX, strlen(CAMERA_PREFIX)) == 0 ||
			print_line != (request->portal == CORDON_PORTAL_UI_PRINT)) {
			continue;
		}
		answers++;
		if (print_line) {
			char *eq = strchr(line, '=');
			if (eq) {
				*eq = '\0';
			}
			host->log(CORDON_PORTAL_UI_LOG_INFO,
				"auto: print request %s from '%s' (%s): "
				"%s=%s",
				request->token, request->app.app_id, request->app.engine, line + 6,
				eq ? eq + 1 : "");
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
