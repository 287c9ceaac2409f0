/*
 * Selection mediation: the mechanism behind selection_policy.c. The seat never
 * holds a client's own source. Cordon keeps the client's source (one per
 * selection kind) and hands the seat a "view" made for the client that has
 * keyboard focus: for the same side, a view that passes fds straight to the
 * source; across a boundary, a view with only the allowed types whose data
 * goes through data_proxy.c, or no view at all. When focus moves, the old
 * view is withdrawn before the new client is entered, so that no client ever
 * sees an offer made for another; wlroots destroys the replaced view, which
 * makes the offers made from it inert.
 */
#include "compositor/selection.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_data_device.h>
#include <wlr/types/wlr_primary_selection.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/util/log.h>

#include "compositor/client.h"
#include "compositor/data_proxy.h"
#include "compositor/file_grants.h"
#include "compositor/freeze.h"
#include "compositor/input_router.h"
#include "compositor/mediation_notice.h"
#include "compositor/server.h"
#include "compositor/uri_list.h"
#include "compositor/xwayland.h"

#define SERIAL_RING 16

struct input_serial {
	uint32_t serial;
	struct timespec time;
};

struct slot;

/* What one destination is offered; embedded in both kinds of view source. */
struct view_info {
	struct slot *slot;
	enum cordon_offer_mode mode;
	struct wl_client *destination; /* NULL: no keyboard focus (data-control readers) */
	char destination_name[CORDON_TRANSFER_TAG_MAX];
	uint64_t generation; /* the slot's source this view was made from */
	struct wl_array *mime_types; /* the view's own, filtered, list */
};

struct clipboard_view {
	struct wlr_data_source base;
	struct view_info info;
};

struct primary_view {
	struct wlr_primary_selection_source base;
	struct view_info info;
};

/* A client's selection source, as cordon keeps it. */
struct slot {
	struct cordon_selection *selection;
	enum cordon_selection_kind kind;
	/* wlr_data_source (clipboard) or wlr_primary_selection_source (primary); NULL: empty */
	void *source;
	struct wl_client *owner; /* compared only: it may have gone */
	struct cordon_tag tag; /* the owner's, copied: cordon_tag_unknown for an unknown sandbox */
	uint32_t serial;
	uint64_t generation; /* grows with every new source */
	/*
	 * The generation the focused client's latest user press saw (0: none since it got
	 * focus). A press consents to what the slot holds then: a source set after it (a host
	 * program copying while a sandboxed app keeps the focus) waits for the next press.
	 */
	uint64_t consented;
	void *view; /* the view source on the seat, or NULL */
	/* The last decision, for cordonctl selection: for whom (a tag name), and what. */
	char decided_for[CORDON_TRANSFER_TAG_MAX];
	struct cordon_offer_decision decision;
	struct wl_listener source_destroy;
};

/*
 * A drag's source as the seat and the drop targets see it: cordon's own, in
 * front of the client's. Its types are rewritten for each surface the pointer
 * enters (wlroots makes the target's offer from them right then), and what a
 * target receives across a boundary goes through the proxy, and only once the
 * user dropped on that target: an offer is made to every surface the pointer
 * passes over, and wlroots serves a receive on it at any time.
 */
struct drag_proxy {
	struct wlr_data_source base;
	struct cordon_selection *selection;
	struct wlr_data_source *source; /* the client's; NULL once gone */
	struct wl_client *owner;
	struct cordon_tag tag; /* the owner's, copied */
	struct wl_client *target; /* whose offer the types were last made for */
	/* The client the user dropped on (compared only: it may have gone); NULL before the drop.
	 */
	struct wl_client *dropped_on;
	bool early_receive_logged; /* one log line per drag, however often a target asks */
	struct wl_listener source_destroy;
	struct wl_listener drag_drop; /* the wlr_drag's: the user released over a target */
	struct wl_listener drag_destroy; /* the wlr_drag's: the drag is over, the drop may not be */
};

struct cordon_selection {
	struct cordon_server *server;
	struct wlr_seat *wlr_seat;
	struct cordon_data_proxy *proxy;
	struct cordon_transfer_log log;
	struct slot clipboard, primary;

	/* The client with keyboard focus, and whether the user pressed a key or button in it since.
	 */
	struct wl_client *focus_client;
	bool focus_acted;
	/* The paste-across shortcut was pressed in focus_client since it got focus. */
	bool pasted_across;
	/* Serials of input events delivered to focus_client since it got focus. */
	struct input_serial serials[SERIAL_RING];
	size_t serial_count, serial_next;
	/* The last button press, for drags. */
	struct wl_client *press_client;
	uint32_t press_serial;

	/*
	 * The client whose request libwayland is dispatching: the one asking to set
	 * a selection or to receive from a view. wlroots' signals do not say.
	 */
	struct wl_client *requester;
	struct wl_protocol_logger *logger;
	struct drag_proxy *drag; /* the drag in progress, if it has a source */
	struct cordon_mediation_notice *notice;
	struct cordon_file_grants *grants; /* NULL until grants_idle ran */
	struct wl_event_source *grants_idle;
	struct wl_list file_transfers; /* file_transfer.link */

	/* cordon_selection_view_event: a view went on the seat (xwayland_selection.c). */
	struct wl_signal view_set;

	struct wl_listener keyboard_focus_change;
	/* The seat's input boundary (input_router.c): what counts as the user's action. */
	struct cordon_input_router *router;
	struct wl_listener press;
	struct wl_listener input_delivered;
	struct wl_listener focus_will_change;
};

/* A uri-list on its way across: granted (host to sandbox) or translated back (to the host). */
struct file_transfer {
	struct wl_list link; /* cordon_selection.file_transfers */
	struct cordon_selection *selection;
	uint64_t id;
	bool to_host;
	char app_id[CORDON_TAG_APP_ID_MAX]; /* the sandboxed side's */
};

/*
 * With no keyboard focus, only data-control clients (a host-only global) read the seat,
 * and each of them is decided again as it reads (mode_for_other_reader): the view on the
 * seat is then made as for a host reader. Not a stand-in for a client that is missing.
 */
static const struct cordon_tag data_control_readers = {
	.engine = CORDON_SANDBOX_HOST, .sandboxed = false};

static const struct cordon_tag *slot_tag(const struct slot *slot) {
	return &slot->tag;
}

