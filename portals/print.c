/*
 * The print portal. The app hands over a document as an fd; the user chooses the
 * printer and settings in cordon's dialog (with the printers' real options from
 * CUPS); cordon reads the document and submits the job itself. The app never
 * talks to CUPS and learns nothing of the printers beyond what the user chose.
 *
 * A pipe is read here, non-blocking through the event loop, into a sealed memfd;
 * a regular file is read by the CUPS thread with pread (portals/cups.c). Either
 * way at most the configured size is taken, and nothing is ever opened by path.
 * A prepare answers with a token; one print of the same app with that token (and
 * not modal) skips the dialog, as xdg-desktop-portal's print portal does.
 */
#include "portals/print.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <wlr/util/log.h>

#include "cordon-portal-v1-protocol.h"
#include "cordon/portal-ui.h"
#include "portals/cups.h"
#include "portals/permission_store.h"
#include "portals/portals.h"
#include "portals/print_settings.h"
#include "portals/request.h"

#define MAX_TITLE 4096
#define MAX_VALUE 256
#define MAX_SETTINGS 16
#define TOKEN_LIFETIME_NS (5ull * 60 * 1000000000)
#define MAX_TOKENS 64
/* Reads of a pipe per wake-up: a fast writer cannot keep the compositor to itself. */
#define PIPE_READS_PER_WAKE 16
#define PIPE_CHUNK 65536

static const char *const printable_types[] = {
	"application/pdf",
	"application/postscript",
	"image/png",
	"image/jpeg",
};

struct setting {
	char *key, *value;
};

struct settings {
	struct setting items[MAX_SETTINGS];
	size_t count;
};

struct token {
	struct wl_list link;
	char token[CORDON_PORTAL_TOKEN_LEN + 1];
	struct cordon_tag tag; /* the app it was made for; matched with cordon_tag_same_sandbox */
	uint64_t expires; /* CLOCK_MONOTONIC ns */
	struct settings settings;
};

struct cordon_print_portal {
	struct cordon_portals *portals;
	struct cordon_cups *cups;
	struct wl_list tokens; /* token.link, oldest first */
	size_t token_count;
	struct wl_list prints; /* print.link */
	uint64_t max_size;
};

struct cordon_print {
	struct wl_list link; /* cordon_print_portal.prints */
	struct wl_resource *resource; /* NULL: the D-Bus door's, answered through answer */
	cordon_print_answer_func answer;
	void *answer_data;
	struct cordon_portal_request *request;
	struct cordon_print_portal *portal;
	bool prepare;
	bool submitted;
	char *title;
	struct settings suggested; /* the app's */
	struct settings chosen; /* the user's, from the dialog or a token */
	struct cordon_portal_ui_print_setting ui_settings[MAX_SETTINGS];
	bool modal;
	char *token;
	int doc_fd; /* the app's; -1 if none */
	char *mime_type;
	/* A pipe is read into the memfd; a regular file is used as it is. */
	struct wl_event_source *pipe_source;
	int memfd;
	uint64_t doc_size;
	bool doc_ready;
	bool confirmed; /* the settings are final */
	struct cordon_cups_task *task;
	struct cordon_cups_printers *printers;
	uint32_t job_id;
	char new_token[CORDON_PORTAL_TOKEN_LEN + 1];
};

