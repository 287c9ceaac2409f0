/*
 * CUPS through libcups. Every IPP call blocks on the network (or on a cupsd
 * that does not answer), so each task runs on a thread of its own with its own
 * http connection, and reports back through an eventfd on the compositor's
 * event loop: the compositor never waits for CUPS. A thread touches only its
 * task; the task's result is read on the event loop after the thread ended.
 * libcups itself is loaded by the first task (portals/cups_library.c), on its
 * thread: the compositor does not call into libcups at all.
 */
#include "portals/cups.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include <wlr/util/log.h>

#include "portals/cups_library.h"

/* How long a connection to cupsd may take before the task fails, in ms. */
#define CONNECT_TIMEOUT_MS 5000
/* More printers than any dialog can show; bounds what a server can make cordon hold. */
#define MAX_PRINTERS 64
#define MAX_VALUES 64

/* The options the print dialog offers, by IPP name. */
static const char *const dialog_options[] = {"sides", "print-color-mode", "media"};
#define OPTION_COUNT (sizeof(dialog_options) / sizeof(dialog_options[0]))

struct cordon_cups {
	struct wl_event_loop *loop;
	struct wl_list tasks; /* cordon_cups_task.link */
	/*
	 * Loaded by whichever task comes first, while any other waits on the lock (it needs
	 * the library as much); unloaded at destroy, once every thread has been joined.
	 */
	pthread_mutex_t library_lock;
	struct cordon_cups_library library;
};

enum task_kind {
	TASK_LIST,
	TASK_SUBMIT,
};

struct cordon_cups_task {
	struct cordon_cups *cups;
	struct wl_list link;
	enum task_kind kind;
	pthread_t thread;
	int event_fd;
	struct wl_event_source *source;
	cordon_cups_done_func done; /* NULL once detached */
	void *data;
	/* The job, copied. */
	char *printer, *title, *format;
	int fd;
	uint64_t max_size;
	/* Plain strings: the cups_option_t array is made on the thread, with libcups. */
	char **option_names, **option_values;
	size_t option_count;
	/* Written by the thread, read after it ended. */
	char error[512];
	bool failed;
	struct cordon_cups_printers *printers;
	int job_id;
	char job_state[32];
};

struct cordon_cups *cordon_cups_create(struct wl_event_loop *loop) {
	struct cordon_cups *cups = calloc(1, sizeof(*cups));
	if (!cups) {
		return NULL;
	}
	cups->loop = loop;
	wl_list_init(&cups->tasks);
	pthread_mutex_init(&cups->library_lock, NULL);
	return cups;
}

static void free_task(struct cordon_cups_task *task) {
	if (task->source) {
		wl_event_source_remove(task->source);
	}
	if (task->event_fd >= 0) {
		close(task->event_fd);
	}
	if (task->fd >= 0) {
		close(task->fd);
	}
	wl_list_remove(&task->link);
	cordon_cups_printers_free(task->printers);
	for (size_t i = 0; i < task->option_count; i++) {
		free(task->option_names[i]);
		free(task->option_values[i]);
	}
	free(task->option_names);
	free(task->option_values);
	free(task->printer);
	free(task->title);
	free(task->format);
	free(task);
}

void cordon_cups_destroy(struct cordon_cups *cups) {
	if (!cups) {
		return;
	}
	/* A job being sent is finished: the user asked for it. */
	struct cordon_cups_task *task, *tmp;
	wl_list_for_each_safe(task, tmp, &cups->tasks, link) {
		pthread_join(task->thread, NULL);
		free_task(task);
	}
	cordon_cups_library_unload(&cups->library);
	pthread_mutex_destroy(&cups->library_lock);
	free(cups);
}

