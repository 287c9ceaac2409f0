/*
 * The life of one portal request, whatever the portal: created for a client with
 * its tag, configured, submitted (permission check, dialog), answered exactly once
 * (chosen, cancelled or failed), and cancelled when the client or parent goes away.
 */
#ifndef CORDON_PORTALS_REQUEST_H
#define CORDON_PORTALS_REQUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <wayland-server-core.h>

#include "sandbox/cgroup_tag.h"

struct cordon_portals;
struct cordon_portal_dialog;
struct cordon_portal_request;

/* Requests a client may have before it gets an answer (SECURITY-NOTES: per-client caps). */
#define CORDON_PORTAL_MAX_REQUESTS_PER_CLIENT 8
/* Request objects a client may hold at all, answered ones it has not destroyed included. */
#define CORDON_PORTAL_MAX_OBJECTS_PER_CLIENT 32
/*
 * Requests one app may have waiting for an answer, over all its connections and both doors
 * together (an app may open any number of connections: 12 once held 96 camera dialogs).
 * The app is the tag (cordon_tag_same_sandbox); host clients are capped per client only.
 */
#define CORDON_PORTAL_MAX_REQUESTS_PER_APP 8
/* 128 bits from getrandom, as hex. */
#define CORDON_PORTAL_TOKEN_LEN 32

enum cordon_portal_request_state {
	CORDON_PORTAL_REQUEST_CONFIGURING,
	CORDON_PORTAL_REQUEST_PENDING, /* submitted, dialog open */
	CORDON_PORTAL_REQUEST_ANSWERED,
};

enum cordon_portal_result {
	CORDON_PORTAL_CHOSEN,
	CORDON_PORTAL_CANCELLED,
	CORDON_PORTAL_FAILED,
};

/* The failure codes every portal protocol shares (cordon-portal-v1.xml, enum failure). */
enum cordon_portal_failure {
	CORDON_PORTAL_FAILURE_DENIED = 0,
	CORDON_PORTAL_FAILURE_BUSY = 1,
	CORDON_PORTAL_FAILURE_IO = 2,
	CORDON_PORTAL_FAILURE_UNAVAILABLE = 3,
};

/* An fd cordon opened for the app, with the name the app may show. */
struct cordon_portal_file {
	int fd;
	char *display_name;
};

struct cordon_portal_response {
	enum cordon_portal_result result;
	enum cordon_portal_failure failure; /* with CORDON_PORTAL_FAILED */
	const char *reason; /* with CORDON_PORTAL_FAILED */
	const struct cordon_portal_file *files; /* with CORDON_PORTAL_CHOSEN */
	size_t file_count;
};

/* What a portal (file chooser, later camera, print) implements. */
struct cordon_portal_request_impl {
	const char *portal; /* the permission store's name: "file-chooser" */
	/* Puts the response on the wire; called once, by cordon_portal_request_respond. */
	void (*send_response)(struct cordon_portal_request *request,
		const struct cordon_portal_response *response);
	/*
	 * The user chose NAME in DIR_FD: open it in the portal's mode and keep it for the
	 * response. False with *reason (static text) when refused. NULL for portals that
	 * take no files (camera, print): every choice is refused.
	 */
	bool (*choose_at)(struct cordon_portal_request *request, int dir_fd, const char *name,
		const char **reason);
	/* The chosen files so far, handed over by the response; NULL: none, ever. */
	void (*get_files)(struct cordon_portal_request *request,
		const struct cordon_portal_file **files, size_t *count);
	/*
	 * Optional, for portals that answer themselves, later than the dialog (a camera
	 * provider runs, a print job is sent first): the user confirmed. The portal
	 * closes the dialog and responds when it can, instead of the chosen-files response.
	 */
	void (*confirm)(struct cordon_portal_request *request);
	/* Optional: the user picked the dialog's camera provider INDEX. */
	bool (*choose_provider)(struct cordon_portal_request *request, size_t index);
	/*
	 * Optional: the store says allow. True when the portal went on without a
	 * dialog (nothing left to ask the user), false to show one anyway.
	 */
	bool (*allowed_without_dialog)(struct cordon_portal_request *request);
	/*
	 * Optional: checked after the policy and the store let the app ask. A reason
	 * (static text) fails the request as unavailable without a dialog.
	 */
	const char *(*unavailable)(struct cordon_portal_request *request);
	/*
	 * Optional (camera photo): the dialog shows provider INDEX's live preview of about
	 * WIDTH x HEIGHT, in frames sent to cordon_portal_dialog_send_preview_frame, until
	 * stop_preview or the answer. False when it cannot start.
	 */
	bool (*start_preview)(struct cordon_portal_request *request, size_t index, uint32_t width,
		uint32_t height);
	void (*stop_preview)(struct cordon_portal_request *request);
	/* Optional (print): the user's choice of one setting; false with *reason when refused. */
	bool (*set_setting)(struct cordon_portal_request *request, const char *key,
		const char *value, const char **reason);
	/* Optional (SaveFiles): the user confirmed writing file INDEX under its own name. */
	bool (*replace_file)(struct cordon_portal_request *request, size_t index);
};