static uint64_t now_ns(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void settings_clear(struct settings *settings) {
	for (size_t i = 0; i < settings->count; i++) {
		free(settings->items[i].key);
		free(settings->items[i].value);
	}
	settings->count = 0;
}

static bool settings_set(struct settings *settings, const char *key, const char *value) {
	char *copy = strdup(value);
	if (!copy) {
		return false;
	}
	for (size_t i = 0; i < settings->count; i++) {
		if (strcmp(settings->items[i].key, key) == 0) {
			free(settings->items[i].value);
			settings->items[i].value = copy;
			return true;
		}
	}
	char *key_copy = strdup(key);
	if (settings->count == MAX_SETTINGS || !key_copy) {
		free(copy);
		free(key_copy);
		return false;
	}
	settings->items[settings->count++] = (struct setting){key_copy, copy};
	return true;
}

static bool settings_copy(struct settings *to, const struct settings *from) {
	settings_clear(to);
	for (size_t i = 0; i < from->count; i++) {
		if (!settings_set(to, from->items[i].key, from->items[i].value)) {
			return false;
		}
	}
	return true;
}

static const char *settings_get(const struct settings *settings, const char *key) {
	for (size_t i = 0; i < settings->count; i++) {
		if (strcmp(settings->items[i].key, key) == 0) {
			return settings->items[i].value;
		}
	}
	return NULL;
}

static struct cordon_print *print_from_resource(struct wl_resource *resource) {
	return wl_resource_get_user_data(resource);
}

/* Stops reading and sending; called once the request is answered or goes away. */
static void release_transient(struct cordon_print *print) {
	if (print->pipe_source) {
		wl_event_source_remove(print->pipe_source);
		print->pipe_source = NULL;
	}
	if (print->memfd >= 0) {
		close(print->memfd);
		print->memfd = -1;
	}
	if (print->doc_fd >= 0) {
		close(print->doc_fd);
		print->doc_fd = -1;
	}
	/* A job being sent is finished by its thread: the user asked for it. */
	cordon_cups_task_detach(print->task);
	print->task = NULL;
}

void cordon_print_destroy(struct cordon_print *print) {
	/* Closes the dialog first: it points into the printers and settings freed below. */
	cordon_portal_request_destroy(print->request);
	release_transient(print);
	wl_list_remove(&print->link);
	cordon_cups_printers_free(print->printers);
	settings_clear(&print->suggested);
	settings_clear(&print->chosen);
	free(print->title);
	free(print->token);
	free(print->mime_type);
	free(print);
}

static void handle_resource_destroy(struct wl_resource *resource) {
	cordon_print_destroy(print_from_resource(resource));
}

static bool check_configuring(struct cordon_print *print) {
	if (!print->submitted && print->request->state == CORDON_PORTAL_REQUEST_CONFIGURING) {
		return true;
	}
	wl_resource_post_error(print->resource, CORDON_PORTAL_PRINT_V1_ERROR_ALREADY_SUBMITTED,
		"options and submit are only accepted before submit");
	return false;
}

static bool check_print_only(struct cordon_print *print, const char *option) {
	if (!print->prepare) {
		return true;
	}
	wl_resource_post_error(print->resource, CORDON_PORTAL_PRINT_V1_ERROR_INVALID_OPTION,
		"%s only applies to print requests", option);
	return false;
}

static void handle_destroy(struct wl_client *client, struct wl_resource *resource) {
	wl_resource_destroy(resource);
}

static void handle_set_title(
	struct wl_client *client, struct wl_resource *resource, const char *title) {
	struct cordon_print *print = print_from_resource(resource);
	if (!check_configuring(print)) {
		return;
	}
	if (strlen(title) >= MAX_TITLE) {
		wl_resource_post_error(resource, CORDON_PORTAL_PRINT_V1_ERROR_INVALID_OPTION,
			"the title is longer than %d bytes", MAX_TITLE - 1);
		return;
	}
	char *copy = strdup(title);
	if (!copy) {
		wl_client_post_no_memory(client);
		return;
	}
	free(print->title);
	print->title = copy;
}

static void handle_set_parent(
	struct wl_client *client, struct wl_resource *resource, struct wl_resource *parent) {
	struct cordon_print *print = print_from_resource(resource);
	if (check_configuring(print) && !cordon_portal_request_set_parent(print->request, parent)) {
		wl_resource_post_error(resource, CORDON_PORTAL_PRINT_V1_ERROR_BAD_PARENT,
			"the parent toplevel is not the client's own");
	}
}

static void suggest(struct cordon_print *print, const char *key, const char *value) {
	const char *why;
	if (!check_configuring(print)) {
		return;
	}
	if (!cordon_print_setting_valid(key, value, &why)) {
		wl_resource_post_error(print->resource, CORDON_PORTAL_PRINT_V1_ERROR_INVALID_OPTION,
			"setting '%.64s': %s", key, why);
		return;
	}
	if (!settings_set(&print->suggested, key, value)) {
		wl_client_post_no_memory(wl_resource_get_client(print->resource));
	}
}

static void handle_set_setting(struct wl_client *client, struct wl_resource *resource,
	const char *key, const char *value) {
	suggest(print_from_resource(resource), key, value);
}

static void handle_set_page_setup(struct wl_client *client, struct wl_resource *resource,
	const char *key, const char *value) {
	if (strcmp(key, "media") != 0 && strcmp(key, "orientation-requested") != 0) {
		wl_resource_post_error(resource, CORDON_PORTAL_PRINT_V1_ERROR_INVALID_OPTION,
			"the page setup is media or orientation-requested, not '%.64s'", key);
		return;
	}
	suggest(print_from_resource(resource), key, value);
}

static void handle_set_modal(
	struct wl_client *client, struct wl_resource *resource, uint32_t modal) {
	struct cordon_print *print = print_from_resource(resource);
	if (!check_configuring(print) || !check_print_only(print, "modal")) {
		return;
	}
	if (modal > 1) {
		wl_resource_post_error(resource, CORDON_PORTAL_PRINT_V1_ERROR_INVALID_OPTION,
			"modal must be 0 or 1, not %u", modal);
		return;
	}
	print->modal = modal;
}

static void handle_set_token(
	struct wl_client *client, struct wl_resource *resource, const char *token) {
	struct cordon_print *print = print_from_resource(resource);
	if (!check_configuring(print) || !check_print_only(print, "a token")) {
		return;
	}
	if (strlen(token) > CORDON_PORTAL_TOKEN_LEN) {
		wl_resource_post_error(resource, CORDON_PORTAL_PRINT_V1_ERROR_INVALID_OPTION,
			"a token is %d hex digits", CORDON_PORTAL_TOKEN_LEN);
		return;
	}
	char *copy = strdup(token);
	if (!copy) {
		wl_client_post_no_memory(client);
		return;
	}
	free(print->token);
	print->token = copy;
}

static void handle_set_document(
	struct wl_client *client, struct wl_resource *resource, int32_t fd, const char *mime_type) {
	struct cordon_print *print = print_from_resource(resource);
	if (!check_configuring(print) || !check_print_only(print, "a document")) {
		close(fd);
		return;
	}
	char *copy = strlen(mime_type) < MAX_VALUE ? strdup(mime_type) : NULL;
	if (!copy) {
		close(fd);
		wl_resource_post_error(resource, CORDON_PORTAL_PRINT_V1_ERROR_INVALID_OPTION,
			"the mime type is longer than %d bytes", MAX_VALUE - 1);
		return;
	}
	if (print->doc_fd >= 0) {
		close(print->doc_fd);
	}
	free(print->mime_type);
	print->doc_fd = fd;
	print->mime_type = copy;
}

static void fail(struct cordon_print *print, uint32_t failure, const char *reason) {
	/* The print failures extend the shared ones (cordon-portal-v1.xml keeps 0-3 alike). */
	cordon_portal_request_fail(print->request, (enum cordon_portal_failure)failure, reason);
}

static void handle_job_done(void *data, const struct cordon_cups_result *result) {
	struct cordon_print *print = data;
	print->task = NULL;
	if (result->error) {
		wlr_log(WLR_ERROR, "Print request %s: %s", print->request->token, result->error);
		fail(print, CORDON_PORTAL_PRINT_V1_FAILURE_PRINTING, result->error);
		return;
	}
	print->job_id = (uint32_t)result->job_id;
	wlr_log(WLR_INFO, "Print request %s: job %d on %s is %s", print->request->token,
		result->job_id, settings_get(&print->chosen, "printer"), result->job_state);
	struct cordon_portal_response response = {.result = CORDON_PORTAL_CHOSEN};
	cordon_portal_request_respond(print->request, &response);
}

/* Sends the job once both the document and the settings are there. */
static void maybe_start_job(struct cordon_print *print) {
	if (!print->confirmed || !print->doc_ready || print->task ||
		print->request->state == CORDON_PORTAL_REQUEST_ANSWERED) {
		return;
	}
	const char *names[MAX_SETTINGS], *values[MAX_SETTINGS];
	size_t count = 0;
	for (size_t i = 0; i < print->chosen.count; i++) {
		if (strcmp(print->chosen.items[i].key, "printer") != 0) {
			names[count] = print->chosen.items[i].key;
			values[count++] = print->chosen.items[i].value;
		}
	}
	struct cordon_cups_job job = {
		.printer = settings_get(&print->chosen, "printer"),
		.title = print->title ? print->title : "Document",
		.format = print->mime_type,
		.fd = print->memfd >= 0 ? print->memfd : print->doc_fd,
		.max_size = print->portal->max_size,
		.option_names = names,
		.option_values = values,
		.option_count = count,
	};
	print->task = cordon_cups_submit(print->portal->cups, &job, handle_job_done, print);
	if (!print->task) {
		fail(print, CORDON_PORTAL_PRINT_V1_FAILURE_PRINTING,
			"cannot start sending the job");
	}
}

/*
 * The same app: the same sandbox by the one comparison (two engines cordon knows only by
 * name are two apps), or the same client when it has no app id (or is an unknown sandbox).
 */
static bool same_app(const struct cordon_portal_request *a, const struct cordon_portal_request *b) {
	if (!cordon_portal_request_app_id(a)[0]) {
		return a->client == b->client;
	}
	return cordon_tag_same_sandbox(&a->tag, &b->tag);
}

/*
 * What the app's pipes have put in cordon's memory so far: one limit for all of
 * them, or 8 requests on each of many connections could hold many times the limit
 * (SECURITY-NOTES: per-client caps).
 */
static uint64_t app_buffered(struct cordon_print *print) {
	uint64_t total = 0;
	struct cordon_print *other;
	wl_list_for_each(other, &print->portal->prints, link) {
		if (other->memfd >= 0 && same_app(other->request, print->request)) {
			total += other->doc_size;
		}
	}
	return total;
}

static int handle_pipe_readable(int fd, uint32_t mask, void *data) {
	struct cordon_print *print = data;
	char buffer[PIPE_CHUNK];
	for (int i = 0; i < PIPE_READS_PER_WAKE; i++) {
		ssize_t n = read(fd, buffer, sizeof(buffer));
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n < 0 && errno == EAGAIN) {
			return 0;
		}
		if (n < 0) {
			fail(print, CORDON_PORTAL_PRINT_V1_FAILURE_IO,
				"the document cannot be read");
			return 0;
		}
		if (n == 0) {
			wl_event_source_remove(print->pipe_source);
			print->pipe_source = NULL;
			/* Sealed: what was measured is what is printed. */
			fcntl(print->memfd, F_ADD_SEALS,
				F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL);
			print->doc_ready = true;
			wlr_log(WLR_DEBUG, "Print request %s: read %llu bytes from a pipe",
				print->request->token, (unsigned long long)print->doc_size);
			maybe_start_job(print);
			return 0;
		}
		if (print->doc_size + (uint64_t)n > print->portal->max_size) {
			fail(print, CORDON_PORTAL_PRINT_V1_FAILURE_TOO_LARGE,
				"the document is larger than the print size limit");
			return 0;
		}
		if (app_buffered(print) + (uint64_t)n > print->portal->max_size) {
			fail(print, CORDON_PORTAL_PRINT_V1_FAILURE_TOO_LARGE,
				"the app's documents being read are together over the print size limit");
			return 0;
		}
		for (ssize_t done = 0; done < n;) {
			ssize_t w = write(print->memfd, buffer + done, (size_t)(n - done));
			if (w < 0 && errno == EINTR) {
				continue;
			}
			if (w <= 0) {
				fail(print, CORDON_PORTAL_PRINT_V1_FAILURE_IO,
					"no memory to hold the document");
				return 0;
			}
			done += w;
		}
		print->doc_size += (uint64_t)n;
	}
	return 0;
}

