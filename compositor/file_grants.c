/*
 * File grants (docs/mediation.md): files cross a sandbox boundary as documents of the real
 * document portal (xdg-document-portal), the store xdg-desktop-portal uses for Flatpak apps,
 * so that one grant mechanism serves the clipboard, drag and drop and the portals. The app
 * sees a granted file in its document view, which cordon-run binds at
 * /run/user/UID/doc (as Flatpak does); the host path never reaches it.
 *
 * The source chooses every path in the list, and a path may lead through a directory an app
 * can write (its data dir on the host): each file is opened with no symlink allowed on the
 * whole way (openat2 RESOLVE_NO_SYMLINKS, the last component too; O_PATH) and must be a
 * regular file; the portal gets that fd, never the path, so a file swapped after the check
 * is not the one granted. Nothing waits: the files are opened on a thread (a hung network
 * or FUSE file system must not stall cordon), and every D-Bus call is asynchronous on
 * cordon's one session bus connection.
 */
#include "compositor/file_grants.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <wayland-server-core.h>
#include <wlr/util/log.h>

#include "common/escape.h"
#include "compositor/session_bus.h"
#include "compositor/uri_list.h"

#define PORTAL_NAME "org.freedesktop.portal.Documents"
#define PORTAL_PATH "/org/freedesktop/portal/documents"
#define PORTAL_INTERFACE "org.freedesktop.portal.Documents"
/*
 * AddFull flags: reuse an existing document for the same file (a file pasted twice is one
 * grant). Not persistent: the grant lasts while the document portal runs (this session),
 * it is not written to the permission store for ever; what a paste or a drop hands over is
 * for using now. Not as-needed-by-app: a host file is never reachable inside a cordon
 * sandbox otherwise.
 */
#define ADD_FLAG_REUSE_EXISTING 1u
#define ID_MAX 64
/*
 * The most fds in one AddFull: dbus-daemon's default max_message_unix_fds is 16, and a
 * message with more makes it drop the whole connection (cordon's one session bus
 * connection, shared with the portals). Longer lists go in several calls.
 */
#define FDS_PER_CALL 16

struct cordon_file_grants {
	struct wl_event_loop *loop;
	struct cordon_session_bus *session_bus;
	sd_bus_slot *probe;
	bool ready;
	char *mount_point; /* the host's view of the documents, e.g. /run/user/1000/doc */
	char sandbox_root[64]; /* the app's view of its documents: /run/user/UID/doc */
	struct wl_list requests; /* request.link */
};

struct request;

/*
 * The opening of one export's files, by a thread of its own: opening a host path can block
 * on a network or FUSE file system that hangs (the document portal's own among them), and
 * cordon's loop never waits on another process. Shared by the thread and the request until
 * both let go (refs), so that a request that goes first (its reader left) leaves the
 * thread nothing freed under it.
 *
 * Two threads drop their reference, each when it is done, in either order: refs is atomic
 * (no plain ++ or -- can creep in), and each drop is acq_rel, so the one that frees sees
 * every write the other made before its drop. The results (fds, names, errors, reasons)
 * pass from the thread to the loop through done: the thread writes them, then stores done
 * with release; the loop reads them only after loading done with acquire. The eventfd only
 * wakes the loop; the kernel's ordering of it is not one C11 (or TSan) knows of.
 */
struct opening {
	atomic_int refs;
	atomic_bool done; /* the thread has written its results */
	size_t count;
	char **paths; /* in */
	int *fds; /* out: the O_PATH fd, or -1 */
	char **names; /* out: the file's own name */
	int *errors; /* out: errno of a failed open, or 0 with reasons set */
	const char **reasons; /* out: why a file was refused, when not an errno */
	int event_fd; /* written once the thread is done */
};

/* One AddFull call of an export: file entries first .. first + count - 1. */
struct batch {
	struct request *request;
	size_t first, count;
	sd_bus_slot *slot;
};

/* One Info call of a translation. */
struct lookup {
	struct request *request;
	size_t index;
	char doc_id[ID_MAX];
	char name[NAME_MAX + 1];
	sd_bus_slot *slot;
};

struct request {
	struct cordon_file_grants *grants;
	struct wl_list link;
	cordon_file_grants_done_fn done;
	void *data;
	uint64_t id;
	char *app_id;
	struct cordon_uri_list list;
	char **out; /* per entry: what goes on, or NULL (dropped) */
	size_t pending; /* D-Bus calls not answered yet */
	/* Export: the file entries, in the order of their fds in AddFull. */
	size_t *file_index;
	char **file_names;
	size_t file_count;
	struct batch *batches;
	size_t batch_count;
	struct opening *opening; /* while the files are being opened */
	size_t *opening_index; /* the list entry of each path being opened */
	struct wl_event_source *opened;
	struct lookup *lookups;
	size_t lookup_count;
};

