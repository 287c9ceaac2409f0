/*
 * cordon-app (docs/apps.md): install, list, run, update, roll back and remove apps from signed
 * bundles and stores. This file reads the command line and prints; the work is in the modules
 * named in docs/apps.md.
 */
#include <curl/curl.h>
#include <getopt.h>
#include <json-c/json.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apps/fetch.h"
#include "apps/install.h"
#include "apps/remote.h"
#include "apps/store.h"
#include "common/app_id.h"
#include "common/escape.h"
#include "common/format.h"

#ifndef CORDON_RUN_PATH
#define CORDON_RUN_PATH "cordon-run"
#endif

static const char usage[] =
	"Usage: cordon-app COMMAND [OPTIONS] [ARGS]\n"
	"  install FILE|STORE/APP-ID   verify and install a bundle, or the newest from a store\n"
	"          [--yes] [--trust-key HEX] [--replace-origin] [--allow-downgrade]\n"
	"  update [APP-ID] [--yes] [--allow-older]\n"
	"                             install newer versions from the apps' stores\n"
	"  rollback APP-ID            return to the version before the last update\n"
	"  remove APP-ID [--delete-data]\n"
	"  list [--json]              installed apps\n"
	"  info APP-ID [--json]\n"
	"  run APP-ID [-- ARGS...]    start it through cordon-run\n"
	"  store add NAME URL --key HEX --apps ID[,ID.*...] [--replace-key]\n"
	"  store remove NAME | store list [--json]\n"
	"Exit codes: 0 done, 1 error, 2 usage, 3 refused (signature or digest), 4 refused (policy),\n"
	"5 not found, 6 cancelled. See docs/apps.md.\n";

struct cli {
	struct cordon_remote_options remote;
	const char *trust_key;
	const char *key;
	const char *apps;
	bool json, delete_data, replace_key;
};

__attribute__((format(printf, 1, 2))) static int usage_error(const char *fmt, ...) {
	va_list args;
	va_start(args, fmt);
	fprintf(stderr, "cordon-app: ");
	vfprintf(stderr, fmt, args);
	va_end(args);
	fprintf(stderr, "\n%s", usage);
	return CORDON_APP_USAGE;
}

enum {
	OPT_YES = 'y',
	OPT_JSON = 256,
	OPT_TRUST_KEY,
	OPT_REPLACE_ORIGIN,
	OPT_ALLOW_DOWNGRADE,
	OPT_ALLOW_OLDER,
	OPT_DELETE_DATA,
	OPT_KEY,
	OPT_APPS,
	OPT_REPLACE_KEY
};