/* Checks the document's fd and starts reading a pipe; false after failing the request. */
static bool setup_document(struct cordon_print *print) {
	bool printable = false;
	for (size_t i = 0; i < sizeof(printable_types) / sizeof(printable_types[0]); i++) {
		printable = printable || strcmp(print->mime_type, printable_types[i]) == 0;
	}
	if (!printable) {
		fail(print, CORDON_PORTAL_PRINT_V1_FAILURE_BAD_DOCUMENT,
			"the document type is not one cordon prints (PDF, PostScript, PNG, JPEG)");
		return false;
	}
	struct stat st;
	int flags = fcntl(print->doc_fd, F_GETFL);
	if (fstat(print->doc_fd, &st) != 0 || flags < 0) {
		fail(print, CORDON_PORTAL_PRINT_V1_FAILURE_IO, "the document cannot be read");
		return false;
	}
	if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) {
		fail(print, CORDON_PORTAL_PRINT_V1_FAILURE_BAD_DOCUMENT,
			"the document must be a regular file or a pipe");
		return false;
	}
	if ((flags & O_ACCMODE) == O_WRONLY) {
		fail(print, CORDON_PORTAL_PRINT_V1_FAILURE_BAD_DOCUMENT,
			"the document's fd is not open for reading");
		return false;
	}
	if (S_ISREG(st.st_mode)) {
		if ((uint64_t)st.st_size > print->portal->max_size) {
			fail(print, CORDON_PORTAL_PRINT_V1_FAILURE_TOO_LARGE,
				"the document is larger than the print size limit");
			return false;
		}
		print->doc_size = (uint64_t)st.st_size;
		print->doc_ready = true;
		return true;
	}
	/* A pipe: never a blocking read on the compositor's thread. */
	print->memfd = memfd_create("cordon-print", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (print->memfd < 0 || fcntl(print->doc_fd, F_SETFL, flags | O_NONBLOCK) != 0) {
		fail(print, CORDON_PORTAL_PRINT_V1_FAILURE_IO, "cannot make room for the document");
		return false;
	}
	print->pipe_source = wl_event_loop_add_fd(print->portal->portals->host.event_loop,
		print->doc_fd, WL_EVENT_READABLE, handle_pipe_readable, print);
	if (!print->pipe_source) {
		fail(print, CORDON_PORTAL_PRINT_V1_FAILURE_IO, "cannot read the document");
		return false;
	}
	return true;
}

