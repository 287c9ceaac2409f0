/*
 * The transfer log: what crossed a sandbox boundary (or was refused), when,
 * between which tags, of what type and size. A fixed ring, so that a client
 * that pastes in a loop costs memory once.
 */
#include "compositor/transfer_log.h"
#include "common/escape.h"

#include <stdio.h>
#include <string.h>
#include <wlr/util/log.h>

void cordon_transfer_log_init(struct cordon_transfer_log *log) {
	memset(log, 0, sizeof(*log));
	log->next_id = 1;
}

void cordon_transfer_tag_name(const struct cordon_tag *tag, char *out, size_t size) {
	if (cordon_tag_is_unknown(tag)) {
		snprintf(out, size, "unknown");
	} else if (!tag->sandboxed) {
		snprintf(out, size, "host");
	} else {
		snprintf(out, size, "%s:%s%s%s", cordon_sandbox_engine_name(tag->engine),
			tag->app_id, tag->instance[0] ? "/" : "", tag->instance);
	}
}

static struct cordon_transfer_entry *slot(struct cordon_transfer_log *log, uint64_t id) {
	return &log->entries[id % CORDON_TRANSFER_LOG_SIZE];
}

uint64_t cordon_transfer_log_add(struct cordon_transfer_log *log, const char *kind,
	const char *source, const char *destination, const char *mime_type, const char *decision) {
	uint64_t id = log->next_id++;
	struct cordon_transfer_entry *entry = slot(log, id);
	memset(entry, 0, sizeof(*entry));
	entry->id = id;
	clock_gettime(CLOCK_REALTIME, &entry->time);
	snprintf(entry->kind, sizeof(entry->kind), "%s", kind);
	snprintf(entry->source, sizeof(entry->source), "%s", source);
	snprintf(entry->destination, sizeof(entry->destination), "%s", destination);
	snprintf(entry->mime_type, sizeof(entry->mime_type), "%s", mime_type ? mime_type : "");
	snprintf(entry->decision, sizeof(entry->decision), "%s", decision);
	wlr_log(WLR_INFO, "Transfer %llu: %s %s -> %s, %s: %s", (unsigned long long)id, kind,
		cordon_log_text(entry->source), cordon_log_text(entry->destination),
		cordon_log_text(entry->mime_type), decision);
	return id;
}

void cordon_transfer_log_finish(
	struct cordon_transfer_log *log, uint64_t id, uint64_t bytes, const char *decision) {
	struct cordon_transfer_entry *entry = slot(log, id);
	if (entry->id != id) {
		return;
	}
	entry->bytes = bytes;
	snprintf(entry->decision, sizeof(entry->decision), "%s", decision);
	wlr_log(WLR_INFO, "Transfer %llu: %llu bytes, %s", (unsigned long long)id,
		(unsigned long long)bytes, decision);
}

const struct cordon_transfer_entry *cordon_transfer_log_get(
	const struct cordon_transfer_log *log, uint64_t id) {
	const struct cordon_transfer_entry *entry = &log->entries[id % CORDON_TRANSFER_LOG_SIZE];
	return entry->id == id && id != 0 ? entry : NULL;
}
