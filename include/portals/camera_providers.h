/* The registry of camera providers: small INI files in a system and a user folder. */
#ifndef CORDON_PORTALS_CAMERA_PROVIDERS_H
#define CORDON_PORTALS_CAMERA_PROVIDERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define CORDON_CAMERA_MAX_MIME_TYPES 8
#define CORDON_CAMERA_MAX_ARGS 32
#define CORDON_CAMERA_MAX_PROVIDERS 32

struct cordon_camera_provider {
	char *id; /* the file name without ".provider" */
	char *name, *icon;
	char *mime_types[CORDON_CAMERA_MAX_MIME_TYPES];
	size_t mime_type_count;
	/* Exec split on blanks (no shell, no quoting); argv[argc] is NULL. */
	char *argv[CORDON_CAMERA_MAX_ARGS + 1];
	size_t argc;
	bool wants_app_id; /* AppId = true: told the requesting app's id */
	bool needs_video; /* Device = video: a V4L2 device in its sandbox */
	bool can_stream; /* Stream = true: it takes --stream (include/cordon/camera-frame.h) */
};

struct cordon_camera_providers {
	struct cordon_camera_provider *providers; /* sorted by id */
	size_t count;
};

/*
 * Reads every DIR/NAME.provider of the folders, in order; a later folder's file
 * replaces an earlier one of the same name (the user's over the system's). A file
 * that does not parse is logged as FILE:LINE: reason and skipped.
 */
void cordon_camera_providers_load(
	struct cordon_camera_providers *providers, const char *const *dirs, size_t dir_count);
/* The system folder, then the user's ($XDG_DATA_HOME/cordon/camera-providers). */
void cordon_camera_providers_load_default(struct cordon_camera_providers *providers);
void cordon_camera_providers_finish(struct cordon_camera_providers *providers);

/*
 * Parses one provider file; false with *error (malloc'ed "FILE:LINE: reason")
 * when it is malformed.
 */
bool cordon_camera_provider_parse_file(
	struct cordon_camera_provider *provider, const char *path, const char *id, char **error);
/* The same from an open stream; path is only what errors call it. */
bool cordon_camera_provider_parse_stream(struct cordon_camera_provider *provider, FILE *file,
	const char *path, const char *id, char **error);
void cordon_camera_provider_finish(struct cordon_camera_provider *provider);

/* The provider's first mime type that the app accepts, or NULL. */
const char *cordon_camera_provider_match(const struct cordon_camera_provider *provider,
	const char *const *accepted, size_t accepted_count);

#endif