/* A missing client (no requester known) is an unknown sandbox, as an unidentified one. */
static const struct cordon_tag *client_tag(struct wl_client *client) {
	return cordon_client_get_tag(client ? cordon_client_from_wl(client) : NULL);
}

/* What the focused destination (or, with none, the data-control readers) counts as. */
static const struct cordon_tag *destination_tag(struct wl_client *destination) {
	return destination ? client_tag(destination) : &data_control_readers;
}

/* The rules for a transfer between two tags, from policy.ini (docs/mediation.md). */
static void rules_between(struct cordon_selection *selection, const struct cordon_tag *a,
	const struct cordon_tag *b, struct cordon_selection_rules *rules) {
	cordon_selection_rules_between(rules, selection->server->policy, a, b);
	/* Without a document portal there is nothing to grant files through: they do not cross. */
	if (!cordon_file_grants_ready(selection->grants)) {
		rules->files_cross = false;
	}
}

static void tag_name(const struct cordon_tag *tag, char *out, size_t size) {
	cordon_transfer_tag_name(tag, out, size);
}

static uint32_t elapsed_ms(const struct timespec *since) {
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	int64_t ms = (int64_t)(now.tv_sec - since->tv_sec) * 1000 +
		(now.tv_nsec - since->tv_nsec) / 1000000;
	return ms < 0 ? 0 : ms > UINT32_MAX ? UINT32_MAX : (uint32_t)ms;
}

static const char *kind_name(const struct slot *slot) {
	return cordon_selection_kind_name(slot->kind);
}

/* Source plumbing, per kind */

static struct wl_array *source_mime_types(struct slot *slot) {
	if (slot->kind == CORDON_SELECTION_PRIMARY) {
		return &((struct wlr_primary_selection_source *)slot->source)->mime_types;
	}
	return &((struct wlr_data_source *)slot->source)->mime_types;
}

/*
 * The one place where a source is asked to write. A frozen app could not answer,
 * so its app is thawed first. The owner is alive: its source still exists. Takes fd.
 */
static void ask_source_to_send(struct slot *slot, const char *mime_type, int fd) {
	cordon_freeze_wake(slot->selection->server, slot->owner, "clipboard read");
	if (slot->kind == CORDON_SELECTION_PRIMARY) {
		wlr_primary_selection_source_send(slot->source, mime_type, fd);
	} else {
		wlr_data_source_send(slot->source, mime_type, fd);
	}
}

/* The same for a drag's source, for its drop target. Takes fd. */
static void ask_drag_source_to_send(struct drag_proxy *drag, const char *mime_type, int fd) {
	cordon_freeze_wake(drag->selection->server, drag->owner, "drop");
	wlr_data_source_send(drag->source, mime_type, fd);
}

static void destroy_source(struct slot *slot, void *source) {
	if (slot->kind == CORDON_SELECTION_PRIMARY) {
		wlr_primary_selection_source_destroy(source);
	} else {
		wlr_data_source_destroy(source);
	}
}

static struct view_info *view_info(struct slot *slot, void *view);

/* Puts a view (or nothing) on the seat; wlroots destroys the view it replaces. */
static void slot_set_view(struct slot *slot, void *view) {
	if (view == NULL && slot->view == NULL) {
		return;
	}
	slot->view = view;
	struct wlr_seat *seat = slot->selection->wlr_seat;
	if (slot->kind == CORDON_SELECTION_PRIMARY) {
		wlr_seat_set_primary_selection(seat, view, slot->serial);
	} else {
		wlr_seat_set_selection(seat, view, slot->serial);
	}
	if (!view) {
		return;
	}
	struct view_info *info = view_info(slot, view);
	struct cordon_selection_view_event event = {
		.kind = slot->kind,
		.view = view,
		.destination = info->destination,
		.from_destination = slot->owner == info->destination,
	};
	wl_signal_emit_mutable(&slot->selection->view_set, &event);
}

static struct view_info *view_info(struct slot *slot, void *view) {
	if (slot->kind == CORDON_SELECTION_PRIMARY) {
		return &((struct primary_view *)view)->info;
	}
	return &((struct clipboard_view *)view)->info;
}

/* Sending through a view */

static bool view_offers(const struct view_info *info, const char *mime_type) {
	char **type;
	wl_array_for_each(type, info->mime_types) {
		if (strcmp(*type, mime_type) == 0) {
			return true;
		}
	}
	return false;
}

/*
 * How a reader other than the view's destination is served. The seat has one
 * selection for the focused client and for data-control clients alike (a
 * host-only global: clipboard managers, wl-paste on the host), which read it
 * whatever has focus; for them cordon decides again, as for a host reader.
 * Anyone else holding an offer made for another client is refused.
 */
static enum cordon_offer_mode mode_for_other_reader(
	struct slot *slot, struct wl_client *reader, const char *mime_type) {
	const struct cordon_tag *tag = client_tag(reader);
	if (cordon_tag_is_unknown(tag) || tag->sandboxed) {
		return CORDON_OFFER_NONE;
	}
	struct cordon_selection_rules rules;
	rules_between(slot->selection, slot_tag(slot), tag, &rules);
	struct cordon_offer_decision decision =
		cordon_selection_offer(&rules, slot->kind, slot_tag(slot), tag, false, false,
			cordon_selection_type_allowed(&rules, mime_type));
	return decision.mode;
}

static void handle_grants_done(void *data, uint64_t id, char *list, size_t len, size_t files) {
	struct cordon_selection *selection = data;
	wlr_log(WLR_DEBUG, "Transfer %llu: %zu file(s) across", (unsigned long long)id, files);
	cordon_data_proxy_deliver(selection->proxy, id, list, len);
}

/* The source's whole uri-list is in: grant its files, or translate them back for the host. */
static void handle_file_transform(void *data, uint64_t id, const char *bytes, size_t len) {
	struct file_transfer *transfer = data;
	struct cordon_selection *selection = transfer->selection;
	if (transfer->to_host) {
		cordon_file_grants_translate(selection->grants, transfer->app_id, bytes, len,
			handle_grants_done, selection, id);
	} else {
		cordon_file_grants_export(selection->grants, transfer->app_id, bytes, len,
			handle_grants_done, selection, id);
	}
}

static struct file_transfer *find_file_transfer(struct cordon_selection *selection, uint64_t id) {
	struct file_transfer *transfer;
	wl_list_for_each(transfer, &selection->file_transfers, link) {
		if (transfer->id == id) {
			return transfer;
		}
	}
	return NULL;
}

