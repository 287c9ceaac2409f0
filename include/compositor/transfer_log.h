/* The record of every cross-boundary clipboard and drag transfer, for `cordonctl transfers`. */
#ifndef CORDON_COMPOSITOR_TRANSFER_LOG_H
#define CORDON_COMPOSITOR_TRANSFER_LOG_H

#include <stdint.h>
#include <time.h>

#include "sandbox/cgroup_tag.h"

#define CORDON_TRANSFER_LOG_SIZE 256
#define CORDON_TRANSFER_TAG_MAX 400
#define CORDON_TRANSFER_MIME_MAX 256
#define CORDON_TRANSFER_DECISION_MAX 48

struct cordon_transfer_entry {
	uint64_t id; /* 0: unused slot */
	struct timespec time; /* CLOCK_REALTIME, when the transfer was asked for */
	char kind[16]; /* clipboard, primary, drag */
	char source[CORDON_TRANSFER_TAG_MAX]; /* "host", "flatpak:org.example.App/42", "unknown" */
	char destination[CORDON_TRANSFER_TAG_MAX];
	char mime_type[CORDON_TRANSFER_MIME_MAX];
	uint64_t bytes;
	char decision[CORDON_TRANSFER_DECISION_MAX];
};

/* A ring of the last CORDON_TRANSFER_LOG_SIZE transfers; ids grow from 1. */
struct cordon_transfer_log {
	struct cordon_transfer_entry entries[CORDON_TRANSFER_LOG_SIZE];
	uint64_t next_id;
};

void cordon_transfer_log_init(struct cordon_transfer_log *log);
/* Records a transfer between two named sides (cordon_transfer_tag_name) and returns its id. */
uint64_t cordon_transfer_log_add(struct cordon_transfer_log *log, const char *kind,
	const char *source, const char *destination, const char *mime_type, const char *decision);
/* Sets the outcome of a transfer still in the ring. */
void cordon_transfer_log_finish(
	struct cordon_transfer_log *log, uint64_t id, uint64_t bytes, const char *decision);
/* The entry with this id, or NULL once it left the ring. */
const struct cordon_transfer_entry *cordon_transfer_log_get(
	const struct cordon_transfer_log *log, uint64_t id);
/* Formats a tag the way the log shows it; NULL is an unknown sandbox. */
void cordon_transfer_tag_name(const struct cordon_tag *tag, char *out, size_t size);

#endif
