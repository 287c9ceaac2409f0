/* Commands on apps (docs/freeze.md): apps lists them; freeze and thaw act on one. */
#include "commands.h"

#include <stdlib.h>
#include <string.h>

#include "compositor/apps.h"
#include "compositor/freeze.h"
#include "compositor/server.h"

static int64_t epoch_ms(const struct timespec *ts) {
	return (int64_t)ts->tv_sec * 1000 + ts->tv_nsec / 1000000;
}

static const char *state_name(enum cordon_freeze_state state) {
	switch (state) {
	case CORDON_THAWED:
		return "thawed";
	case CORDON_FREEZING:
		return "freezing";
	case CORDON_FROZEN:
		return "frozen";
	}
	return "?";
}

static struct json_object *describe(struct cordon_app *app) {
	struct json_object *object = json_object_new_object();
	char name[CORDON_TAG_APP_ID_MAX + CORDON_TAG_INSTANCE_MAX + 32];
	cordon_app_describe(app, name, sizeof(name));
	json_object_object_add(object, "app", json_object_new_string(name));
	json_object_object_add(object, "engine",
		json_object_new_string(cordon_sandbox_engine_name(app->tag.engine)));
	json_object_object_add(object, "app_id", json_object_new_string(app->tag.app_id));
	json_object_object_add(object, "instance", json_object_new_string(app->tag.instance));
	json_object_object_add(object, "sandboxed", json_object_new_boolean(app->tag.sandboxed));
	json_object_object_add(object, "cgroup", json_object_new_string(app->cgroup));
	json_object_object_add(object, "clients", json_object_new_int(app->client_count));
	struct cordon_app_freeze *state = app->freeze;
	if (!state) {
		return object;
	}
	json_object_object_add(object, "state", json_object_new_string(state_name(state->state)));
	json_object_object_add(
		object, "frozen", json_object_new_boolean(state->state != CORDON_THAWED));
	json_object_object_add(object, "manual", json_object_new_boolean(state->manual));
	json_object_object_add(
		object, "since", json_object_new_int64(epoch_ms(&state->state_since)));
	json_object_object_add(
		object, "policy", json_object_new_boolean(cordon_freeze_policy_enabled(state)));
	json_object_object_add(
		object, "wake_frame_us", json_object_new_int64(state->wake_frame_us));
	json_object_object_add(object, "boosted", json_object_new_boolean(state->boosted));
	if (state->boosted) {
		json_object_object_add(object, "boosted_since",
			json_object_new_int64(epoch_ms(&state->boosted_since)));
	}
	return object;
}

CORDON_IPC_HANDLER(cordon_ipc_apps) {
	if (argc != 0) {
		return cordon_ipc_fail(error, "usage: apps");
	}
	*result = json_object_new_array();
	struct cordon_app *app;
	wl_list_for_each(app, &server->apps->apps, link) {
		json_object_array_add(*result, describe(app));
	}
	return true;
}

static struct cordon_app_freeze *app_argument(struct cordon_server *server, const char *command,
	int argc, const char *const *argv, char **error) {
	if (argc != 1) {
		cordon_ipc_fail(error, "usage: %s APP", command);
		return NULL;
	}
	struct cordon_app *app = cordon_app_find(server->apps, argv[0]);
	if (!app || !app->freeze) {
		cordon_ipc_fail(error, "no app matches \"%s\"", argv[0]);
		return NULL;
	}
	return app->freeze;
}

CORDON_IPC_HANDLER(cordon_ipc_freeze) {
	struct cordon_app_freeze *state = app_argument(server, "freeze", argc, argv, error);
	if (!state) {
		return false;
	}
	if (!cordon_freeze_app(state, error)) {
		return false;
	}
	*result = describe(state->app);
	return true;
}

CORDON_IPC_HANDLER(cordon_ipc_thaw) {
	struct cordon_app_freeze *state = app_argument(server, "thaw", argc, argv, error);
	if (!state) {
		return false;
	}
	if (!cordon_thaw_app(state, "cordonctl thaw")) {
		return cordon_ipc_fail(
			error, "cannot write cgroup.freeze of %s", state->app->cgroup);
	}
	*result = describe(state->app);
	return true;
}