static const char *proxied_decision(const char *mime_type) {
	return cordon_selection_type_is_files(mime_type) ? "granting" : "proxying";
}

/*
 * Copies from cordon's pipe (from) to the reader (to). A uri-list is read whole instead
 * (at most CORDON_URI_LIST_MAX), its files granted or translated (file_grants.c), and
 * the rewritten list written to the reader. Files cross only between the host and a
 * known app (rules.files_cross): both tags are then known.
 */
static void start_transfer(struct cordon_selection *selection, int from, int to,
	const struct cordon_selection_rules *rules, const char *mime_type, const void *source,
	const struct cordon_tag *source_tag, const void *reader,
	const struct cordon_tag *reader_tag, uint64_t id) {
	if (!cordon_selection_type_is_files(mime_type)) {
		cordon_data_proxy_start(
			selection->proxy, from, to, rules->size_limit, source, reader, id);
		return;
	}
	struct file_transfer *transfer = calloc(1, sizeof(*transfer));
	if (!transfer || !source_tag || !reader_tag) {
		free(transfer);
		close(from);
		close(to);
		cordon_transfer_log_finish(&selection->log, id, 0, "failed");
		return;
	}
	transfer->selection = selection;
	transfer->id = id;
	transfer->to_host = !reader_tag->sandboxed;
	snprintf(transfer->app_id, sizeof(transfer->app_id), "%s",
		transfer->to_host ? source_tag->app_id : reader_tag->app_id);
	uint64_t limit =
		rules->size_limit < CORDON_URI_LIST_MAX ? rules->size_limit : CORDON_URI_LIST_MAX;
	wl_list_insert(&selection->file_transfers, &transfer->link);
	if (!cordon_data_proxy_start_transformed(selection->proxy, from, to, limit, source, reader,
		    id, handle_file_transform, transfer)) {
		wl_list_remove(&transfer->link);
		free(transfer);
		cordon_transfer_log_finish(&selection->log, id, 0, "failed");
	}
}

/* Serves a reader of a view: the destination it was made for, or another (decided again). */
static void view_send_to(
	struct view_info *info, struct wl_client *reader, const char *mime_type, int fd) {
	struct slot *slot = info->slot;
	if (!slot || !slot->source) {
		close(fd);
		return;
	}
	struct cordon_selection *selection = slot->selection;
	enum cordon_offer_mode mode = info->mode;
	bool type_offered = view_offers(info, mime_type);
	char reader_name[CORDON_TRANSFER_TAG_MAX];
	snprintf(reader_name, sizeof(reader_name), "%s", info->destination_name);
	struct cordon_selection_rules rules;
	rules_between(selection, slot_tag(slot), client_tag(reader), &rules);
	/*
	 * An X server reading its own X selection back through the seat: its window manager
	 * took the X selection over when the seat showed this view, so the X source would ask
	 * the window manager, which asks this view again, without end.
	 */
	if (reader && reader == slot->owner &&
		cordon_xwayland_from_client(selection->server, reader)) {
		cordon_transfer_log_add(&selection->log, kind_name(slot), reader_name, reader_name,
			mime_type, "denied-own-x-selection");
		close(fd);
		return;
	}
	if (reader != info->destination) {
		mode = mode_for_other_reader(slot, reader, mime_type);
		type_offered = cordon_selection_type_allowed(&rules, mime_type);
		tag_name(client_tag(reader), reader_name, sizeof(reader_name));
	}
	if (mode == CORDON_OFFER_DIRECT) {
		ask_source_to_send(slot, mime_type, fd);
		return;
	}
	char source_name[CORDON_TRANSFER_TAG_MAX];
	tag_name(slot_tag(slot), source_name, sizeof(source_name));
	/* wlroots passes any type a client asks for: only those offered in this view go. */
	const char *refusal = NULL;
	int limit = rules.transfers_per_client;
	if (mode == CORDON_OFFER_NONE) {
		refusal = "denied-not-focused";
	} else if (!type_offered) {
		refusal = "denied-type";
	} else if (cordon_data_proxy_count(selection->proxy, reader) >= limit ||
		cordon_data_proxy_count(selection->proxy, slot->owner) >= limit) {
		refusal = "denied-too-many-transfers";
	}
	if (refusal) {
		cordon_transfer_log_add(&selection->log, kind_name(slot), source_name, reader_name,
			mime_type, refusal);
		close(fd);
		return;
	}
	int pipe_fds[2];
	if (pipe2(pipe_fds, O_CLOEXEC | O_NONBLOCK) < 0) {
		cordon_transfer_log_add(&selection->log, kind_name(slot), source_name, reader_name,
			mime_type, "failed-no-pipe");
		close(fd);
		return;
	}
	uint64_t id = cordon_transfer_log_add(&selection->log, kind_name(slot), source_name,
		reader_name, mime_type, proxied_decision(mime_type));
	/* The source gets cordon's pipe, never the reader's fd. */
	ask_source_to_send(slot, mime_type, pipe_fds[1]);
	start_transfer(selection, pipe_fds[0], fd, &rules, mime_type, slot->owner, slot_tag(slot),
		reader, client_tag(reader), id);
}

/* A Wayland reader: the client whose receive request libwayland is dispatching. */
static void view_send(struct view_info *info, const char *mime_type, int fd) {
	struct wl_client *reader = info->slot ? info->slot->selection->requester : NULL;
	view_send_to(info, reader, mime_type, fd);
}

static void handle_transfer_done(
	void *data, uint64_t id, uint64_t bytes, enum cordon_transfer_end end) {
	struct cordon_selection *selection = data;
	struct file_transfer *files = find_file_transfer(selection, id);
	const char *complete = files ? "granted" : "proxied";
	if (files) {
		wl_list_remove(&files->link);
		free(files);
	}
	cordon_transfer_log_finish(&selection->log, id, bytes,
		end == CORDON_TRANSFER_COMPLETE ? complete : cordon_transfer_end_name(end));
}

static void clipboard_view_send(struct wlr_data_source *source, const char *mime_type, int32_t fd) {
	view_send(&((struct clipboard_view *)source)->info, mime_type, fd);
}

static void clipboard_view_destroy(struct wlr_data_source *source) {
	struct clipboard_view *view = (struct clipboard_view *)source;
	if (view->info.slot && view->info.slot->view == view) {
		view->info.slot->view = NULL;
	}
	free(view);
}

