/*
 * The Wayland fuzzer's session bus: a private dbus-daemon in the scratch folder that
 * activates the real document portal (xdg-document-portal, and the permission store it
 * uses), so that files pasted or dropped across a sandbox boundary become real documents
 * (compositor/file_grants.c). Started once per fuzzer process, before cordon; stopped, with
 * the portal's FUSE view unmounted, when the process ends, killed or not (wayland_bus.c).
 */
#ifndef CORDON_FUZZ_WAYLAND_BUS_H
#define CORDON_FUZZ_WAYLAND_BUS_H

#include <stddef.h>

#define FUZZ_DOCUMENT_ID_MAX 64
#define FUZZ_DOCUMENT_PATH_MAX 4096

struct fuzz_bus;

/*
 * Starts the bus in dir (its address goes in DBUS_SESSION_BUS_ADDRESS), and the document
 * portal through it, whose FUSE view it mounts at $XDG_RUNTIME_DIR/doc. Aborts, saying what
 * is missing, when either cannot be started.
 */
struct fuzz_bus *fuzz_bus_start(const char *dir);

/* Where the portal's view is on the host (what a host reader's translated paths name). */
const char *fuzz_bus_mount_point(const struct fuzz_bus *bus);

/*
 * Calls each with the id and the host path of every document app_id has access to (the
 * portal's List); aborts on a bus error.
 */
void fuzz_bus_each_document(struct fuzz_bus *bus, const char *app_id,
	void (*each)(void *data, const char *id, const char *path), void *data);

/* Deletes every document of app_id, so that the next input starts from none. */
void fuzz_bus_forget_documents(struct fuzz_bus *bus, const char *app_id);

#endif
