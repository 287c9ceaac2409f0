/*
 * The Wayland fuzzer's view of the protocols cordon speaks: every interface of the XML files
 * fuzz/meson.build names, with the wire signature of each request and event. The tables are
 * made at build time by fuzz/wayland_tables.py; nothing generated is committed.
 */
#ifndef CORDON_FUZZ_WAYLAND_PROTOCOL_H
#define CORDON_FUZZ_WAYLAND_PROTOCOL_H

#include <stdbool.h>
#include <stdint.h>

struct fuzz_wl_arg {
	char type; /* the wire type: i u f s o n a h */
	bool nullable;
	bool serial; /* named after a serial: one the client was sent is the likely value */
	int16_t interface; /* of an object or new id: index in fuzz_wl_interfaces; -1 for any */
};

struct fuzz_wl_message {
	const char *name;
	uint16_t since;
	bool destructor;
	uint8_t arg_count;
	const struct fuzz_wl_arg *args;
};

struct fuzz_wl_interface {
	const char *name;
	uint32_t version;
	uint16_t request_count, event_count;
	const struct fuzz_wl_message *requests, *events;
};

/* Sorted by name. */
extern const struct fuzz_wl_interface fuzz_wl_interfaces[];
extern const int fuzz_wl_interface_count;

#endif