static const struct wlr_data_source_impl clipboard_view_impl = {
	.send = clipboard_view_send,
	.destroy = clipboard_view_destroy,
};

static void primary_view_send(
	struct wlr_primary_selection_source *source, const char *mime_type, int fd) {
	view_send(&((struct primary_view *)source)->info, mime_type, fd);
}

static void primary_view_destroy(struct wlr_primary_selection_source *source) {
	struct primary_view *view = (struct primary_view *)source;
	if (view->info.slot && view->info.slot->view == view) {
		view->info.slot->view = NULL;
	}
	free(view);
}

static const struct wlr_primary_selection_source_impl primary_view_impl = {
	.send = primary_view_send,
	.destroy = primary_view_destroy,
};

/* Making views */

static void *view_create(struct slot *slot) {
	if (slot->kind == CORDON_SELECTION_PRIMARY) {
		struct primary_view *view = calloc(1, sizeof(*view));
		if (!view) {
			return NULL;
		}
		wlr_primary_selection_source_init(&view->base, &primary_view_impl);
		view->info.mime_types = &view->base.mime_types;
		return view;
	}
	struct clipboard_view *view = calloc(1, sizeof(*view));
	if (!view) {
		return NULL;
	}
	wlr_data_source_init(&view->base, &clipboard_view_impl);
	view->info.mime_types = &view->base.mime_types;
	return view;
}

static void view_destroy(struct slot *slot, void *view) {
	view_info(slot, view)->slot = NULL;
	destroy_source(slot, view);
}

static bool add_type(struct wl_array *types, const char *mime_type) {
	char **entry = wl_array_add(types, sizeof(*entry));
	if (!entry) {
		return false;
	}
	*entry = strdup(mime_type);
	if (!*entry) {
		types->size -= sizeof(*entry);
		return false;
	}
	return true;
}

static size_t count_allowed(struct slot *slot, const struct cordon_selection_rules *rules) {
	size_t count = 0;
	char **type;
	wl_array_for_each(type, source_mime_types(slot)) {
		count += cordon_selection_type_allowed(rules, *type);
	}
	return count;
}

/* Offers the focused client what the policy allows it of this slot. */
static void slot_refresh(struct slot *slot) {
	struct cordon_selection *selection = slot->selection;
	if (!slot->source) {
		slot_set_view(slot, NULL);
		return;
	}
	struct wlr_seat_client *focused = selection->wlr_seat->keyboard_state.focused_client;
	struct wl_client *destination = focused ? focused->client : NULL;
	bool acted = destination && destination == selection->focus_client &&
		selection->focus_acted && slot->consented == slot->generation;
	bool pasted_across = acted && selection->pasted_across;
	struct cordon_selection_rules rules;
	rules_between(selection, slot_tag(slot), destination_tag(destination), &rules);
	struct cordon_offer_decision decision = cordon_selection_offer(&rules, slot->kind,
		slot_tag(slot), destination_tag(destination), acted, pasted_across,
		count_allowed(slot, &rules));
	slot->decision = decision;
	tag_name(destination_tag(destination), slot->decided_for, sizeof(slot->decided_for));
	if (slot->view) {
		struct view_info *current = view_info(slot, slot->view);
		if (current->destination == destination && current->mode == decision.mode &&
			current->generation == slot->generation) {
			return;
		}
	}
	wlr_log(WLR_DEBUG, "%s offer to client %p: %s", kind_name(slot), (void *)destination,
		cordon_offer_reason_name(decision.reason));
	if (decision.mode == CORDON_OFFER_NONE) {
		slot_set_view(slot, NULL);
		return;
	}
	void *view = view_create(slot);
	if (!view) {
		slot_set_view(slot, NULL);
		return;
	}
	struct view_info *info = view_info(slot, view);
	info->slot = slot;
	info->mode = decision.mode;
	info->destination = destination;
	info->generation = slot->generation;
	tag_name(destination_tag(destination), info->destination_name,
		sizeof(info->destination_name));
	char **type;
	wl_array_for_each(type, source_mime_types(slot)) {
		if (decision.mode == CORDON_OFFER_PROXIED &&
			!cordon_selection_type_allowed(&rules, *type)) {
			continue;
		}
		if (!add_type(info->mime_types, *type)) {
			view_destroy(slot, view);
			slot_set_view(slot, NULL);
			return;
		}
	}
	slot_set_view(slot, view);
}

static void refresh_all(struct cordon_selection *selection) {
	slot_refresh(&selection->clipboard);
	slot_refresh(&selection->primary);
}

/* Taking a client's source */

static void slot_forget_source(struct slot *slot) {
	if (slot->source) {
		wl_list_remove(&slot->source_destroy.link);
		wl_list_init(&slot->source_destroy.link);
		slot->source = NULL;
	}
}

static void handle_source_destroy(struct wl_listener *listener, void *data) {
	struct slot *slot = wl_container_of(listener, slot, source_destroy);
	slot_forget_source(slot);
	slot_refresh(slot);
}

static struct wl_signal *source_destroy_signal(struct slot *slot, void *source) {
	if (slot->kind == CORDON_SELECTION_PRIMARY) {
		return &((struct wlr_primary_selection_source *)source)->events.destroy;
	}
	return &((struct wlr_data_source *)source)->events.destroy;
}

static void make_proof(struct cordon_selection *selection, struct wl_client *owner, uint32_t serial,
	struct cordon_selection_proof *proof) {
	memset(proof, 0, sizeof(*proof));
	struct wlr_seat_client *focused = selection->wlr_seat->keyboard_state.focused_client;
	proof->has_keyboard_focus = owner && focused && focused->client == owner;
	if (!owner || owner != selection->focus_client) {
		return;
	}
	for (size_t i = 0; i < selection->serial_count; i++) {
		const struct input_serial *input = &selection->serials[i];
		if (input->serial == serial) {
			proof->serial_is_input = true;
			proof->input_age_ms = elapsed_ms(&input->time);
			return;
		}
	}
}

/*
 * The proof behind a selection an X server's window manager set for one of its X clients:
 * X has no serials cordon could check, so the X server's latest input event stands in for
 * one. Only input the router judged the user's is recorded, and only since the X server got
 * the keyboard: with the 10 s age rule, the same test as a Wayland client's set_selection.
 */
