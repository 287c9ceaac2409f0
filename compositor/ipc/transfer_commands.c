/* transfers: the record of cross-boundary clipboard and drag transfers, oldest first. */
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