static void opening_unref(struct opening *opening) {
	if (atomic_fetch_sub_explicit(&opening->refs, 1, memory_order_acq_rel) > 1) {
		return;
	}
	for (size_t i = 0; i < opening->count; i++) {
		if (opening->fds && opening->fds[i] >= 0) {
			close(opening->fds[i]);
		}
		free(opening->paths ? opening->paths[i] : NULL);
		free(opening->names ? opening->names[i] : NULL);
	}
	if (opening->event_fd >= 0) {
		close(opening->event_fd);
	}
	free(opening->paths);
	free(opening->fds);
	free(opening->names);
	free(opening->errors);
	free(opening->reasons);
	free(opening);
}

static void request_free(struct request *request) {
	wl_list_remove(&request->link);
	if (request->opened) {
		wl_event_source_remove(request->opened);
	}
	if (request->opening) {
		opening_unref(request->opening);
	}
	free(request->opening_index);
	for (size_t i = 0; i < request->batch_count; i++) {
		sd_bus_slot_unref(request->batches[i].slot);
	}
	free(request->batches);
	for (size_t i = 0; i < request->lookup_count; i++) {
		sd_bus_slot_unref(request->lookups[i].slot);
	}
	free(request->lookups);
	for (size_t i = 0; i < request->list.count; i++) {
		free(request->out[i]);
	}
	for (size_t i = 0; i < request->file_count; i++) {
		free(request->file_names[i]);
	}
	free(request->file_names);
	free(request->file_index);
	free(request->out);
	cordon_uri_list_finish(&request->list);
	free(request->app_id);
	free(request);
}

/* Builds the list of what goes on, hands it over and frees the request. */
static void request_finish(struct request *request) {
	struct cordon_uri_buffer buffer;
	/* Rewritten paths may be longer than the source's: room for that, still bounded. */
	cordon_uri_buffer_init(&buffer, 2 * CORDON_URI_LIST_MAX);
	size_t files = 0, lines = 0;
	bool ok = true;
	for (size_t i = 0; i < request->list.count && ok; i++) {
		if (!request->out[i]) {
			continue;
		}
		if (request->list.uris[i].kind == CORDON_URI_FILE) {
			ok = cordon_uri_append_file(&buffer, request->out[i]);
			files++;
		} else {
			ok = cordon_uri_append_line(&buffer, request->out[i]);
		}
		lines++;
	}
	char *list = NULL;
	size_t len = 0;
	if (ok && lines > 0) {
		list = buffer.data;
		len = buffer.len;
		buffer.data = NULL;
	}
	cordon_uri_buffer_finish(&buffer);
	cordon_file_grants_done_fn done = request->done;
	void *data = request->data;
	uint64_t id = request->id;
	request_free(request);
	done(data, id, list, len, ok ? files : 0);
}

static void log_drop(void *data, size_t line, const char *reason) {
	const struct request *request = data;
	wlr_log(WLR_DEBUG, "File grants for %s: uri-list line %zu dropped: %s",
		cordon_log_text(request->app_id), line, reason);
}

static struct request *request_create(struct cordon_file_grants *grants, const char *app_id,
	const char *list, size_t len, cordon_file_grants_done_fn done, void *data, uint64_t id) {
	struct request *request = calloc(1, sizeof(*request));
	if (!request) {
		return NULL;
	}
	wl_list_insert(&grants->requests, &request->link);
	request->grants = grants;
	request->done = done;
	request->data = data;
	request->id = id;
	request->app_id = strdup(app_id);
	if (!request->app_id ||
		!cordon_uri_list_parse(list, len, &request->list, log_drop, request)) {
		request_free(request);
		return NULL;
	}
	request->out = calloc(request->list.count + 1, sizeof(*request->out));
	if (!request->out) {
		request_free(request);
		return NULL;
	}
	/* Web links go on as they are, in their place. */
	for (size_t i = 0; i < request->list.count; i++) {
		if (request->list.uris[i].kind == CORDON_URI_WEB) {
			request->out[i] = strdup(request->list.uris[i].text);
		}
	}
	return request;
}

/* Host to sandbox */