static void make_latest_proof(struct cordon_selection *selection, struct wl_client *owner,
	struct cordon_selection_proof *proof) {
	memset(proof, 0, sizeof(*proof));
	struct wlr_seat_client *focused = selection->wlr_seat->keyboard_state.focused_client;
	proof->has_keyboard_focus = owner && focused && focused->client == owner;
	if (!owner || owner != selection->focus_client || selection->serial_count == 0) {
		return;
	}
	size_t latest = (selection->serial_next + SERIAL_RING - 1) % SERIAL_RING;
	proof->serial_is_input = true;
	proof->input_age_ms = elapsed_ms(&selection->serials[latest].time);
}

/* Takes source as owner's selection if the proof allows it; cancels it otherwise. */
static bool set_source(struct cordon_selection *selection, struct slot *slot, void *source,
	uint32_t serial, struct wl_client *owner, const struct cordon_tag *tag,
	const struct cordon_selection_proof *proof) {
	struct cordon_selection_rules rules;
	rules_between(selection, tag, tag, &rules);
	enum cordon_selection_verdict verdict = cordon_selection_may_set(&rules, tag, proof);
	if (verdict != CORDON_SELECTION_ALLOW) {
		char name[CORDON_TRANSFER_TAG_MAX], decision[CORDON_TRANSFER_DECISION_MAX];
		tag_name(tag, name, sizeof(name));
		snprintf(decision, sizeof(decision), "set-refused-%s",
			cordon_selection_verdict_name(verdict));
		cordon_transfer_log_add(&selection->log, kind_name(slot), name, "-", "", decision);
		/* Cancelled, as a replaced source is: the client knows it does not own the
		 * selection. */
		destroy_source(slot, source);
		return false;
	}
	void *old = slot->source;
	slot_forget_source(slot);
	slot->source = source;
	slot->owner = owner;
	slot->tag = *tag;
	slot->serial = serial;
	slot->generation++;
	slot->source_destroy.notify = handle_source_destroy;
	wl_signal_add(source_destroy_signal(slot, source), &slot->source_destroy);
	/* As wlroots does for a replaced selection: the old source is cancelled. */
	if (old) {
		destroy_source(slot, old);
	}
	slot_refresh(slot);
	return true;
}

static void request_set(
	struct cordon_selection *selection, struct slot *slot, void *source, uint32_t serial) {
	if (!source) {
		/* Clearing would let any client empty another's clipboard; the next copy replaces
		 * it. */
		wlr_log(WLR_DEBUG, "Ignoring a request to clear the %s", kind_name(slot));
		return;
	}
	if (source == slot->source) {
		return;
	}
	/* The client whose set_selection (or data-control request) this is. */
	struct wl_client *owner = selection->requester;
	struct cordon_selection_proof proof;
	make_proof(selection, owner, serial, &proof);
	set_source(selection, slot, source, serial, owner, client_tag(owner), &proof);
}

void cordon_selection_request_set(
	struct cordon_selection *selection, struct wlr_seat_request_set_selection_event *event) {
	request_set(selection, &selection->clipboard, event->source, event->serial);
}

void cordon_selection_request_set_primary(struct cordon_selection *selection,
	struct wlr_seat_request_set_primary_selection_event *event) {
	request_set(selection, &selection->primary, event->source, event->serial);
}

static struct slot *slot_of_kind(
	struct cordon_selection *selection, enum cordon_selection_kind kind) {
	return kind == CORDON_SELECTION_PRIMARY ? &selection->primary : &selection->clipboard;
}

bool cordon_selection_set_from_x11(struct cordon_selection *selection,
	enum cordon_selection_kind kind, void *source, struct wl_client *x_server,
	const struct cordon_tag *x_tag) {
	struct slot *slot = slot_of_kind(selection, kind);
	if (!source || source == slot->source) {
		return source != NULL;
	}
	struct cordon_selection_proof proof;
	make_latest_proof(selection, x_server, &proof);
	/* A fresh serial, as wlroots' X window manager uses: newer than the seat's current one. */
	uint32_t serial = wl_display_next_serial(selection->server->display);
	const struct cordon_tag *tag = x_server ? client_tag(x_server) : x_tag;
	return set_source(selection, slot, source, serial, x_server, tag, &proof);
}

void cordon_selection_view_send_to(struct cordon_selection *selection,
	enum cordon_selection_kind kind, void *view, struct wl_client *reader,
	const char *mime_type, int fd) {
	view_send_to(view_info(slot_of_kind(selection, kind), view), reader, mime_type, fd);
}

void cordon_selection_add_view_listener(
	struct cordon_selection *selection, struct wl_listener *listener) {
	wl_signal_add(&selection->view_set, listener);
}

/* Drags */

static const struct cordon_tag *drag_tag(const struct drag_proxy *drag) {
	return &drag->tag;
}

static void drag_forget_source(struct drag_proxy *drag) {
	if (drag->source) {
		wl_list_remove(&drag->source_destroy.link);
		drag->source = NULL;
	}
}

static void drag_send(struct wlr_data_source *base, const char *mime_type, int32_t fd) {
	struct drag_proxy *drag = wl_container_of(base, drag, base);
	struct cordon_selection *selection = drag->selection;
	if (!drag->source || !selection) {
		close(fd);
		return;
	}
	struct wl_client *reader = selection->requester;
	if (!reader) {
		close(fd);
		return;
	}
	const struct cordon_tag *reader_tag = client_tag(reader);
	if (!cordon_selection_crosses(drag_tag(drag), reader_tag)) {
		ask_drag_source_to_send(drag, mime_type, fd);
		return;
	}
	struct cordon_selection_rules rules;
	rules_between(selection, drag_tag(drag), reader_tag, &rules);
	char source_name[CORDON_TRANSFER_TAG_MAX], reader_name[CORDON_TRANSFER_TAG_MAX];
	tag_name(drag_tag(drag), source_name, sizeof(source_name));
	tag_name(reader_tag, reader_name, sizeof(reader_name));
	/*
	 * Across a boundary the data belongs to the drop: a window the drag only passes over
	 * (or one it left, holding on to its offer) gets an fd closed without data. Logged once
	 * per drag, so that a target asking on every motion cannot flood the transfer log.
	 */
	if (reader != drag->dropped_on) {
		if (!drag->early_receive_logged) {
			drag->early_receive_logged = true;
			cordon_transfer_log_add(&selection->log, "drag", source_name, reader_name,
				mime_type, "denied-before-drop");
		}
		close(fd);
		return;
	}
	const char *refusal = NULL;
	int pipe_fds[2];
	if (!cordon_selection_type_allowed(&rules, mime_type)) {
		refusal = "denied-type";
	} else if (cordon_data_proxy_count(selection->proxy, reader) >=
		rules.transfers_per_client) {
		refusal = "denied-too-many-transfers";
	} else if (pipe2(pipe_fds, O_CLOEXEC | O_NONBLOCK) < 0) {
		refusal = "failed-no-pipe";
	}
	if (refusal) {
		cordon_transfer_log_add(
			&selection->log, "drag", source_name, reader_name, mime_type, refusal);
		close(fd);
		return;
	}
	uint64_t id = cordon_transfer_log_add(&selection->log, "drag", source_name, reader_name,
		mime_type, proxied_decision(mime_type));
	ask_drag_source_to_send(drag, mime_type, pipe_fds[1]);
	start_transfer(selection, pipe_fds[0], fd, &rules, mime_type, drag->owner, drag_tag(drag),
		reader, reader_tag, id);
}