static void expire_tokens(struct cordon_print_portal *portal) {
	uint64_t now = now_ns();
	struct token *token, *tmp;
	wl_list_for_each_safe(token, tmp, &portal->tokens, link) {
		if (token->expires <= now || portal->token_count > MAX_TOKENS) {
			wl_list_remove(&token->link);
			settings_clear(&token->settings);
			free(token);
			portal->token_count--;
		}
	}
}

/* Takes the token if it is the same app's and recent: its settings become the choice. */
static bool use_token(struct cordon_print *print) {
	struct cordon_print_portal *portal = print->portal;
	expire_tokens(portal);
	const struct cordon_portal_request *request = print->request;
	const char *app_id = cordon_portal_request_app_id(request);
	if (!print->token || !app_id[0]) {
		return false;
	}
	struct token *token;
	wl_list_for_each(token, &portal->tokens, link) {
		if (strcmp(token->token, print->token) == 0 &&
			cordon_tag_same_sandbox(&token->tag, &request->tag)) {
			bool ok = settings_copy(&print->chosen, &token->settings);
			/* One print per token. */
			wl_list_remove(&token->link);
			settings_clear(&token->settings);
			free(token);
			portal->token_count--;
			return ok;
		}
	}
	wlr_log(WLR_INFO,
		"Print request %s: the token is unknown, expired or another app's: "
		"asking",
		request->token);
	return false;
}