/*
 * Opens a host file for a grant (on the opening thread): no symlink anywhere on the way (a
 * directory the app can write could be swapped for one), a regular file only. Returns the
 * O_PATH fd and the file's name as the kernel has it, or -1 with *error or *reason.
 */
static int open_file(const char *path, char **name, int *error, const char **reason) {
	/*
	 * RESOLVE_NO_SYMLINKS refuses a symlink in any component, the last one included. Not
	 * O_NOFOLLOW: the portal refuses O_PATH fds opened so (they could be the link itself).
	 */
	struct open_how how = {
		.flags = O_PATH | O_CLOEXEC,
		.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	int fd = (int)syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof(how));
	if (fd < 0) {
		*error = errno == ELOOP ? 0 : errno;
		*reason = "a symlink on the way (refused)";
		return -1;
	}
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		*reason = "not a regular file";
		close(fd);
		return -1;
	}
	/* The name the document gets is that of the file opened, whatever the URI said. */
	char link[64], real[PATH_MAX];
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, real, sizeof(real) - 1);
	const char *base = NULL;
	if (n > 0) {
		real[n] = '\0';
		base = strrchr(real, '/');
	}
	if (!base || !base[1] || !(*name = strdup(base + 1))) {
		*reason = "no name";
		close(fd);
		return -1;
	}
	return fd;
}

static int handle_add_reply(sd_bus_message *reply, void *data, sd_bus_error *error) {
	struct batch *batch = data;
	struct request *request = batch->request;
	batch->slot = sd_bus_slot_unref(batch->slot);
	const sd_bus_error *e = sd_bus_message_get_error(reply);
	char **ids = NULL;
	size_t count = 0;
	if (e) {
		wlr_log(WLR_ERROR, "File grants for %s: the document portal refused: %s",
			cordon_log_text(request->app_id), e->message ? e->message : e->name);
	} else if (sd_bus_message_read_strv(reply, &ids) < 0) {
		wlr_log(WLR_ERROR, "File grants for %s: a bad reply from the document portal",
			cordon_log_text(request->app_id));
	}
	for (char **p = ids; p && *p; p++) {
		count++;
	}
	if (ids && count == batch->count) {
		for (size_t j = 0; j < count; j++) {
			size_t k = batch->first + j;
			size_t i = request->file_index[k];
			/* The id comes from the portal: still, only what cannot climb goes in a
			 * path. */
			if (!cordon_document_id_valid(ids[j], ID_MAX)) {
				continue;
			}
			if (asprintf(&request->out[i], "%s/%s/%s", request->grants->sandbox_root,
				    ids[j], request->file_names[k]) < 0) {
				request->out[i] = NULL;
			}
		}
		wlr_log(WLR_DEBUG, "File grants for %s: %zu file(s) granted",
			cordon_log_text(request->app_id), count);
	}
	for (char **p = ids; p && *p; p++) {
		free(*p);
	}
	free(ids);
	if (--request->pending == 0) {
		request_finish(request);
	}
	return 0;
}

/* One AddFull call: the batch's fds, REUSE_EXISTING, the app, read access. */
static int send_add(struct batch *batch, const int *fds) {
	struct request *request = batch->request;
	sd_bus *bus = cordon_session_bus_get(request->grants->session_bus);
	sd_bus_message *m = NULL;
	int r = sd_bus_message_new_method_call(
		bus, &m, PORTAL_NAME, PORTAL_PATH, PORTAL_INTERFACE, "AddFull");
	if (r >= 0) {
		r = sd_bus_message_open_container(m, 'a', "h");
	}
	for (size_t j = 0; r >= 0 && j < batch->count; j++) {
		/* sd-bus keeps a duplicate of each fd in the message. */
		r = sd_bus_message_append_basic(m, 'h', &fds[batch->first + j]);
	}
	if (r >= 0) {
		r = sd_bus_message_close_container(m);
	}
	if (r >= 0) {
		r = sd_bus_message_append(m, "us", ADD_FLAG_REUSE_EXISTING, request->app_id);
	}
	if (r >= 0) {
		r = sd_bus_message_append_strv(m, (char *[]){"read", NULL});
	}
	if (r >= 0) {
		r = sd_bus_call_async(bus, &batch->slot, m, handle_add_reply, batch, 0);
	}
	sd_bus_message_unref(m);
	return r;
}