static void drag_accept(struct wlr_data_source *base, uint32_t serial, const char *mime_type) {
	struct drag_proxy *drag = wl_container_of(base, drag, base);
	if (drag->source) {
		wlr_data_source_accept(drag->source, serial, mime_type);
	}
}

static void drag_dnd_drop(struct wlr_data_source *base) {
	struct drag_proxy *drag = wl_container_of(base, drag, base);
	if (drag->source) {
		wlr_data_source_dnd_drop(drag->source);
	}
}

static void drag_dnd_finish(struct wlr_data_source *base) {
	struct drag_proxy *drag = wl_container_of(base, drag, base);
	if (drag->source) {
		wlr_data_source_dnd_finish(drag->source);
	}
}

static void drag_dnd_action(
	struct wlr_data_source *base, enum wl_data_device_manager_dnd_action action) {
	struct drag_proxy *drag = wl_container_of(base, drag, base);
	if (drag->source) {
		wlr_data_source_dnd_action(drag->source, action);
	}
}

/* wlroots destroys the drag's source when a drag is cancelled: the client's goes too. */
static void drag_ended(struct drag_proxy *drag) {
	if (drag->selection && drag->selection->drag == drag) {
		drag->selection->drag = NULL;
	}
	wl_list_remove(&drag->drag_destroy.link);
	wl_list_init(&drag->drag_destroy.link);
	wl_list_remove(&drag->drag_drop.link);
	wl_list_init(&drag->drag_drop.link);
}

/* wlroots drops only on a focused client that accepted a type and an action. */
static void handle_wlr_drag_drop(struct wl_listener *listener, void *data) {
	struct drag_proxy *drag = wl_container_of(listener, drag, drag_drop);
	struct wlr_drag_drop_event *event = data;
	struct wlr_seat_client *focus = event->drag->focus_client;
	drag->dropped_on = focus ? focus->client : NULL;
}

static void handle_wlr_drag_destroy(struct wl_listener *listener, void *data) {
	struct drag_proxy *drag = wl_container_of(listener, drag, drag_destroy);
	drag_ended(drag);
}

static void drag_destroy(struct wlr_data_source *base) {
	struct drag_proxy *drag = wl_container_of(base, drag, base);
	drag_ended(drag);
	struct wlr_data_source *source = drag->source;
	drag_forget_source(drag);
	free(drag);
	wlr_data_source_destroy(source);
}

static const struct wlr_data_source_impl drag_impl = {
	.send = drag_send,
	.accept = drag_accept,
	.destroy = drag_destroy,
	.dnd_drop = drag_dnd_drop,
	.dnd_finish = drag_dnd_finish,
	.dnd_action = drag_dnd_action,
};

/* The client's own source went (the drag finished or it gave up): so does cordon's. */
static void handle_drag_source_destroy(struct wl_listener *listener, void *data) {
	struct drag_proxy *drag = wl_container_of(listener, drag, source_destroy);
	drag_forget_source(drag);
	wlr_data_source_destroy(&drag->base);
}

static bool drag_set_types(struct drag_proxy *drag, struct wl_client *target) {
	char **type;
	wl_array_for_each(type, &drag->base.mime_types) {
		free(*type);
	}
	drag->base.mime_types.size = 0;
	drag->target = target;
	if (!drag->source) {
		return true;
	}
	const struct cordon_tag *target_tag = client_tag(target);
	bool crosses = cordon_selection_crosses(drag_tag(drag), target_tag);
	struct cordon_selection_rules rules;
	rules_between(drag->selection, drag_tag(drag), target_tag, &rules);
	wl_array_for_each(type, &drag->source->mime_types) {
		if (crosses && !cordon_selection_type_allowed(&rules, *type)) {
			continue;
		}
		if (!add_type(&drag->base.mime_types, *type)) {
			return false;
		}
	}
	return true;
}

/* Puts cordon's source in front of the client's before wlroots starts the drag. */
static void interpose_drag_source(struct cordon_selection *selection, struct wlr_drag *wlr_drag,
	struct wl_client *owner, const struct cordon_tag *tag) {
	struct wlr_data_source *source = wlr_drag->source;
	struct drag_proxy *drag = calloc(1, sizeof(*drag));
	if (!drag) {
		return;
	}
	wlr_data_source_init(&drag->base, &drag_impl);
	drag->base.actions = source->actions;
	drag->selection = selection;
	drag->source = source;
	drag->owner = owner;
	drag->tag = *tag;
	drag->source_destroy.notify = handle_drag_source_destroy;
	wl_signal_add(&source->events.destroy, &drag->source_destroy);
	drag->drag_destroy.notify = handle_wlr_drag_destroy;
	wl_signal_add(&wlr_drag->events.destroy, &drag->drag_destroy);
	drag->drag_drop.notify = handle_wlr_drag_drop;
	wl_signal_add(&wlr_drag->events.drop, &drag->drag_drop);
	drag_set_types(drag, owner);
	/*
	 * The seat and the targets see cordon's source from now on. wlroots' drag still ends
	 * with the client's source; the two go together (each one's end destroys the other),
	 * so the drag ends with either, as it did with the client's alone.
	 */
	wlr_drag->source = &drag->base;
	selection->drag = drag;
}

