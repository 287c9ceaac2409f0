/*
 * The mediation as the user may inspect it: transfers, the record of cross-boundary
 * clipboard and drag transfers, oldest first; selection, what the clipboard and the primary
 * selection hold now and what the focused client is offered of them.
 */
#include "commands.h"

#include "compositor/seat.h"
#include "compositor/selection.h"
#include "compositor/server.h"

CORDON_IPC_HANDLER(cordon_ipc_transfers) {
	if (argc != 0) {
		return cordon_ipc_fail(error, "usage: transfers");
	}
	const struct cordon_transfer_log *log = cordon_selection_get_log(server->seat->selection);
	*result = json_object_new_array();
	uint64_t first = log->next_id > CORDON_TRANSFER_LOG_SIZE
		? log->next_id - CORDON_TRANSFER_LOG_SIZE
		: 1;
	for (uint64_t id = first; id < log->next_id; id++) {
		const struct cordon_transfer_entry *entry = cordon_transfer_log_get(log, id);
		if (!entry) {
			continue;
		}
		struct json_object *object = json_object_new_object();
		json_object_object_add(object, "id", json_object_new_int64((int64_t)entry->id));
		json_object_object_add(object, "time",
			json_object_new_double(
				(double)entry->time.tv_sec + entry->time.tv_nsec / 1e9));
		json_object_object_add(object, "kind", json_object_new_string(entry->kind));
		json_object_object_add(object, "source", json_object_new_string(entry->source));
		json_object_object_add(
			object, "destination", json_object_new_string(entry->destination));
		json_object_object_add(
			object, "mime_type", json_object_new_string(entry->mime_type));
		json_object_object_add(
			object, "bytes", json_object_new_int64((int64_t)entry->bytes));
		json_object_object_add(object, "decision", json_object_new_string(entry->decision));
		json_object_array_add(*result, object);
	}
	return true;
}

static struct json_object *selection_status(
	struct cordon_selection *selection, enum cordon_selection_kind kind) {
	struct cordon_selection_status status;
	cordon_selection_get_status(selection, kind, &status);
	struct json_object *object = json_object_new_object();
	json_object_object_add(
		object, "kind", json_object_new_string(cordon_selection_kind_name(kind)));
	if (!status.has_source) {
		json_object_object_add(object, "source", NULL);
		return object;
	}
	json_object_object_add(object, "source", json_object_new_string(status.source));
	struct json_object *types = json_object_new_array();
	char **type;
	wl_array_for_each(type, status.mime_types) {
		json_object_array_add(types, json_object_new_string(*type));
	}
	json_object_object_add(object, "mime_types", types);
	json_object_object_add(object, "offered_to", json_object_new_string(status.decided_for));
	json_object_object_add(object, "offer",
		json_object_new_string(cordon_offer_mode_name(status.decision.mode)));
	json_object_object_add(object, "reason",
		json_object_new_string(cordon_offer_reason_name(status.decision.reason)));
	return object;
}

CORDON_IPC_HANDLER(cordon_ipc_selection) {
	if (argc != 0) {
		return cordon_ipc_fail(error, "usage: selection");
	}
	*result = json_object_new_array();
	json_object_array_add(
		*result, selection_status(server->seat->selection, CORDON_SELECTION_CLIPBOARD));
	json_object_array_add(
		*result, selection_status(server->seat->selection, CORDON_SELECTION_PRIMARY));
	return true;
}
