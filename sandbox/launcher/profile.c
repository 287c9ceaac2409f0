/*
 * The app's permissions from policy.ini (common/policy.c, docs/policy.md), the same file cordon
 * reads, so an app is described once. The profile is --profile NAME, else the one the app's
 * [app ID] section names, else "default"; the app's own section overrides the profile's keys.
 * Command-line flags (--share=network, --allow=devel, --x11) add to what the profile grants.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/policy.h"
#include "sandbox/launcher/launcher.h"
#include "sandbox/launcher/util.h"

void cordon_launch_apply_profile(struct cordon_launch_options *o) {
	char *error = NULL;
	struct cordon_policy *policy = cordon_policy_load(o->policy_path, &error);
	if (policy == NULL) {
		fprintf(stderr, "cordon-run: %s\n",
			error != NULL ? error : "cannot load the policy");
		free(error);
		exit(CORDON_RUN_EXIT_USAGE);
	}
	if (o->profile != NULL && !cordon_policy_has_profile(policy, o->profile)) {
		cordon_policy_destroy(policy);
		cordon_die_usage(
			"--profile %s: no such profile (built in: default, network-client, "
			"game, devel; others come from [profile NAME] in policy.ini)",
			o->profile);
	}
	const char *profile =
		o->profile != NULL ? o->profile : cordon_policy_app_profile(policy, o->app_id);
	const char *id = o->app_id;
	if (cordon_policy_list_contains(policy, id, profile, "share", "network")) {
		o->share_network = true;
	}
	if (cordon_policy_list_contains(policy, id, profile, "allow", "devel")) {
		o->allow_devel = true;
	}
	o->device_dri = cordon_policy_list_contains(policy, id, profile, "devices", "dri");
	o->device_video = cordon_policy_list_contains(policy, id, profile, "devices", "video");
	const char *bus_keys[] = {"dbus-talk", "dbus-own", "dbus-see", "dbus-system-talk"};
	char **bus_lists[] = {&o->dbus_talk, &o->dbus_own, &o->dbus_see, &o->dbus_system_talk};
	for (size_t i = 0; i < sizeof(bus_keys) / sizeof(bus_keys[0]); i++) {
		const char *value = cordon_policy_get(policy, id, profile, bus_keys[i]);
		if (value != NULL && (*bus_lists[i] = strdup(value)) == NULL) {
			cordon_die_errno("copying %s", bus_keys[i]);
		}
	}
	o->dbus_a11y = cordon_policy_get_bool(policy, id, profile, "dbus-a11y", true);
	if (cordon_policy_get_bool(policy, id, profile, "x11", false)) {
		o->x11 = true;
	}
	cordon_debug("profile %s: network %s, devel %s, x11 %s, dri %s, video %s", profile,
		o->share_network ? "yes" : "no", o->allow_devel ? "yes" : "no",
		o->x11 ? "yes" : "no", o->device_dri ? "yes" : "no",
		o->device_video ? "yes" : "no");
	cordon_policy_destroy(policy);
}