static void handle_printers_listed(void *data, const struct cordon_cups_result *result) {
	struct cordon_print *print = data;
	print->task = NULL;
	if (result->error) {
		wlr_log(WLR_ERROR, "Print request %s: %s", print->request->token, result->error);
		fail(print, CORDON_PORTAL_PRINT_V1_FAILURE_PRINTING, result->error);
		return;
	}
	print->printers = result->printers;
	if (print->printers->count == 0) {
		fail(print, CORDON_PORTAL_PRINT_V1_FAILURE_PRINTING, "no printer is set up");
		return;
	}
	for (size_t i = 0; i < print->suggested.count; i++) {
		print->ui_settings[i] = (struct cordon_portal_ui_print_setting){
			print->suggested.items[i].key, print->suggested.items[i].value};
	}
	struct cordon_portal_ui_request options = {
		.portal = CORDON_PORTAL_UI_PRINT,
		.title = print->title ? print->title : "Document",
		.printers = print->printers->printers,
		.printer_count = print->printers->count,
		.print_settings = print->ui_settings,
		.print_setting_count = print->suggested.count,
		.print_prepare_only = print->prepare,
	};
	/* Checks the permission again (it may have changed) and opens the dialog. */
	cordon_portal_request_submit(print->request, &options);
}

void cordon_print_submit(struct cordon_print *print) {
	print->submitted = true;
	enum cordon_portal_failure failure;
	const char *reason;
	/* Denied without a dialog, and before cordon reads a byte or asks CUPS anything. */
	if (!cordon_portal_request_check(print->request, &failure, &reason)) {
		cordon_portal_request_fail(print->request, failure, reason);
		return;
	}
	if (!print->prepare && !setup_document(print)) {
		return;
	}
	/* Waiting from now on (for CUPS, the document, the user): a parent that goes cancels. */
	print->request->state = CORDON_PORTAL_REQUEST_PENDING;
	if (!print->prepare && !print->modal && use_token(print)) {
		wlr_log(WLR_INFO, "Print request %s: a valid token, no dialog",
			print->request->token);
		print->confirmed = true;
		maybe_start_job(print);
		return;
	}
	print->task = cordon_cups_list(print->portal->cups, handle_printers_listed, print);
	if (!print->task) {
		fail(print, CORDON_PORTAL_PRINT_V1_FAILURE_PRINTING,
			"cannot ask the printing service");
	}
}