void cordon_selection_drag_will_enter(
	struct cordon_selection *selection, struct wlr_surface *surface) {
	struct drag_proxy *drag = selection->drag;
	if (!drag || !surface) {
		return;
	}
	struct wl_client *target = wl_resource_get_client(surface->resource);
	if (target != drag->target && !drag_set_types(drag, target)) {
		drag_set_types(drag, NULL);
	}
}

void cordon_selection_request_start_drag(
	struct cordon_selection *selection, struct wlr_seat_request_start_drag_event *event) {
	struct wlr_seat *seat = selection->wlr_seat;
	struct wl_client *owner = wl_resource_get_client(event->origin->resource);
	const struct cordon_tag *tag = client_tag(owner);
	struct cordon_selection_proof proof = {
		.button_down = seat->pointer_state.button_count > 0,
		.serial_is_press = selection->press_client == owner &&
			selection->press_serial == event->serial,
		.has_pointer_focus = seat->pointer_state.focused_surface == event->origin,
	};
	enum cordon_selection_verdict verdict = cordon_selection_may_drag(tag, &proof);
	/* wlroots' own check (one button held, its grab serial, the origin focused) applies to all.
	 */
	if (verdict == CORDON_SELECTION_ALLOW &&
		wlr_seat_validate_pointer_grab_serial(seat, event->origin, event->serial)) {
		if (event->drag->source) {
			interpose_drag_source(selection, event->drag, owner, tag);
		}
		wlr_seat_start_pointer_drag(seat, event->drag, event->serial);
		return;
	}
	char name[CORDON_TRANSFER_TAG_MAX], decision[CORDON_TRANSFER_DECISION_MAX];
	tag_name(tag, name, sizeof(name));
	snprintf(decision, sizeof(decision), "drag-refused-%s",
		verdict == CORDON_SELECTION_ALLOW ? "bad-serial"
						  : cordon_selection_verdict_name(verdict));
	cordon_transfer_log_add(&selection->log, "drag", name, "-", "", decision);
	if (event->drag->source) {
		/* The drag goes with its source. */
		wlr_data_source_destroy(event->drag->source);
		return;
	}
	/*
	 * wlroots frees a drag without a source only once it has started (its pointer grab
	 * cancelled): refused ones would pile up, as many as an app asks for. Started and
	 * cancelled at once, it never leaves its client (without a source a drag enters only
	 * the client's own surfaces) and carries no data.
	 */
	wlr_seat_start_pointer_drag(seat, event->drag, event->serial);
	wlr_seat_pointer_end_grab(seat);
}

/* Focus and input */

static void handle_focus_will_change(struct wl_listener *listener, void *data) {
	struct cordon_selection *selection =
		wl_container_of(listener, selection, focus_will_change);
	struct wlr_surface *surface = data;
	struct wlr_seat_client *focused = selection->wlr_seat->keyboard_state.focused_client;
	struct wl_client *current = focused ? focused->client : NULL;
	struct wl_client *next = surface ? wl_resource_get_client(surface->resource) : NULL;
	if (current == next) {
		return;
	}
	/*
	 * wlroots sends the seat's selection to the new focus as it enters it:
	 * withdraw the view made for the old focus first, so the new one never
	 * sees it (offers made from the withdrawn view go inert).
	 */
	slot_set_view(&selection->clipboard, NULL);
	slot_set_view(&selection->primary, NULL);
}

static void handle_keyboard_focus_change(struct wl_listener *listener, void *data) {
	struct cordon_selection *selection =
		wl_container_of(listener, selection, keyboard_focus_change);
	struct wlr_seat_keyboard_focus_change_event *event = data;
	struct wl_client *next =
		event->new_surface ? wl_resource_get_client(event->new_surface->resource) : NULL;
	if (next != selection->focus_client) {
		/* A new focus has done nothing yet: mapping a window to grab focus is not consent.
		 */
		selection->focus_client = next;
		selection->focus_acted = false;
		selection->clipboard.consented = 0;
		selection->primary.consented = 0;
		selection->pasted_across = false;
		selection->serial_count = 0;
		selection->serial_next = 0;
	}
	refresh_all(selection);
}

/*
 * A key or button press is about to reach a client. Only one the router judged the
 * user's (on a window they could see) makes the focused client "acted": a press that
 * lands in a window mapped a moment ago, a 1x1 or a transparent one is not consent. It
 * consents to what the slots hold now.
 */
static void handle_press(struct wl_listener *listener, void *data) {
	struct cordon_selection *selection = wl_container_of(listener, selection, press);
	const struct cordon_input_event *input = data;
	struct wl_client *client = input->client;
	if (!input->consent || !client || client != selection->focus_client) {
		return;
	}
	bool news = !selection->focus_acted ||
		selection->clipboard.consented != selection->clipboard.generation ||
		selection->primary.consented != selection->primary.generation;
	selection->focus_acted = true;
	selection->clipboard.consented = selection->clipboard.generation;
	selection->primary.consented = selection->primary.generation;
	if (news) {
		/* Before the press is delivered, so that a paste shortcut finds the offer in place.
		 */
		refresh_all(selection);
	}
}

void cordon_selection_paste_across(struct cordon_selection *selection) {
	struct wl_client *client = selection->focus_client;
	struct slot *slot = &selection->clipboard;
	const struct cordon_tag *tag = client_tag(client);
	char name[CORDON_TRANSFER_TAG_MAX], source_name[CORDON_TRANSFER_TAG_MAX];
	tag_name(tag, name, sizeof(name));
	snprintf(source_name, sizeof(source_name), "-");
	if (slot->source) {
		tag_name(slot_tag(slot), source_name, sizeof(source_name));
	}
	if (!client || !slot->source) {
		cordon_transfer_log_add(&selection->log, "clipboard",
			slot->source ? source_name : "-", client ? name : "-", "",
			"paste-across-nothing");
		return;
	}
	/* The shortcut is a press in the focused app, and the explicit consent for one paste. */
	selection->focus_acted = true;
	slot->consented = slot->generation;
	selection->pasted_across = true;
	slot_refresh(slot);
	cordon_transfer_log_add(
		&selection->log, "clipboard", source_name, name, "", "paste-across-offered");
	cordon_mediation_notice_show(selection->notice, name);
}