void cordon_cups_printers_free(struct cordon_cups_printers *printers) {
	if (!printers) {
		return;
	}
	for (size_t i = 0; i < printers->count; i++) {
		struct cordon_portal_ui_printer *printer = &printers->printers[i];
		for (size_t j = 0; j < printer->option_count; j++) {
			struct cordon_portal_ui_print_option *option =
				(struct cordon_portal_ui_print_option *)&printer->options[j];
			for (size_t k = 0; k < option->value_count; k++) {
				free((char *)option->values[k]);
			}
			free((char **)option->values);
			free((char *)option->default_value);
		}
		free((struct cordon_portal_ui_print_option *)printer->options);
		free((char *)printer->name);
		free((char *)printer->info);
	}
	free(printers->printers);
	free(printers);
}

static void task_fail(struct cordon_cups_task *task, const char *what) {
	task->failed = true;
	snprintf(task->error, sizeof(task->error), "%s: %s", what,
		task->cups->library.cupsLastErrorString());
}

/*
 * libcups for this task, loaded by the first one. A missing library fails the request
 * with the loader's reason, as an unreachable server does; the next request tries again.
 */
static bool load_library(struct cordon_cups_task *task) {
	char reason[384];
	pthread_mutex_lock(&task->cups->library_lock);
	bool loaded = cordon_cups_library_load(&task->cups->library, reason, sizeof(reason));
	pthread_mutex_unlock(&task->cups->library_lock);
	if (!loaded) {
		task->failed = true;
		snprintf(task->error, sizeof(task->error), "printing is not available: %s", reason);
	}
	return loaded;
}

static http_t *connect_server(struct cordon_cups_task *task) {
	const struct cordon_cups_library *lib = &task->cups->library;
	http_t *http = lib->httpConnect2(lib->cupsServer(), lib->ippPort(), NULL, AF_UNSPEC,
		lib->cupsEncryption(), 1, CONNECT_TIMEOUT_MS, NULL);
	if (!http) {
		task->failed = true;
		snprintf(task->error, sizeof(task->error),
			"the printing service (CUPS at %s) cannot be reached", lib->cupsServer());
	}
	return http;
}

/* An option's supported values and default, from the printer's IPP attributes. */
static bool read_option(const struct cordon_cups_library *lib, http_t *http, cups_dest_t *dest,
	cups_dinfo_t *info, const char *name, struct cordon_portal_ui_print_option *option) {
	option->name = name;
	ipp_attribute_t *supported = lib->cupsFindDestSupported(http, dest, info, name);
	int count = supported ? lib->ippGetCount(supported) : 0;
	if (count > MAX_VALUES) {
		count = MAX_VALUES;
	}
	char **values = calloc(count ? (size_t)count : 1, sizeof(*values));
	if (!values) {
		return false;
	}
	option->values = (const char *const *)values;
	for (int i = 0; i < count; i++) {
		const char *value = lib->ippGetString(supported, i, NULL);
		if (value && !(values[option->value_count] = strdup(value))) {
			return false;
		}
		option->value_count += value ? 1 : 0;
	}
	ipp_attribute_t *def = lib->cupsFindDestDefault(http, dest, info, name);
	const char *value = def ? lib->ippGetString(def, 0, NULL) : NULL;
	if (value && !(option->default_value = strdup(value))) {
		return false;
	}
	return true;
}