static const struct option options[] = {
	{"yes", no_argument, NULL, OPT_YES},
	{"json", no_argument, NULL, OPT_JSON},
	{"trust-key", required_argument, NULL, OPT_TRUST_KEY},
	{"replace-origin", no_argument, NULL, OPT_REPLACE_ORIGIN},
	{"allow-downgrade", no_argument, NULL, OPT_ALLOW_DOWNGRADE},
	{"allow-older", no_argument, NULL, OPT_ALLOW_OLDER},
	{"delete-data", no_argument, NULL, OPT_DELETE_DATA},
	{"key", required_argument, NULL, OPT_KEY},
	{"apps", required_argument, NULL, OPT_APPS},
	{"replace-key", no_argument, NULL, OPT_REPLACE_KEY},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

static int parse_options(int argc, char **argv, struct cli *c) {
	int opt;
	while ((opt = getopt_long(argc, argv, "+yh", options, NULL)) != -1) {
		switch (opt) {
		case OPT_YES:
			c->remote.install.yes = true;
			break;
		case OPT_JSON:
			c->json = true;
			break;
		case OPT_TRUST_KEY:
			c->trust_key = optarg;
			break;
		case OPT_REPLACE_ORIGIN:
			c->remote.install.replace_origin = true;
			break;
		case OPT_ALLOW_DOWNGRADE:
			c->remote.install.allow_downgrade = true;
			break;
		case OPT_ALLOW_OLDER:
			c->remote.allow_older = true;
			break;
		case OPT_DELETE_DATA:
			c->delete_data = true;
			break;
		case OPT_KEY:
			c->key = optarg;
			break;
		case OPT_APPS:
			c->apps = optarg;
			break;
		case OPT_REPLACE_KEY:
			c->replace_key = true;
			break;
		case 'h':
			fputs(usage, stdout);
			exit(0);
		default:
			return CORDON_APP_USAGE;
		}
	}
	return -1;
}

static int load_stores(struct cordon_stores *stores) {
	char *error = NULL;
	if (!cordon_stores_load(stores, &error)) {
		fprintf(stderr, "cordon-app: %s\n", error);
		free(error);
		cordon_stores_finish(stores);
		return CORDON_APP_ERROR;
	}
	return -1;
}

/* A file: signed by a store's key (that store may serve the id), or by --trust-key once. */
static int install_file(const char *path, struct cli *c, struct cordon_stores *stores) {
	size_t n = stores->count + 1;
	struct cordon_trusted_key *keys = calloc(n, sizeof(*keys));
	if (keys == NULL) {
		return CORDON_APP_ERROR;
	}
	size_t count = 0;
	if (c->trust_key != NULL) {
		if (!cordon_hex_decode(c->trust_key, keys[0].key, CORDON_KEY_SIZE)) {
			free(keys);
			return usage_error("--trust-key %s: not 64 hex digits", c->trust_key);
		}
		count = 1;
	}
	for (size_t i = 0; i < stores->count; i++) {
		memcpy(keys[count].key, stores->items[i].key, CORDON_KEY_SIZE);
		keys[count++].store = &stores->items[i];
	}
	int code = cordon_install_bundle(path, keys, count, &c->remote.install);
	free(keys);
	return code;
}

static int cmd_install(int argc, char **argv, struct cli *c) {
	if (argc != 1) {
		return usage_error("%s", "install takes one FILE or STORE/APP-ID");
	}
	struct cordon_stores stores;
	int code = load_stores(&stores);
	if (code >= 0) {
		return code;
	}
	const char *slash = strchr(argv[0], '/');
	bool from_store = slash != NULL && argv[0][0] != '/' && argv[0][0] != '.' &&
		strchr(slash + 1, '/') == NULL && access(argv[0], F_OK) != 0;
	if (from_store) {
		char *name = strndup(argv[0], (size_t)(slash - argv[0]));
		code = name != NULL ? cordon_remote_install(&stores, name, slash + 1, &c->remote)
				    : CORDON_APP_ERROR;
		free(name);
	} else {
		code = install_file(argv[0], c, &stores);
	}
	cordon_stores_finish(&stores);
	return code;
}

static json_object *app_json(const struct cordon_installed *inst) {
	json_object *o = json_object_new_object();
	const struct cordon_manifest *m = inst->manifest;
	json_object_object_add(o, "id", json_object_new_string(inst->id));
	json_object_object_add(o, "version", json_object_new_string(inst->version));
	json_object_object_add(o, "previous",
		inst->previous != NULL ? json_object_new_string(inst->previous) : NULL);
	json_object_object_add(o, "name", json_object_new_string(m->name));
	json_object_object_add(o, "store",
		inst->origin_store != NULL ? json_object_new_string(inst->origin_store) : NULL);
	json_object_object_add(o, "key",
		inst->origin_key != NULL ? json_object_new_string(inst->origin_key) : NULL);
	json_object *perms = json_object_new_object();
	for (size_t i = 0; i < m->permission_count; i++) {
		json_object_object_add(perms, m->permissions[i].key,
			json_object_new_string(m->permissions[i].value));
	}
	json_object_object_add(o, "permissions", perms);
	json_object *command = json_object_new_array();
	for (size_t i = 0; i < m->command_len; i++) {
		json_object_array_add(command, json_object_new_string(m->command[i]));
	}
	json_object_object_add(o, "command", command);
	char *image = cordon_format("%s/current/image", inst->dir);
	json_object_object_add(o, "image", json_object_new_string(image != NULL ? image : ""));
	free(image);
	return o;
}

static int cmd_list(struct cli *c) {
	char **ids = cordon_installed_list();
	json_object *array = json_object_new_array();
	if (!c->json) {
		printf("%-40s %-12s %-12s %s\n", "APP", "VERSION", "STORE", "NAME");
	}
	for (size_t i = 0; ids != NULL && ids[i] != NULL; i++) {
		struct cordon_installed inst;
		char *error = NULL;
		if (cordon_installed_load(ids[i], &inst, &error)) {
			if (c->json) {
				json_object_array_add(array, app_json(&inst));
			} else {
				printf("%-40s %-12s %-12s %s\n", inst.id, inst.version,
					inst.origin_store != NULL ? inst.origin_store : "(file)",
					inst.manifest->name);
			}
			cordon_installed_finish(&inst);
		} else if (error != NULL) {
			fprintf(stderr, "cordon-app: %s\n", error);
		}
		free(error);
		free(ids[i]);
	}
	free(ids);
	if (c->json) {
		printf("%s\n",
			json_object_to_json_string_ext(
				array, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	}
	json_object_put(array);
	return CORDON_APP_OK;
}

static int load_app(const char *id, struct cordon_installed *inst) {
	char *error = NULL;
	if (!cordon_app_id_valid(id)) {
		return usage_error("'%s' is not an app id", cordon_log_text(id));
	}
	if (!cordon_installed_load(id, inst, &error)) {
		int code = error != NULL ? CORDON_APP_ERROR : CORDON_APP_NOT_FOUND;
		if (error != NULL) {
			fprintf(stderr, "cordon-app: %s\n", error);
		} else {
			fprintf(stderr, "cordon-app: %s is not installed\n", id);
		}
		free(error);
		return code;
	}
	return -1;
}

static int cmd_info(int argc, char **argv, struct cli *c) {
	struct cordon_installed inst;
	int code =
		argc == 1 ? load_app(argv[0], &inst) : usage_error("%s", "info takes one APP-ID");
	if (code >= 0) {
		return code;
	}
	json_object *o = app_json(&inst);
	if (c->json) {
		printf("%s\n",
			json_object_to_json_string_ext(
				o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	} else {
		printf("%s %s: %s\n", inst.id, inst.version, inst.manifest->name);
		printf("  from: %s\n", inst.origin_store != NULL ? inst.origin_store : "a file");
		printf("  previous: %s\n", inst.previous != NULL ? inst.previous : "none");
		printf("  image: %s\n", json_object_get_string(json_object_object_get(o, "image")));
		printf("  permissions:%s\n", inst.manifest->permission_count == 0 ? " none" : "");
		for (size_t i = 0; i < inst.manifest->permission_count; i++) {
			printf("    %s = %s\n", inst.manifest->permissions[i].key,
				inst.manifest->permissions[i].value);
		}
	}
	json_object_put(o);
	cordon_installed_finish(&inst);
	return CORDON_APP_OK;
}

static int cmd_run(int argc, char **argv, const char *cordon_run) {
	struct cordon_installed inst;
	int code = argc >= 1 ? load_app(argv[0], &inst) : usage_error("%s", "run takes an APP-ID");
	if (code >= 0) {
		return code;
	}
	const struct cordon_manifest *m = inst.manifest;
	size_t n = 6 + m->command_len + (size_t)argc;
	char **args = calloc(n + 1, sizeof(*args));
	char *image = cordon_format("%s/current/image", inst.dir);
	if (args == NULL || image == NULL) {
		return CORDON_APP_ERROR;
	}
	size_t i = 0;
	args[i++] = (char *)cordon_run;
	args[i++] = "--app-id";
	args[i++] = inst.id;
	args[i++] = "--image";
	args[i++] = image;
	args[i++] = "--";
	for (size_t j = 0; j < m->command_len; j++) {
		args[i++] = m->command[j];
	}
	for (int j = 1; j < argc; j++) {
		args[i++] = argv[j];
	}
	execv(cordon_run, args);
	fprintf(stderr, "cordon-app: starting %s: %m\n", cordon_run);
	return CORDON_APP_ERROR;
}

static int cmd_store_add(int argc, char **argv, struct cli *c, struct cordon_stores *stores) {
	if (argc != 2 || c->key == NULL || c->apps == NULL) {
		return usage_error("%s", "store add NAME URL --key HEX --apps IDS");
	}
	const char *problem = cordon_store_name_problem(argv[0]);
	if (problem == NULL) {
		problem = cordon_fetch_url_problem(argv[1]);
	}
	unsigned char key[CORDON_KEY_SIZE];
	if (problem == NULL && !cordon_hex_decode(c->key, key, sizeof(key))) {
		problem = "--key takes the store's public key as 64 hex digits";
	}
	if (problem != NULL) {
		return usage_error("%s", problem);
	}
	struct cordon_store *s = cordon_stores_find(stores, argv[0]);
	if (s != NULL && memcmp(s->key, key, sizeof(key)) != 0 && !c->replace_key) {
		char old[32], new[32];
		cordon_key_fingerprint(s->key, old);
		cordon_key_fingerprint(key, new);
		fprintf(stderr,
			"cordon-app: refused: store %s is known with key %s, not %s; a store's key "
			"changes only when you confirm it with --replace-key\n",
			argv[0], old, new);
		return CORDON_APP_REFUSED_POLICY;
	}
	/*
	 * Re-adding a store (new URL or app list) keeps the highest serial seen, or a replay
	 * would pass after it; a confirmed new key starts a new history of serials.
	 */
	uint64_t serial = s != NULL && memcmp(s->key, key, sizeof(key)) == 0 ? s->serial : 0;
	if (s != NULL) {
		cordon_stores_remove(stores, argv[0]);
	}
	s = cordon_stores_add(stores, argv[0], argv[1]);
	if (s == NULL) {
		return CORDON_APP_ERROR;
	}
	memcpy(s->key, key, sizeof(key));
	s->serial = serial;
	char *list = strdup(c->apps);
	for (char *save = NULL, *word = strtok_r(list, ",", &save); word != NULL;
		word = strtok_r(NULL, ",", &save)) {
		if (cordon_store_pattern_problem(word) != NULL ||
			s->app_count == CORDON_STORE_APPS_MAX) {
			int code = usage_error("--apps: '%s' is not an app id or ID.* prefix",
				cordon_log_text(word));
			free(list);
			return code;
		}
		s->apps[s->app_count++] = strdup(word);
	}
	free(list);
	char *error = NULL;
	char fingerprint[32];
	cordon_key_fingerprint(key, fingerprint);
	if (!cordon_stores_save(stores, &error)) {
		fprintf(stderr, "cordon-app: %s\n", error);
		free(error);
		return CORDON_APP_ERROR;
	}
	printf("Added store %s (%s, key %s, apps %s)\n", s->name, s->url, fingerprint, c->apps);
	return CORDON_APP_OK;
}

static int cmd_store(int argc, char **argv, struct cli *c) {
	if (argc < 1) {
		return usage_error("%s", "store add|remove|list");
	}
	struct cordon_stores stores;
	int code = load_stores(&stores);
	if (code >= 0) {
		return code;
	}
	char *error = NULL;
	if (strcmp(argv[0], "add") == 0) {
		code = cmd_store_add(argc - 1, argv + 1, c, &stores);
	} else if (strcmp(argv[0], "remove") == 0 && argc == 2) {
		if (cordon_stores_find(&stores, argv[1]) == NULL) {
			fprintf(stderr, "cordon-app: no store named %s\n",
				cordon_log_text(argv[1]));
			code = CORDON_APP_NOT_FOUND;
		} else {
			cordon_stores_remove(&stores, argv[1]);
			code = cordon_stores_save(&stores, &error) ? CORDON_APP_OK
								   : CORDON_APP_ERROR;
			printf("Removed store %s (its apps stay installed; they are not updated)\n",
				argv[1]);
		}
	} else if (strcmp(argv[0], "list") == 0) {
		json_object *array = json_object_new_array();
		for (size_t i = 0; i < stores.count; i++) {
			const struct cordon_store *s = &stores.items[i];
			char fingerprint[32];
			cordon_key_fingerprint(s->key, fingerprint);
			json_object *o = json_object_new_object();
			json_object_object_add(o, "name", json_object_new_string(s->name));
			json_object_object_add(o, "url", json_object_new_string(s->url));
			json_object_object_add(o, "key", json_object_new_string(fingerprint));
			json_object_object_add(
				o, "serial", json_object_new_int64((int64_t)s->serial));
			json_object *apps = json_object_new_array();
			for (size_t j = 0; j < s->app_count; j++) {
				json_object_array_add(apps, json_object_new_string(s->apps[j]));
			}
			json_object_object_add(o, "apps", apps);
			json_object_array_add(array, o);
			if (!c->json) {
				printf("%-16s %s  key %s  serial %llu\n", s->name, s->url,
					fingerprint, (unsigned long long)s->serial);
			}
		}
		if (c->json) {
			printf("%s\n",
				json_object_to_json_string_ext(array,
					JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
		}
		json_object_put(array);
		code = CORDON_APP_OK;
	} else {
		code = usage_error("unknown store command '%s'", cordon_log_text(argv[0]));
	}
	if (error != NULL) {
		fprintf(stderr, "cordon-app: %s\n", error);
		free(error);
	}
	cordon_stores_finish(&stores);
	return code;
}

static int dispatch(const char *cmd, int argc, char **argv, struct cli *c) {
	if (strcmp(cmd, "install") == 0) {
		return cmd_install(argc, argv, c);
	} else if (strcmp(cmd, "list") == 0) {
		return cmd_list(c);
	} else if (strcmp(cmd, "info") == 0) {
		return cmd_info(argc, argv, c);
	} else if (strcmp(cmd, "run") == 0) {
		return cmd_run(argc, argv, c->remote.install.cordon_run);
	} else if (strcmp(cmd, "remove") == 0) {
		return argc == 1 ? cordon_install_remove(argv[0], c->delete_data)
				 : usage_error("%s", "remove takes one APP-ID");
	} else if (strcmp(cmd, "rollback") == 0) {
		return argc == 1 ? cordon_install_rollback(argv[0], &c->remote.install)
				 : usage_error("%s", "rollback takes one APP-ID");
	} else if (strcmp(cmd, "store") == 0) {
		return cmd_store(argc, argv, c);
	} else if (strcmp(cmd, "update") == 0) {
		struct cordon_stores stores;
		int code = argc <= 1 ? load_stores(&stores) : usage_error("%s", "update [APP-ID]");
		if (code >= 0) {
			return code;
		}
		code = cordon_remote_update(&stores, argc == 1 ? argv[0] : NULL, &c->remote);
		cordon_stores_finish(&stores);
		return code;
	}
	return usage_error("unknown command '%s'", cordon_log_text(cmd));
}

int main(int argc, char **argv) {
	if (argc < 2) {
		fputs(usage, stderr);
		return CORDON_APP_USAGE;
	}
	struct cli c = {0};
	/* The launcher the desktop entries name: tests point it at the build's. */
	const char *run = getenv("CORDON_RUN");
	c.remote.install.cordon_run = run != NULL && run[0] == '/' ? run : CORDON_RUN_PATH;
	const char *cmd = argv[1];
	/* Options may come after the command's words (cordon-app install FILE --yes). */
	char **words = calloc((size_t)argc, sizeof(*words));
	int word_count = 0;
	optind = 2;
	while (words != NULL && optind < argc) {
		if (strcmp(argv[optind], "--") == 0) {
			for (int i = optind + 1; i < argc; i++) {
				words[word_count++] = argv[i];
			}
			break;
		}
		if (argv[optind][0] != '-') {
			words[word_count++] = argv[optind++];
			continue;
		}
		int code = parse_options(argc, argv, &c);
		if (code >= 0) {
			free(words);
			fputs(usage, stderr);
			return code;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	curl_global_init(CURL_GLOBAL_DEFAULT);
	static const char *const changing[] = {"install", "update", "remove", "rollback", "store"};
	int lock = -1;
	for (size_t i = 0; i < sizeof(changing) / sizeof(changing[0]); i++) {
		char *error = NULL;
		if (strcmp(cmd, changing[i]) == 0 && (lock = cordon_install_lock(&error)) < 0) {
			fprintf(stderr, "cordon-app: %s\n", error);
			free(error);
			free(words);
			return CORDON_APP_ERROR;
		}
	}
	int code = words != NULL ? dispatch(cmd, word_count, words, &c) : CORDON_APP_ERROR;
	if (lock >= 0) {
		close(lock);
	}
	curl_global_cleanup();
	free(words);
	return code;
}