struct cordon_portal_request {
	struct cordon_portals *portals;
	struct wl_list link; /* cordon_portals.requests */
	const struct cordon_portal_request_impl *impl;
	void *data; /* the portal's own state */
	struct wl_client *client; /* NULL: a D-Bus request without a parent window */
	/*
	 * Copied from the client's record when the request is made (docs/sandbox-identity.md);
	 * cordon_tag_unknown for an unknown sandbox.
	 */
	struct cordon_tag tag;
	pid_t pid;
	struct timespec asked_at; /* CLOCK_REALTIME, when the app asked */
	char token[CORDON_PORTAL_TOKEN_LEN + 1];
	enum cordon_portal_request_state state;
	/* Made while its app was at CORDON_PORTAL_MAX_REQUESTS_PER_APP: refused at submit. */
	bool over_app_cap;
	/* The xdg_toplevel the dialog belongs to, or NULL. */
	struct wl_resource *parent;
	struct wl_listener parent_destroy;
	struct cordon_portal_dialog *dialog;
};

/*
 * A new request of CLIENT, asked for on MANAGER. NULL after posting the error: the
 * manager's too_many_requests when the client is over its caps, else no memory. A
 * request of an app at its cap (over all its clients) is made, and refused as busy at
 * submit: the connection that asks is not at fault.
 */
struct cordon_portal_request *cordon_portal_request_create(struct cordon_portals *portals,
	struct wl_client *client, struct wl_resource *manager,
	const struct cordon_portal_request_impl *impl, void *data);
/*
 * Who asks, for a request from the D-Bus door (portals/dbus/): the tag comes from the
 * frontend's app id or the parent window's client, CLIENT is that window's client or NULL.
 */
struct cordon_portal_caller {
	struct wl_client *client;
	struct cordon_tag tag; /* cordon_tag_unknown for an unknown sandbox */
	pid_t pid;
};
/* A new request of CALLER; NULL with *over_cap when over its caps, else out of memory. */
struct cordon_portal_request *cordon_portal_request_create_for(struct cordon_portals *portals,
	const struct cordon_portal_caller *caller, const struct cordon_portal_request_impl *impl,
	void *data, bool *over_cap);
/* Ends the request without a response (its resource is going away): dismisses any dialog. */
void cordon_portal_request_destroy(struct cordon_portal_request *request);

/* Sets the parent toplevel before submit; false if it is not the client's own. */
bool cordon_portal_request_set_parent(
	struct cordon_portal_request *request, struct wl_resource *toplevel);

/*
 * Submits: a denied app fails at once without a dialog, a parent with a dialog open
 * fails as busy, otherwise the dialog opens with DIALOG_REQUEST's options.
 */
struct cordon_portal_ui_request;
void cordon_portal_request_submit(
	struct cordon_portal_request *request, struct cordon_portal_ui_request *dialog_request);

/*
 * The policy and permission checks of submit, for a portal that must know before
 * the dialog (print with a token shows none): false with the failure and reason.
 */
bool cordon_portal_request_check(struct cordon_portal_request *request,
	enum cordon_portal_failure *failure, const char **reason);

/*
 * The one place a response leaves for the app: every portal's answer goes through
 * here, exactly once per request. Closes the dialog.
 */
void cordon_portal_request_respond(
	struct cordon_portal_request *request, const struct cordon_portal_response *response);
/* Closes the request's dialog, if any, without answering (the portal goes on alone). */
void cordon_portal_request_close_dialog(struct cordon_portal_request *request);

/* Shorthands for respond. */
void cordon_portal_request_fail(struct cordon_portal_request *request,
	enum cordon_portal_failure failure, const char *reason);
void cordon_portal_request_cancel(struct cordon_portal_request *request);

/* The app id the store and the dialog know the caller by ("" for an unknown sandbox). */
const char *cordon_portal_request_app_id(const struct cordon_portal_request *request);

/* 32 hex digits from getrandom; false if the kernel gave none. */
bool cordon_portal_make_token(char token[CORDON_PORTAL_TOKEN_LEN + 1]);

#endif