static void handle_submit(struct wl_client *client, struct wl_resource *resource) {
	struct cordon_print *print = print_from_resource(resource);
	if (!check_configuring(print)) {
		return;
	}
	if (!print->prepare && print->doc_fd < 0) {
		wl_resource_post_error(resource, CORDON_PORTAL_PRINT_V1_ERROR_NO_DOCUMENT,
			"a print request needs set_document before submit");
		return;
	}
	cordon_print_submit(print);
}

static const struct cordon_portal_print_v1_interface print_impl = {
	.destroy = handle_destroy,
	.set_title = handle_set_title,
	.set_parent = handle_set_parent,
	.set_setting = handle_set_setting,
	.set_page_setup = handle_set_page_setup,
	.set_modal = handle_set_modal,
	.set_token = handle_set_token,
	.set_document = handle_set_document,
	.submit = handle_submit,
};

static const struct cordon_portal_ui_printer *find_printer(
	struct cordon_print *print, const char *name) {
	for (size_t i = 0; print->printers && i < print->printers->count; i++) {
		if (strcmp(print->printers->printers[i].name, name) == 0) {
			return &print->printers->printers[i];
		}
	}
	return NULL;
}

static bool print_set_setting(struct cordon_portal_request *request, const char *key,
	const char *value, const char **reason) {
	struct cordon_print *print = request->data;
	if (!cordon_print_setting_valid(key, value, reason)) {
		return false;
	}
	if (strcmp(key, "printer") == 0 && !find_printer(print, value)) {
		*reason = "no such printer";
		return false;
	}
	if (!settings_set(&print->chosen, key, value)) {
		*reason = "out of memory";
		return false;
	}
	return true;
}

