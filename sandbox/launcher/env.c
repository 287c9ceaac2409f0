/*
 * The command's environment: a listed one, never the launcher's. The caller's variables can
 * name host paths (DBUS_SESSION_BUS_ADDRESS, the host WAYLAND_DISPLAY and XDG_RUNTIME_DIR,
 * DISPLAY) or change how programs inside behave (LD_PRELOAD, and CVE-2021-21261 smuggled
 * variables into a helper): only the names below pass, plus what --setenv asks for.
 */
#include <stdlib.h>
#include <string.h>

#include "sandbox/launcher/launcher.h"
#include "sandbox/launcher/util.h"

/* Passed through from the caller when set: locale and terminal only. */
static const char *const passed[] = {"LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_MESSAGES",
	"LC_NUMERIC", "LC_TIME", "LC_COLLATE", "LC_MONETARY", "TERM", "COLORTERM", "TZ"};

struct env_list {
	char **items;
	size_t len;
	size_t cap;
};

static void env_add(struct env_list *env, char *item) {
	if (item == NULL) {
		cordon_die("out of memory building the environment");
	}
	if (env->len + 2 > env->cap) {
		env->cap = env->cap ? env->cap * 2 : 32;
		env->items = realloc(env->items, env->cap * sizeof(char *));
		if (env->items == NULL) {
			cordon_die_errno("building the environment");
		}
	}
	/* A later VAR= replaces an earlier one, so --setenv can override the defaults. */
	size_t name_len = strcspn(item, "=");
	for (size_t i = 0; i < env->len; i++) {
		if (strncmp(env->items[i], item, name_len + 1) == 0) {
			free(env->items[i]);
			env->items[i] = item;
			return;
		}
	}
	env->items[env->len++] = item;
	env->items[env->len] = NULL;
}

char **cordon_launch_environment(const struct cordon_launch *launch) {
	struct env_list env = {0};
	const char *user = launch->user_name;
	env_add(&env, strdup("PATH=/app/bin:/usr/local/bin:/usr/bin:/bin"));
	env_add(&env, cordon_strdup_printf("HOME=/home/%s", user));
	env_add(&env, cordon_strdup_printf("USER=%s", user));
	env_add(&env, cordon_strdup_printf("LOGNAME=%s", user));
	env_add(&env, strdup("SHELL=/bin/sh"));
	env_add(&env, cordon_strdup_printf("XDG_RUNTIME_DIR=/run/user/%u", launch->uid));
	env_add(&env, cordon_strdup_printf("XDG_DATA_HOME=/home/%s/.local/share", user));
	env_add(&env, cordon_strdup_printf("XDG_CONFIG_HOME=/home/%s/.config", user));
	env_add(&env, cordon_strdup_printf("XDG_CACHE_HOME=/home/%s/.cache", user));
	env_add(&env, cordon_strdup_printf("CORDON_APP_ID=%s", launch->options.app_id));
	env_add(&env, cordon_strdup_printf("CORDON_INSTANCE_ID=%s", launch->instance));
	env_add(&env, strdup("container=cordon"));
	if (!launch->options.no_wayland) {
		env_add(&env, strdup("WAYLAND_DISPLAY=wayland-0"));
	}
	/*
	 * The sandbox's own X server (x11.c); it needs no cookie, and the host's is not given.
	 * libxcb tries the abstract socket of :0 first and gives up on any error but "not
	 * there": with the host's network, Landlock's scope answers EPERM, so DISPLAY names
	 * the socket's path instead (libxcb 1.14 and later take a path).
	 */
	if (launch->options.x11) {
		env_add(&env,
			strdup(launch->options.share_network ? "DISPLAY=/tmp/.X11-unix/X0"
							     : "DISPLAY=:0"));
	}
	/*
	 * The proxy's socket (dbus_proxy.c) is the only bus inside. GSettings keep to the
	 * keyfile backend in the app's own persistent config dir, never the host's dconf.
	 */
	if (launch->dbus_socket != NULL) {
		env_add(&env,
			cordon_strdup_printf("DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/%u/bus",
				launch->uid));
	}
	if (launch->dbus_system_socket != NULL) {
		env_add(&env,
			strdup("DBUS_SYSTEM_BUS_ADDRESS=unix:path=/run/dbus/system_bus_socket"));
	}
	if (launch->dbus_a11y_socket != NULL) {
		env_add(&env,
			cordon_strdup_printf("AT_SPI_BUS_ADDRESS=unix:path=/run/user/%u/at-spi/bus",
				launch->uid));
	}
	env_add(&env, strdup("GSETTINGS_BACKEND=keyfile"));
	for (size_t i = 0; i < sizeof(passed) / sizeof(passed[0]); i++) {
		const char *value = getenv(passed[i]);
		if (value != NULL) {
			env_add(&env, cordon_strdup_printf("%s=%s", passed[i], value));
		}
	}
	for (size_t i = 0; i < launch->options.setenv_len; i++) {
		env_add(&env, strdup(launch->options.setenv[i]));
	}
	return env.items;
}
