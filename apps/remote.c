/*
 * From a store to an install (docs/apps.md): the index is fetched and verified with the store's
 * pinned key (store_index.c), the highest serial seen is remembered before anything else
 * happens, the bundle is downloaded into a private temporary file capped at the size the
 * signed index gives and checked against its SHA-256, then installed with the store's key as
 * the only key it may be signed with.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apps/fetch.h"
#include "apps/files.h"
#include "apps/remote.h"
#include "common/format.h"
#include "common/xdg.h"

static int refuse(int code, char *message) {
	fprintf(stderr, "cordon-app: %s\n", message != NULL ? message : "out of memory");
	free(message);
	return code;
}

/* The store's verified index; the serial it carries is saved as the store's highest. */
static int load_index(struct cordon_stores *stores, struct cordon_store *store,
	const struct cordon_remote_options *o, struct cordon_index *index) {
	char *error = NULL;
	size_t len = 0, sig_len = 0;
	printf("Fetching the index of store %s\n", store->name);
	char *text =
		cordon_fetch_to_memory(store->url, "index.json", CORDON_INDEX_MAX, &len, &error);
	char *sig = text != NULL
		? cordon_fetch_to_memory(store->url, "index.json.sig", 1024, &sig_len, &error)
		: NULL;
	if (sig == NULL) {
		free(text);
		return refuse(CORDON_APP_ERROR, error);
	}
	bool ok = cordon_index_load(store, text, len, sig, o->allow_older, index, &error);
	free(text);
	free(sig);
	if (!ok) {
		return refuse(CORDON_APP_REFUSED_SIGNATURE, error);
	}
	if (index->serial > store->serial) {
		store->serial = index->serial;
		if (!cordon_stores_save(stores, &error)) {
			cordon_index_finish(index);
			return refuse(CORDON_APP_ERROR, error);
		}
	}
	return -1;
}

static void show_download(void *data, uint64_t done, uint64_t total) {
	int *last = data;
	int percent = total > 0 ? (int)(done * 100 / total) : 100;
	if (percent / 25 != *last / 25) {
		printf("Downloading: %d%%\n", percent);
		fflush(stdout);
	}
	*last = percent;
}

/* Downloads the entry's bundle, checks size and digest, installs it with the store's key. */
static int install_entry(const struct cordon_store *store, const struct cordon_index_entry *e,
	const struct cordon_remote_options *o) {
	char *dir = cordon_user_data_path("installed");
	char *tmp = dir != NULL ? cordon_format("%s/.download-XXXXXX", dir) : NULL;
	int fd = tmp != NULL && cordon_mkdirs(dir, 0755) ? mkostemp(tmp, 0) : -1;
	free(dir);
	if (fd < 0) {
		free(tmp);
		return refuse(
			CORDON_APP_ERROR, cordon_format("a temporary file: %s", strerror(errno)));
	}
	/* Unnamed at once: a kill -9 during the download leaves nothing on disk. */
	unlink(tmp);
	free(tmp);
	printf("Downloading %s %s from store %s (%llu bytes)\n", e->id, e->version, store->name,
		(unsigned long long)e->size);
	char *error = NULL;
	int last = -1;
	bool ok =
		cordon_fetch_to_fd(store->url, e->file, e->size, fd, show_download, &last, &error);
	int code = CORDON_APP_ERROR;
	if (ok) {
		unsigned char digest[32];
		uint64_t len = 0;
		ok = cordon_sha256_fd(fd, digest, &len) && len == e->size &&
			memcmp(digest, e->sha256, 32) == 0;
		if (!ok) {
			error = cordon_format(
				"refused %s %s from store %s: the download does not match "
				"the size and SHA-256 its signed index gives",
				e->id, e->version, store->name);
			code = CORDON_APP_REFUSED_SIGNATURE;
		}
	}
	if (ok) {
		struct cordon_trusted_key key = {.store = store};
		memcpy(key.key, store->key, CORDON_KEY_SIZE);
		struct cordon_install_options install = o->install;
		char *label = cordon_format("%s/%s", store->name, e->file);
		char *path = cordon_format("/proc/self/fd/%d", fd);
		install.label = label;
		code = path != NULL ? cordon_install_bundle(path, &key, 1, &install)
				    : CORDON_APP_ERROR;
		free(label);
		free(path);
	} else {
		refuse(code, error);
	}
	close(fd);
	return code;
}

int cordon_remote_install(struct cordon_stores *stores, const char *store_name, const char *id,
	const struct cordon_remote_options *o) {
	struct cordon_store *store = cordon_stores_find(stores, store_name);
	if (store == NULL) {
		return refuse(CORDON_APP_NOT_FOUND,
			cordon_format("no store named %s (cordon-app store "
				      "list)",
				store_name));
	}
	if (!cordon_store_may_serve(store, id)) {
		return refuse(CORDON_APP_REFUSED_POLICY,
			cordon_format(
				"store %s may not serve %s (its apps are set by 'cordon-app store add "
				"--apps')",
				store->name, id));
	}
	struct cordon_index index;
	int code = load_index(stores, store, o, &index);
	if (code >= 0) {
		return code;
	}
	const struct cordon_index_entry *e = cordon_index_find(&index, id);
	code = e != NULL ? install_entry(store, e, o)
			 : refuse(CORDON_APP_NOT_FOUND,
				   cordon_format("store %s does not list %s", store->name, id));
	cordon_index_finish(&index);
	return code;
}

static int update_one(
	struct cordon_stores *stores, const char *id, const struct cordon_remote_options *o) {
	struct cordon_installed inst;
	char *error = NULL;
	if (!cordon_installed_load(id, &inst, &error)) {
		return refuse(CORDON_APP_NOT_FOUND,
			error != NULL ? error : cordon_format("%s is not installed", id));
	}
	int code = CORDON_APP_OK;
	struct cordon_store *store =
		inst.origin_store != NULL ? cordon_stores_find(stores, inst.origin_store) : NULL;
	if (store == NULL) {
		printf("%s %s: installed from %s, not updated\n", id, inst.version,
			inst.origin_store != NULL ? "a store that was removed" : "a file");
		cordon_installed_finish(&inst);
		return code;
	}
	struct cordon_index index;
	code = load_index(stores, store, o, &index);
	if (code >= 0) {
		cordon_installed_finish(&inst);
		return code;
	}
	const struct cordon_index_entry *e = cordon_index_find(&index, id);
	if (e == NULL || cordon_version_compare(e->version, inst.version) <= 0) {
		printf("%s %s is up to date\n", id, inst.version);
		code = CORDON_APP_OK;
	} else {
		code = install_entry(store, e, o);
	}
	cordon_index_finish(&index);
	cordon_installed_finish(&inst);
	return code;
}

int cordon_remote_update(
	struct cordon_stores *stores, const char *id, const struct cordon_remote_options *o) {
	if (id != NULL) {
		return update_one(stores, id, o);
	}
	char **ids = cordon_installed_list();
	int worst = CORDON_APP_OK;
	for (size_t i = 0; ids != NULL && ids[i] != NULL; i++) {
		int code = update_one(stores, ids[i], o);
		worst = code != CORDON_APP_OK ? code : worst;
		free(ids[i]);
	}
	free(ids);
	return worst;
}