static void record_input_serial(
	struct cordon_selection *selection, struct wl_client *client, uint32_t serial) {
	if (!client || client != selection->focus_client) {
		return;
	}
	struct input_serial *input = &selection->serials[selection->serial_next];
	input->serial = serial;
	clock_gettime(CLOCK_MONOTONIC, &input->time);
	selection->serial_next = (selection->serial_next + 1) % SERIAL_RING;
	if (selection->serial_count < SERIAL_RING) {
		selection->serial_count++;
	}
}

/*
 * An input event reached a client: its serial may prove a set_selection, and a button
 * press's a drag, but only when the user could see where it went (a key typed into a
 * window that took the focus unseen must not let it set the clipboard).
 */
static void handle_input_delivered(struct wl_listener *listener, void *data) {
	struct cordon_selection *selection = wl_container_of(listener, selection, input_delivered);
	const struct cordon_input_event *input = data;
	if (!input->consent) {
		return;
	}
	if (input->button && input->pressed) {
		selection->press_client = input->client;
		selection->press_serial = input->serial;
	}
	record_input_serial(selection, input->client, input->serial);
}

void cordon_selection_set_requester(struct cordon_selection *selection, struct wl_client *client) {
	selection->requester = client;
}

static void handle_protocol_message(void *data, enum wl_protocol_logger_type type,
	const struct wl_protocol_logger_message *message) {
	struct cordon_selection *selection = data;
	if (type == WL_PROTOCOL_LOGGER_REQUEST) {
		selection->requester = wl_resource_get_client(message->resource);
	}
}

/* Life cycle */

static void slot_init(
	struct cordon_selection *selection, struct slot *slot, enum cordon_selection_kind kind) {
	slot->selection = selection;
	slot->kind = kind;
	wl_list_init(&slot->source_destroy.link);
}

static void handle_grants_idle(void *data) {
	struct cordon_selection *selection = data;
	selection->grants_idle = NULL;
	selection->grants = cordon_file_grants_create(
		selection->server->event_loop, selection->server->session_bus);
}

struct cordon_selection *cordon_selection_create(struct cordon_server *server,
	struct wlr_seat *wlr_seat, struct cordon_input_router *router) {
	struct cordon_selection *selection = calloc(1, sizeof(*selection));
	if (!selection) {
		return NULL;
	}
	selection->server = server;
	selection->wlr_seat = wlr_seat;
	cordon_transfer_log_init(&selection->log);
	selection->proxy =
		cordon_data_proxy_create(server->event_loop, handle_transfer_done, selection);
	if (!selection->proxy) {
		free(selection);
		return NULL;
	}
	/* The transfer cap is an app's, over all its connections (app_limits.c). */
	cordon_data_proxy_set_grouping(selection->proxy, cordon_client_app_group);
	selection->logger =
		wl_display_add_protocol_logger(server->display, handle_protocol_message, selection);
	selection->notice = cordon_mediation_notice_create(server);
	wl_list_init(&selection->file_transfers);
	/* The session bus is made after the seat: file grants start on the loop's first turn. */
	selection->grants_idle =
		wl_event_loop_add_idle(server->event_loop, handle_grants_idle, selection);
	if (!selection->logger || !selection->notice || !selection->grants_idle) {
		if (selection->logger) {
			wl_protocol_logger_destroy(selection->logger);
		}
		if (selection->grants_idle) {
			wl_event_source_remove(selection->grants_idle);
		}
		cordon_mediation_notice_destroy(selection->notice);
		cordon_data_proxy_destroy(selection->proxy);
		free(selection);
		return NULL;
	}
	wl_signal_init(&selection->view_set);
	slot_init(selection, &selection->clipboard, CORDON_SELECTION_CLIPBOARD);
	slot_init(selection, &selection->primary, CORDON_SELECTION_PRIMARY);
	selection->keyboard_focus_change.notify = handle_keyboard_focus_change;
	wl_signal_add(
		&wlr_seat->keyboard_state.events.focus_change, &selection->keyboard_focus_change);
	selection->router = router;
	selection->press.notify = handle_press;
	wl_signal_add(&router->events.press, &selection->press);
	selection->input_delivered.notify = handle_input_delivered;
	wl_signal_add(&router->events.input_delivered, &selection->input_delivered);
	selection->focus_will_change.notify = handle_focus_will_change;
	wl_signal_add(&router->events.focus_will_change, &selection->focus_will_change);
	return selection;
}

void cordon_selection_destroy(struct cordon_selection *selection) {
	if (!selection) {
		return;
	}
	wl_list_remove(&selection->keyboard_focus_change.link);
	wl_list_remove(&selection->press.link);
	wl_list_remove(&selection->input_delivered.link);
	wl_list_remove(&selection->focus_will_change.link);
	wl_protocol_logger_destroy(selection->logger);
	if (selection->drag) {
		/* The seat goes next and ends the drag; the proxy outlives nothing of ours. */
		selection->drag->selection = NULL;
		drag_ended(selection->drag);
	}
	/* The client sources stay with their clients; the views go with the seat's selection. */
	slot_forget_source(&selection->clipboard);
	slot_forget_source(&selection->primary);
	slot_set_view(&selection->clipboard, NULL);
	slot_set_view(&selection->primary, NULL);
	/* Ends the transfers in flight (their file_transfer records go with them), then grants. */
	cordon_data_proxy_destroy(selection->proxy);
	if (selection->grants_idle) {
		wl_event_source_remove(selection->grants_idle);
	}
	cordon_file_grants_destroy(selection->grants);
	cordon_mediation_notice_destroy(selection->notice);
	free(selection);
}

const struct cordon_transfer_log *cordon_selection_get_log(
	const struct cordon_selection *selection) {
	return &selection->log;
}

void cordon_selection_get_status(struct cordon_selection *selection,
	enum cordon_selection_kind kind, struct cordon_selection_status *status) {
	struct slot *slot =
		kind == CORDON_SELECTION_PRIMARY ? &selection->primary : &selection->clipboard;
	memset(status, 0, sizeof(*status));
	if (!slot->source) {
		return;
	}
	status->has_source = true;
	tag_name(slot_tag(slot), status->source, sizeof(status->source));
	status->mime_types = source_mime_types(slot);
	snprintf(status->decided_for, sizeof(status->decided_for), "%s", slot->decided_for);
	status->decision = slot->decision;
}

struct cordon_file_grants *cordon_selection_get_file_grants(
	const struct cordon_selection *selection) {
	return selection->grants;
}