/* Sends the AddFull calls for the files opened; false when none could be sent. */
static bool send_batches(struct request *request, const int *fds) {
	size_t n = (request->file_count + FDS_PER_CALL - 1) / FDS_PER_CALL;
	request->batches = calloc(n, sizeof(*request->batches));
	if (!request->batches) {
		return false;
	}
	for (size_t b = 0; b < n; b++) {
		struct batch *batch = &request->batches[request->batch_count];
		batch->request = request;
		batch->first = b * FDS_PER_CALL;
		batch->count = request->file_count - batch->first < FDS_PER_CALL
			? request->file_count - batch->first
			: FDS_PER_CALL;
		int r = send_add(batch, fds);
		if (r < 0) {
			wlr_log(WLR_ERROR, "File grants for %s: cannot ask the document portal: %s",
				cordon_log_text(request->app_id), strerror(-r));
			continue;
		}
		request->batch_count++;
		request->pending++;
	}
	cordon_session_bus_changed(request->grants->session_bus);
	return request->pending > 0;
}

static void *open_files(void *data) {
	struct opening *opening = data;
	for (size_t i = 0; i < opening->count; i++) {
		opening->fds[i] = open_file(opening->paths[i], &opening->names[i],
			&opening->errors[i], &opening->reasons[i]);
	}
	atomic_store_explicit(&opening->done, true, memory_order_release);
	uint64_t one = 1;
	if (write(opening->event_fd, &one, sizeof(one)) < 0) {
		/* Cannot happen with a fresh eventfd; the request then stalls and its transfer
		 * ends. */
	}
	opening_unref(opening);
	return NULL;
}

/* The files are open: what could be opened is granted, the rest is left out. */
static int handle_opened(int fd, uint32_t mask, void *data) {
	struct request *request = data;
	struct opening *opening = request->opening;
	if (!atomic_load_explicit(&opening->done, memory_order_acquire)) {
		/* Woken before the results were written: cannot be, with one write; wait on. */
		return 0;
	}
	wl_event_source_remove(request->opened);
	request->opened = NULL;
	for (size_t j = 0; j < opening->count; j++) {
		size_t i = request->opening_index[j];
		if (opening->fds[j] < 0) {
			wlr_log(WLR_INFO, "File grants for %s: %s not granted: %s",
				cordon_log_text(request->app_id),
				cordon_log_text(request->list.uris[i].text),
				opening->errors[j] ? strerror(opening->errors[j])
						   : opening->reasons[j]);
			continue;
		}
		size_t k = request->file_count++;
		request->file_index[k] = i;
		/* Taken from the opening: its fd is closed once the calls hold copies. */
		request->file_names[k] = opening->names[j];
		opening->names[j] = NULL;
		opening->fds[k] = opening->fds[j];
		if (k != j) {
			opening->fds[j] = -1;
		}
	}
	bool sent = request->file_count > 0 && send_batches(request, opening->fds);
	request->opening = NULL;
	opening_unref(opening);
	if (request->file_count > 0 && !sent) {
		cordon_file_grants_done_fn done = request->done;
		void *done_data = request->data;
		uint64_t id = request->id;
		request_free(request);
		done(done_data, id, NULL, 0, 0);
		return 0;
	}
	if (request->file_count == 0) {
		request_finish(request);
	}
	return 0;
}

/* Hands the request's file paths to an opening thread. */
static bool start_opening(struct request *request) {
	struct opening *opening = calloc(1, sizeof(*opening));
	size_t n = request->list.count;
	request->opening_index = calloc(n + 1, sizeof(*request->opening_index));
	if (!opening || !request->opening_index) {
		free(opening);
		return false;
	}
	atomic_init(&opening->refs, 1);
	atomic_init(&opening->done, false);
	opening->event_fd = -1;
	request->opening = opening;
	opening->paths = calloc(n + 1, sizeof(*opening->paths));
	opening->fds = calloc(n + 1, sizeof(*opening->fds));
	opening->names = calloc(n + 1, sizeof(*opening->names));
	opening->errors = calloc(n + 1, sizeof(*opening->errors));
	opening->reasons = calloc(n + 1, sizeof(*opening->reasons));
	if (!opening->paths || !opening->fds || !opening->names || !opening->errors ||
		!opening->reasons) {
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		if (request->list.uris[i].kind != CORDON_URI_FILE) {
			continue;
		}
		size_t j = opening->count;
		opening->fds[j] = -1;
		opening->paths[j] = strdup(request->list.uris[i].text);
		if (!opening->paths[j]) {
			return false;
		}
		request->opening_index[j] = i;
		opening->count++;
	}
	opening->event_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (opening->event_fd < 0) {
		return false;
	}
	request->opened = wl_event_loop_add_fd(request->grants->loop, opening->event_fd,
		WL_EVENT_READABLE, handle_opened, request);
	if (!request->opened) {
		return false;
	}
	pthread_attr_t attr;
	pthread_t thread;
	if (pthread_attr_init(&attr) != 0) {
		return false;
	}
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	/* The thread's reference, taken before it can run. */
	atomic_fetch_add_explicit(&opening->refs, 1, memory_order_relaxed);
	bool started = pthread_create(&thread, &attr, open_files, opening) == 0;
	pthread_attr_destroy(&attr);
	if (!started) {
		atomic_fetch_sub_explicit(&opening->refs, 1, memory_order_relaxed);
	}
	return started;
}