static bool read_printer(const struct cordon_cups_library *lib, http_t *http, cups_dest_t *dest,
	struct cordon_portal_ui_printer *printer) {
	const char *info = lib->cupsGetOption("printer-info", dest->num_options, dest->options);
	printer->name = strdup(dest->name);
	printer->info = strdup(info ? info : "");
	printer->is_default = dest->is_default;
	printer->max_copies = 1;
	struct cordon_portal_ui_print_option *options = calloc(OPTION_COUNT, sizeof(*options));
	printer->options = options;
	if (!printer->name || !printer->info || !options) {
		return false;
	}
	cups_dinfo_t *dinfo = lib->cupsCopyDestInfo(http, dest);
	if (!dinfo) {
		/* A queue that does not answer still prints with its defaults. */
		return true;
	}
	ipp_attribute_t *copies = lib->cupsFindDestSupported(http, dest, dinfo, "copies");
	if (copies && lib->ippGetValueTag(copies) == IPP_TAG_RANGE) {
		int upper;
		lib->ippGetRange(copies, 0, &upper);
		printer->max_copies = upper > 0 ? upper : 1;
	} else if (copies && lib->ippGetValueTag(copies) == IPP_TAG_INTEGER) {
		int max = lib->ippGetInteger(copies, 0);
		printer->max_copies = max > 0 ? max : 1;
	}
	bool ok = true;
	for (size_t i = 0; i < OPTION_COUNT && ok; i++) {
		/* Counted before reading, so that a half-read option is freed too. */
		printer->option_count++;
		ok = read_option(lib, http, dest, dinfo, dialog_options[i], &options[i]);
	}
	lib->cupsFreeDestInfo(dinfo);
	return ok;
}

static void run_list(struct cordon_cups_task *task) {
	const struct cordon_cups_library *lib = &task->cups->library;
	http_t *http = connect_server(task);
	if (!http) {
		return;
	}
	cups_dest_t *dests = NULL;
	int count = lib->cupsGetDests2(http, &dests);
	if (count == 0 && lib->cupsLastError() > IPP_STATUS_OK_CONFLICTING) {
		task_fail(task, "the printing service gave no printers");
		lib->httpClose(http);
		return;
	}
	task->printers = calloc(1, sizeof(*task->printers));
	size_t wanted = count > MAX_PRINTERS ? MAX_PRINTERS : (size_t)count;
	if (task->printers) {
		task->printers->printers =
			calloc(wanted ? wanted : 1, sizeof(*task->printers->printers));
	}
	if (!task->printers || !task->printers->printers) {
		task->failed = true;
		snprintf(task->error, sizeof(task->error), "out of memory");
	}
	for (size_t i = 0; !task->failed && i < wanted; i++) {
		task->printers->count++;
		if (!read_printer(lib, http, &dests[i], &task->printers->printers[i])) {
			task->failed = true;
			snprintf(task->error, sizeof(task->error), "out of memory");
		}
	}
	lib->cupsFreeDests(count, dests);
	lib->httpClose(http);
}

static const char *job_state_name(int state) {
	switch (state) {
	case IPP_JSTATE_PENDING:
		return "pending";
	case IPP_JSTATE_HELD:
		return "held";
	case IPP_JSTATE_PROCESSING:
		return "processing";
	case IPP_JSTATE_STOPPED:
		return "stopped";
	case IPP_JSTATE_CANCELED:
		return "canceled";
	case IPP_JSTATE_ABORTED:
		return "aborted";
	case IPP_JSTATE_COMPLETED:
		return "completed";
	}
	return "unknown";
}

/* The job's state as the server has it now (Get-Job-Attributes). */
static void read_job_state(http_t *http, struct cordon_cups_task *task) {
	const struct cordon_cups_library *lib = &task->cups->library;
	char uri[HTTP_MAX_URI];
	lib->httpAssembleURIf(HTTP_URI_CODING_ALL, uri, sizeof(uri), "ipp", NULL, "localhost", 0,
		"/jobs/%d", task->job_id);
	ipp_t *request = lib->ippNewRequest(IPP_OP_GET_JOB_ATTRIBUTES);
	lib->ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_URI, "job-uri", NULL, uri);
	lib->ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_NAME, "requesting-user-name", NULL,
		lib->cupsUser());
	lib->ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_KEYWORD, "requested-attributes", NULL,
		"job-state");
	ipp_t *response = lib->cupsDoRequest(http, request, "/jobs/");
	ipp_attribute_t *state =
		response ? lib->ippFindAttribute(response, "job-state", IPP_TAG_ENUM) : NULL;
	snprintf(task->job_state, sizeof(task->job_state), "%s",
		state ? job_state_name(lib->ippGetInteger(state, 0)) : "unknown");
	lib->ippDelete(response);
}