static bool save_token(struct cordon_print *print) {
	const char *app_id = cordon_portal_request_app_id(print->request);
	if (!cordon_portal_make_token(print->new_token)) {
		return false;
	}
	if (!app_id[0]) {
		/* No app to bind it to: a print with it asks again. */
		return true;
	}
	struct token *token = calloc(1, sizeof(*token));
	if (!token || !settings_copy(&token->settings, &print->chosen)) {
		if (token) {
			settings_clear(&token->settings);
		}
		free(token);
		return false;
	}
	memcpy(token->token, print->new_token, sizeof(token->token));
	token->tag = print->request->tag;
	token->expires = now_ns() + TOKEN_LIFETIME_NS;
	wl_list_insert(print->portal->tokens.prev, &token->link);
	print->portal->token_count++;
	expire_tokens(print->portal);
	return true;
}

static void print_confirmed(struct cordon_portal_request *request) {
	struct cordon_print *print = request->data;
	if (!settings_get(&print->chosen, "printer")) {
		/* The user took the default: CUPS's default queue, else the first. */
		const struct cordon_portal_ui_printer *printer = &print->printers->printers[0];
		for (size_t i = 0; i < print->printers->count; i++) {
			if (print->printers->printers[i].is_default) {
				printer = &print->printers->printers[i];
			}
		}
		if (!settings_set(&print->chosen, "printer", printer->name)) {
			fail(print, CORDON_PORTAL_FAILURE_IO, "out of memory");
			return;
		}
	}
	if (print->prepare) {
		if (!save_token(print)) {
			fail(print, CORDON_PORTAL_FAILURE_IO, "no token could be made");
			return;
		}
		struct cordon_portal_response response = {.result = CORDON_PORTAL_CHOSEN};
		cordon_portal_request_respond(request, &response);
		return;
	}
	/* The dialog goes; the answer comes when the job is queued. */
	cordon_portal_request_close_dialog(request);
	print->confirmed = true;
	maybe_start_job(print);
}

/* The D-Bus door's answer: the same facts the protocol's events carry. */
static void answer_door(struct cordon_print *print, const struct cordon_portal_response *response) {
	const char *keys[MAX_SETTINGS], *values[MAX_SETTINGS];
	struct cordon_print_answer answer = {.response = response, .keys = keys, .values = values};
	if (response->result == CORDON_PORTAL_CHOSEN && print->prepare) {
		for (size_t i = 0; i < print->chosen.count; i++) {
			keys[i] = print->chosen.items[i].key;
			values[i] = print->chosen.items[i].value;
		}
		answer.count = print->chosen.count;
		answer.token = print->new_token;
	}
	answer.job_id = print->job_id;
	print->answer(print->answer_data, &answer);
}

static void print_send_response(
	struct cordon_portal_request *request, const struct cordon_portal_response *response) {
	struct cordon_print *print = request->data;
	struct wl_resource *resource = print->resource;
	if (!resource) {
		answer_door(print, response);
		release_transient(print);
		return;
	}
	switch (response->result) {
	case CORDON_PORTAL_CHOSEN:
		if (print->prepare) {
			for (size_t i = 0; i < print->chosen.count; i++) {
				cordon_portal_print_v1_send_setting(resource,
					print->chosen.items[i].key, print->chosen.items[i].value);
			}
			cordon_portal_print_v1_send_prepared(resource, print->new_token);
		} else {
			cordon_portal_print_v1_send_queued(resource, print->job_id);
		}
		break;
	case CORDON_PORTAL_CANCELLED:
		cordon_portal_print_v1_send_cancelled(resource);
		break;
	case CORDON_PORTAL_FAILED:
		cordon_portal_print_v1_send_failed(resource, response->failure, response->reason);
		break;
	}
	release_transient(print);
}

static const struct cordon_portal_request_impl request_impl = {
	.portal = "print",
	.send_response = print_send_response,
	.set_setting = print_set_setting,
	.confirm = print_confirmed,
};