void cordon_file_grants_export(struct cordon_file_grants *grants, const char *app_id,
	const char *list, size_t len, cordon_file_grants_done_fn done, void *data, uint64_t id) {
	struct request *request =
		grants->ready ? request_create(grants, app_id, list, len, done, data, id) : NULL;
	if (!request) {
		done(data, id, NULL, 0, 0);
		return;
	}
	size_t n = request->list.count;
	size_t files = 0;
	for (size_t i = 0; i < n; i++) {
		files += request->list.uris[i].kind == CORDON_URI_FILE;
	}
	if (files == 0) {
		/* Nothing to grant: the links (if any) go on at once. */
		request_finish(request);
		return;
	}
	request->file_index = calloc(n + 1, sizeof(*request->file_index));
	request->file_names = calloc(n + 1, sizeof(*request->file_names));
	if (!request->file_index || !request->file_names || !start_opening(request)) {
		wlr_log(WLR_ERROR, "File grants for %s: cannot open the files",
			cordon_log_text(app_id));
		request_free(request);
		done(data, id, NULL, 0, 0);
	}
}

/* Sandbox to host */

static bool app_may_read(sd_bus_message *reply, const char *app_id) {
	if (sd_bus_message_enter_container(reply, 'a', "{sas}") < 0) {
		return false;
	}
	bool allowed = false;
	while (sd_bus_message_enter_container(reply, 'e', "sas") > 0) {
		const char *app = NULL;
		char **permissions = NULL;
		if (sd_bus_message_read(reply, "s", &app) < 0 ||
			sd_bus_message_read_strv(reply, &permissions) < 0) {
			return false;
		}
		for (char **p = permissions; p && *p; p++) {
			if (strcmp(app, app_id) == 0 && strcmp(*p, "read") == 0) {
				allowed = true;
			}
			free(*p);
		}
		free(permissions);
		if (sd_bus_message_exit_container(reply) < 0) {
			return false;
		}
	}
	return allowed;
}

static int handle_info_reply(sd_bus_message *reply, void *data, sd_bus_error *error) {
	struct lookup *lookup = data;
	struct request *request = lookup->request;
	lookup->slot = sd_bus_slot_unref(lookup->slot);
	const void *path = NULL;
	size_t size = 0;
	if (sd_bus_message_is_method_error(reply, NULL)) {
		wlr_log(WLR_INFO, "File grants: %s offered document %s, which it does not hold",
			cordon_log_text(request->app_id), cordon_log_text(lookup->doc_id));
	} else if (sd_bus_message_read_array(reply, 'y', &path, &size) >= 0 && size > 0 &&
		app_may_read(reply, request->app_id)) {
		/* The name in the URI must be the document's own: no other file of the host by it.
		 */
		const char *host_path = path;
		const char *base = memrchr(host_path, '/', size);
		size_t base_len =
			base ? strnlen(base + 1, size - (size_t)(base + 1 - host_path)) : 0;
		if (base && base_len == strlen(lookup->name) &&
			strncmp(base + 1, lookup->name, base_len) == 0 &&
			asprintf(&request->out[lookup->index], "%s/%s/%s",
				request->grants->mount_point, lookup->doc_id, lookup->name) < 0) {
			request->out[lookup->index] = NULL;
		}
	} else {
		wlr_log(WLR_INFO, "File grants: %s offered document %s without read access to it",
			cordon_log_text(request->app_id), cordon_log_text(lookup->doc_id));
	}
	if (--request->pending == 0) {
		request_finish(request);
	}
	return 0;
}