/* Sends the document: read with pread, so the app's file offset is not ours. */
static bool send_document(http_t *http, struct cordon_cups_task *task) {
	const struct cordon_cups_library *lib = &task->cups->library;
	char buffer[65536];
	uint64_t offset = 0;
	for (;;) {
		ssize_t n = pread(task->fd, buffer, sizeof(buffer), (off_t)offset);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n < 0) {
			task->failed = true;
			snprintf(task->error, sizeof(task->error),
				"the document cannot be read: %s", strerror(errno));
			return false;
		}
		if (n == 0) {
			return true;
		}
		offset += (uint64_t)n;
		if (offset > task->max_size) {
			/* The app grew the file after it was measured. */
			task->failed = true;
			snprintf(task->error, sizeof(task->error),
				"the document is larger than the limit of %llu bytes",
				(unsigned long long)task->max_size);
			return false;
		}
		if (lib->cupsWriteRequestData(http, buffer, (size_t)n) != HTTP_STATUS_CONTINUE) {
			task_fail(task, "the printing service stopped taking the document");
			return false;
		}
	}
}

/*
 * The document-name CUPS is given: the title with anything but letters, digits and
 * "._-" made '_'. cupsd 2.4.2 (Debian 12) crashes on a job whose document-name has a
 * space (it does not on such a job-name), and the title is the app's to choose.
 */