void cordon_print_create(struct cordon_portals *portals, struct wl_client *client,
	struct wl_resource *manager, uint32_t id, uint32_t kind) {
	if (kind != CORDON_PORTAL_MANAGER_V1_PRINT_KIND_PREPARE &&
		kind != CORDON_PORTAL_MANAGER_V1_PRINT_KIND_PRINT) {
		wl_resource_post_error(manager, CORDON_PORTAL_MANAGER_V1_ERROR_INVALID_KIND,
			"unknown print kind %u", kind);
		return;
	}
	struct cordon_print *print = calloc(1, sizeof(*print));
	if (!print) {
		wl_client_post_no_memory(client);
		return;
	}
	print->portal = portals->print;
	wl_list_init(&print->link);
	print->prepare = kind == CORDON_PORTAL_MANAGER_V1_PRINT_KIND_PREPARE;
	print->doc_fd = -1;
	print->memfd = -1;
	print->request =
		cordon_portal_request_create(portals, client, manager, &request_impl, print);
	if (!print->request) {
		free(print);
		return;
	}
	print->resource = wl_resource_create(
		client, &cordon_portal_print_v1_interface, wl_resource_get_version(manager), id);
	if (!print->resource) {
		cordon_portal_request_destroy(print->request);
		free(print);
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(
		print->resource, &print_impl, print, handle_resource_destroy);
	wl_list_insert(&print->portal->prints, &print->link);
}

struct cordon_print *cordon_print_create_for(struct cordon_portals *portals,
	const struct cordon_portal_caller *caller, bool prepare, cordon_print_answer_func answer,
	void *data, bool *over_cap) {
	struct cordon_print *print = calloc(1, sizeof(*print));
	*over_cap = false;
	if (!print) {
		return NULL;
	}
	print->portal = portals->print;
	print->prepare = prepare;
	print->doc_fd = -1;
	print->memfd = -1;
	print->answer = answer;
	print->answer_data = data;
	print->request =
		cordon_portal_request_create_for(portals, caller, &request_impl, print, over_cap);
	if (!print->request) {
		free(print);
		return NULL;
	}
	wl_list_insert(&print->portal->prints, &print->link);
	return print;
}

struct cordon_portal_request *cordon_print_request(struct cordon_print *print) {
	return print->request;
}

bool cordon_print_suggest(
	struct cordon_print *print, const char *key, const char *value, const char **why) {
	if (!cordon_print_setting_valid(key, value, why)) {
		return false;
	}
	if (!settings_set(&print->suggested, key, value)) {
		*why = "out of memory";
		return false;
	}
	return true;
}

bool cordon_print_set_options(
	struct cordon_print *print, const char *title, bool modal, const char *token) {
	if (strlen(title) >= MAX_TITLE || (token && strlen(token) > CORDON_PORTAL_TOKEN_LEN)) {
		return false;
	}
	print->title = title[0] ? strdup(title) : NULL;
	print->token = token ? strdup(token) : NULL;
	print->modal = modal;
	return (!title[0] || print->title) && (!token || print->token);
}

bool cordon_print_set_document(struct cordon_print *print, int fd, const char *mime_type) {
	if (strlen(mime_type) >= MAX_VALUE || !(print->mime_type = strdup(mime_type))) {
		close(fd);
		return false;
	}
	print->doc_fd = fd;
	return true;
}

struct cordon_print_portal *cordon_print_portal_create(struct cordon_portals *portals) {
	struct cordon_print_portal *portal = calloc(1, sizeof(*portal));
	if (!portal) {
		return NULL;
	}
	portal->portals = portals;
	wl_list_init(&portal->tokens);
	wl_list_init(&portal->prints);
	uint64_t configured = portals->host.settings.print_max_size;
	portal->max_size = configured ? configured : CORDON_PRINT_DEFAULT_MAX_SIZE;
	portal->cups = cordon_cups_create(portals->host.event_loop);
	if (!portal->cups) {
		free(portal);
		return NULL;
	}
	return portal;
}

void cordon_print_portal_destroy(struct cordon_print_portal *portal) {
	if (!portal) {
		return;
	}
	cordon_cups_destroy(portal->cups);
	struct token *token, *tmp;
	wl_list_for_each_safe(token, tmp, &portal->tokens, link) {
		wl_list_remove(&token->link);
		settings_clear(&token->settings);
		free(token);
	}
	free(portal);
}