void cordon_file_grants_translate(struct cordon_file_grants *grants, const char *app_id,
	const char *list, size_t len, cordon_file_grants_done_fn done, void *data, uint64_t id) {
	struct request *request =
		grants->ready ? request_create(grants, app_id, list, len, done, data, id) : NULL;
	if (!request) {
		done(data, id, NULL, 0, 0);
		return;
	}
	request->lookups = calloc(request->list.count + 1, sizeof(*request->lookups));
	if (!request->lookups) {
		request_free(request);
		done(data, id, NULL, 0, 0);
		return;
	}
	sd_bus *bus = cordon_session_bus_get(grants->session_bus);
	for (size_t i = 0; i < request->list.count; i++) {
		const struct cordon_uri *uri = &request->list.uris[i];
		if (uri->kind != CORDON_URI_FILE) {
			continue;
		}
		struct lookup *lookup = &request->lookups[request->lookup_count];
		if (!cordon_uri_split_document(uri->text, grants->sandbox_root, lookup->doc_id,
			    sizeof(lookup->doc_id), lookup->name, sizeof(lookup->name))) {
			/* A path of the sandbox's own files: it names nothing the host has. */
			wlr_log(WLR_DEBUG, "File grants: a path outside %s's documents dropped",
				cordon_log_text(app_id));
			continue;
		}
		lookup->request = request;
		lookup->index = i;
		int r = sd_bus_call_method_async(bus, &lookup->slot, PORTAL_NAME, PORTAL_PATH,
			PORTAL_INTERFACE, "Info", handle_info_reply, lookup, "s", lookup->doc_id);
		if (r < 0) {
			wlr_log(WLR_ERROR, "File grants: cannot ask the document portal: %s",
				strerror(-r));
			continue;
		}
		request->lookup_count++;
		request->pending++;
	}
	if (request->pending == 0) {
		request_finish(request);
		return;
	}
	cordon_session_bus_changed(grants->session_bus);
}

/* Life cycle */

static int handle_mount_point(sd_bus_message *reply, void *data, sd_bus_error *error) {
	struct cordon_file_grants *grants = data;
	grants->probe = sd_bus_slot_unref(grants->probe);
	const sd_bus_error *e = sd_bus_message_get_error(reply);
	const void *path = NULL;
	size_t size = 0;
	if (e || sd_bus_message_read_array(reply, 'y', &path, &size) < 0 || size == 0) {
		wlr_log(WLR_INFO,
			"File grants are off: no document portal (%s); files do not cross "
			"sandbox boundaries",
			e ? e->message : "a bad reply");
		return 0;
	}
	grants->mount_point = strndup(path, size);
	if (!grants->mount_point) {
		return 0;
	}
	grants->ready = true;
	wlr_log(WLR_INFO,
		"File grants: files cross sandbox boundaries as documents of the "
		"document portal at %s",
		grants->mount_point);
	return 0;
}

struct cordon_file_grants *cordon_file_grants_create(
	struct wl_event_loop *loop, struct cordon_session_bus *bus) {
	struct cordon_file_grants *grants = calloc(1, sizeof(*grants));
	if (!grants) {
		return NULL;
	}
	grants->loop = loop;
	wl_list_init(&grants->requests);
	grants->session_bus = bus;
	/* Where cordon-run (and Flatpak) bind the app's own documents. */
	snprintf(grants->sandbox_root, sizeof(grants->sandbox_root), "/run/user/%u/doc",
		(unsigned)getuid());
	if (!bus) {
		wlr_log(WLR_INFO,
			"File grants are off: no session bus; files do not cross sandbox "
			"boundaries");
		return grants;
	}
	/* Also starts the portal (bus activation), so the first paste does not wait for that. */
	int r = sd_bus_call_method_async(cordon_session_bus_get(bus), &grants->probe, PORTAL_NAME,
		PORTAL_PATH, PORTAL_INTERFACE, "GetMountPoint", handle_mount_point, grants, "");
	if (r < 0) {
		wlr_log(WLR_INFO, "File grants are off: cannot ask the document portal (%s)",
			strerror(-r));
	}
	cordon_session_bus_changed(bus);
	return grants;
}

void cordon_file_grants_destroy(struct cordon_file_grants *grants) {
	if (!grants) {
		return;
	}
	struct request *request, *tmp;
	wl_list_for_each_safe(request, tmp, &grants->requests, link) {
		request_free(request);
	}
	sd_bus_slot_unref(grants->probe);
	free(grants->mount_point);
	free(grants);
}

bool cordon_file_grants_ready(const struct cordon_file_grants *grants) {
	return grants && grants->ready;
}

bool cordon_file_grants_pending(const struct cordon_file_grants *grants) {
	return grants && !wl_list_empty(&grants->requests);
}