static void document_name(const char *title, char *name, size_t size) {
	size_t i = 0;
	for (; title[i] && i + 1 < size; i++) {
		char c = title[i];
		bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			(c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
		name[i] = plain ? c : '_';
	}
	name[i] = '\0';
	if (i == 0) {
		snprintf(name, size, "document");
	}
}

static void run_submit(struct cordon_cups_task *task) {
	const struct cordon_cups_library *lib = &task->cups->library;
	http_t *http = connect_server(task);
	if (!http) {
		return;
	}
	char docname[128];
	document_name(task->title, docname, sizeof(docname));
	int option_count = 0;
	cups_option_t *options = NULL;
	for (size_t i = 0; i < task->option_count; i++) {
		option_count = lib->cupsAddOption(
			task->option_names[i], task->option_values[i], option_count, &options);
	}
	task->job_id = lib->cupsCreateJob(http, task->printer, task->title, option_count, options);
	lib->cupsFreeOptions(option_count, options);
	if (task->job_id <= 0) {
		task->job_id = 0;
		task_fail(task, "the printer did not take the job");
		lib->httpClose(http);
		return;
	}
	bool sent = lib->cupsStartDocument(http, task->printer, task->job_id, docname, task->format,
			    1) == HTTP_STATUS_CONTINUE;
	if (!sent) {
		task_fail(task, "the printer did not take the document");
	} else {
		sent = send_document(http, task);
	}
	/* Ends the request even after a failure, so the connection is clean for the cancel. */
	ipp_status_t status = lib->cupsFinishDocument(http, task->printer);
	if (sent && status > IPP_STATUS_OK_CONFLICTING) {
		task_fail(task, "the printer refused the document");
		sent = false;
	}
	if (!sent) {
		lib->cupsCancelJob2(http, task->printer, task->job_id, 0);
	} else {
		read_job_state(http, task);
		if (strcmp(task->job_state, "aborted") == 0 ||
			strcmp(task->job_state, "canceled") == 0) {
			task->failed = true;
			snprintf(task->error, sizeof(task->error), "the job was %s by the printer",
				task->job_state);
		}
	}
	lib->httpClose(http);
}

static void *run_task(void *data) {
	struct cordon_cups_task *task = data;
	/* A library that cannot be loaded fails the task like any other error. */
	if (load_library(task)) {
		if (task->kind == TASK_LIST) {
			run_list(task);
		} else {
			run_submit(task);
		}
	}
	uint64_t one = 1;
	/* An eventfd write of 1 cannot fail short of a counter overflow. */
	if (write(task->event_fd, &one, sizeof(one)) != sizeof(one)) {
		wlr_log_errno(WLR_ERROR, "Cannot report a finished CUPS task");
	}
	return NULL;
}

static int handle_task_done(int fd, uint32_t mask, void *data) {
	struct cordon_cups_task *task = data;
	pthread_join(task->thread, NULL);
	wl_event_source_remove(task->source);
	task->source = NULL;
	if (task->done) {
		struct cordon_cups_result result = {
			.error = task->failed ? task->error : NULL,
			.job_id = task->job_id,
			.job_state = task->job_state,
		};
		if (!task->failed) {
			result.printers = task->printers;
			task->printers = NULL;
		}
		task->done(task->data, &result);
	} else if (task->kind == TASK_SUBMIT) {
		/* Nobody waits for it any more, but the user asked for it: say what came of it. */
		wlr_log(WLR_INFO, "Print job %d of a gone request: %s", task->job_id,
			task->failed ? task->error : task->job_state);
	}
	free_task(task);
	return 0;
}

static struct cordon_cups_task *task_new(
	struct cordon_cups *cups, enum task_kind kind, cordon_cups_done_func done, void *data) {
	struct cordon_cups_task *task = calloc(1, sizeof(*task));
	if (!task) {
		return NULL;
	}
	task->cups = cups;
	task->kind = kind;
	task->done = done;
	task->data = data;
	task->fd = -1;
	task->event_fd = -1;
	wl_list_init(&task->link);
	return task;
}

static struct cordon_cups_task *task_start(struct cordon_cups_task *task) {
	task->event_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (task->event_fd < 0) {
		wlr_log_errno(WLR_ERROR, "Cannot make an eventfd for a CUPS task");
		free_task(task);
		return NULL;
	}
	task->source = wl_event_loop_add_fd(
		task->cups->loop, task->event_fd, WL_EVENT_READABLE, handle_task_done, task);
	if (!task->source) {
		free_task(task);
		return NULL;
	}
	int err = pthread_create(&task->thread, NULL, run_task, task);
	if (err != 0) {
		wlr_log(WLR_ERROR, "Cannot start a CUPS thread: %s", strerror(err));
		free_task(task);
		return NULL;
	}
	wl_list_insert(&task->cups->tasks, &task->link);
	return task;
}

struct cordon_cups_task *cordon_cups_list(
	struct cordon_cups *cups, cordon_cups_done_func done, void *data) {
	struct cordon_cups_task *task = task_new(cups, TASK_LIST, done, data);
	return task ? task_start(task) : NULL;
}

struct cordon_cups_task *cordon_cups_submit(struct cordon_cups *cups,
	const struct cordon_cups_job *job, cordon_cups_done_func done, void *data) {
	struct cordon_cups_task *task = task_new(cups, TASK_SUBMIT, done, data);
	if (!task) {
		return NULL;
	}
	task->printer = strdup(job->printer);
	task->title = strdup(job->title);
	task->format = strdup(job->format);
	task->fd = fcntl(job->fd, F_DUPFD_CLOEXEC, 0);
	task->max_size = job->max_size;
	task->option_names = calloc(job->option_count + 1, sizeof(*task->option_names));
	task->option_values = calloc(job->option_count + 1, sizeof(*task->option_values));
	bool ok = task->printer && task->title && task->format && task->fd >= 0 &&
		task->option_names && task->option_values;
	for (size_t i = 0; ok && i < job->option_count; i++) {
		/* Counted first, so that free_task frees a half-copied pair too. */
		task->option_count++;
		task->option_names[i] = strdup(job->option_names[i]);
		task->option_values[i] = strdup(job->option_values[i]);
		ok = task->option_names[i] && task->option_values[i];
	}
	if (!ok) {
		free_task(task);
		return NULL;
	}
	return task_start(task);
}

void cordon_cups_task_detach(struct cordon_cups_task *task) {
	if (task) {
		task->done = NULL;
		task->data = NULL;
	}
}
