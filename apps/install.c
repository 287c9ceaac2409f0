/*
 * The install transaction (docs/apps.md). An app lives in installed/ID/:
 *
 *	v-1.2/      one complete version: image, manifest.json, icon.png, signature, origin.json
 *	current ->  v-1.2   (the desktop entry runs installed/ID/current/image)
 *	previous -> v-1.1   (what rollback returns to)
 *
 * A new version is verified while it is copied into installed/.staging-XXXXXX (what is
 * installed is the bytes that were hashed, never a second read of the bundle), made durable,
 * renamed to installed/ID/v-VERSION, and only then made current by renaming a new symlink over
 * `current`. rename() is atomic, so a kill -9 at any moment leaves `current` naming a complete
 * version: the old one or the new one. Leftover staging directories are removed under the lock
 * by the next run. A refused bundle leaves nothing behind but the removed staging directory.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "apps/bundle.h"
#include "apps/desktop.h"
#include "apps/files.h"
#include "apps/install.h"
#include "apps/profile.h"
#include "apps/store.h"
#include "common/escape.h"
#include "common/format.h"
#include "common/xdg.h"

/*
 * Fault injection for tests/apps/apps-faults.sh: CORDON_APP_KILL_AT=STEP makes cordon-app kill
 * itself with SIGKILL at that step, so every window of the transaction is tested, not only
 * those a random kill happens to hit.
 */
static void fault_point(const char *step) {
	const char *at = getenv("CORDON_APP_KILL_AT");
	if (at != NULL && strcmp(at, step) == 0) {
		raise(SIGKILL);
	}
}

int cordon_install_lock(char **error) {
	char *root = cordon_installed_root();
	char *path = root != NULL ? cordon_format("%s/.lock", root) : NULL;
	int fd = path != NULL && cordon_mkdirs(root, 0755)
		? open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600)
		: -1;
	if (fd < 0 || flock(fd, LOCK_EX) < 0) {
		*error = cordon_format(
			"cannot lock %s: %s", path != NULL ? path : "installed/", strerror(errno));
		if (fd >= 0) {
			close(fd);
		}
		fd = -1;
	}
	free(root);
	free(path);
	return fd;
}

/* What a killed run left: staging and removal directories, temporary links. */
static void remove_leftovers(const char *dir) {
	DIR *d = opendir(dir);
	if (d == NULL) {
		return;
	}
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		size_t len = strlen(e->d_name);
		if (strncmp(e->d_name, ".staging-", 9) == 0 ||
			strncmp(e->d_name, ".removing-", 10) == 0 ||
			strncmp(e->d_name, ".download-", 10) == 0 ||
			(len > 4 && strcmp(e->d_name + len - 4, ".tmp") == 0)) {
			char *path = cordon_format("%s/%s", dir, e->d_name);
			if (path != NULL) {
				cordon_remove_tree(path);
			}
			free(path);
		}
	}
	closedir(d);
}

/* Points name (current or previous) at v-VERSION by renaming a new symlink over it. */
static bool set_link(const char *dir, const char *name, const char *version) {
	char *tmp = cordon_format("%s/%s.tmp", dir, name);
	char *path = cordon_format("%s/%s", dir, name);
	char *target = cordon_format("v-%s", version);
	bool ok = tmp != NULL && path != NULL && target != NULL;
	if (ok) {
		unlink(tmp);
		ok = symlink(target, tmp) == 0 && rename(tmp, path) == 0 && cordon_fsync_path(dir);
	}
	free(tmp);
	free(path);
	free(target);
	return ok;
}

/*
 * current and previous trade places in one step (RENAME_EXCHANGE): a kill at any moment leaves
 * both as they were or both swapped, never both naming one version. Where the file system
 * cannot exchange, previous is set first, so current is never a version that is not complete.
 */
static bool swap_links(const char *dir, const char *previous, const char *current) {
	char *a = cordon_format("%s/current", dir);
	char *b = cordon_format("%s/previous", dir);
	bool ok = a != NULL && b != NULL &&
		renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) == 0 && cordon_fsync_path(dir);
	if (!ok && a != NULL && b != NULL && (errno == EINVAL || errno == ENOSYS)) {
		ok = set_link(dir, "previous", current) && set_link(dir, "current", previous);
	}
	free(a);
	free(b);
	return ok;
}

/* Every v-* directory that is neither current nor previous goes. */
static void prune_versions(const char *dir, const char *current, const char *previous) {
	DIR *d = opendir(dir);
	if (d == NULL) {
		return;
	}
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, "v-", 2) != 0 || strcmp(e->d_name + 2, current) == 0 ||
			(previous != NULL && strcmp(e->d_name + 2, previous) == 0)) {
			continue;
		}
		char *path = cordon_format("%s/%s", dir, e->d_name);
		if (path != NULL) {
			cordon_remove_tree(path);
		}
		free(path);
	}
	closedir(d);
}

static const char *profile_or_default(const char *lines) {
	return lines[0] != '\0' ? lines : "(none: the default profile)\n";
}

/*
 * The launcher entry, the icon and the profile for the current version. The profile the user
 * may have narrowed is kept while the permissions asked for stay the same.
 */
static bool integrate(const struct cordon_installed *inst, const struct cordon_manifest *before,
	const struct cordon_install_options *o, char **error) {
	const struct cordon_manifest *m = inst->manifest;
	char *image = cordon_format("%s/current/image", inst->dir);
	char *icon_path = cordon_format("%s/v-%s/icon.png", inst->dir, inst->version);
	size_t icon_len = 0;
	unsigned char *icon = icon_path != NULL
		? (unsigned char *)cordon_read_file(icon_path, CORDON_BUNDLE_ICON_MAX, &icon_len)
		: NULL;
	char *icon_error = NULL;
	bool has_icon = icon != NULL && cordon_icon_install(m->id, icon, icon_len, &icon_error);
	if (icon_error != NULL) {
		printf("Note: %s: not shown in launchers' icon themes\n", icon_error);
		free(icon_error);
	}
	char *lines = cordon_manifest_profile_lines(m);
	char *old_lines = before != NULL ? cordon_manifest_profile_lines(before) : NULL;
	char *block = cordon_profile_read(m->id);
	bool keep = block != NULL && old_lines != NULL && lines != NULL &&
		strcmp(old_lines, lines) == 0;
	bool ok = image != NULL && lines != NULL &&
		(keep || cordon_profile_write(m->id, lines, error));
	fault_point("profile-written");
	ok = ok && cordon_desktop_write(m, o->cordon_run, image, has_icon, error);
	if (ok && keep && strcmp(block, lines) != 0) {
		printf("Kept the narrowed permissions in policy.ini for %s\n", m->id);
	}
	free(image);
	free(icon_path);
	free(icon);
	free(lines);
	free(old_lines);
	free(block);
	return ok;
}

static void show_permissions(const struct cordon_manifest *m, const struct cordon_installed *old) {
	char *lines = cordon_manifest_profile_lines(m);
	printf("%s %s (%s) asks for these permissions:\n", m->id, m->version, m->name);
	const char *p = lines != NULL ? profile_or_default(lines) : "";
	while (*p != '\0') {
		size_t n = strcspn(p, "\n");
		printf("    %.*s\n", (int)n, p);
		p += n + (p[n] == '\n');
	}
	if (old != NULL) {
		char *old_lines = cordon_manifest_profile_lines(old->manifest);
		if (old_lines != NULL && lines != NULL && strcmp(old_lines, lines) != 0) {
			printf("    (changed since %s, which had: %s)\n", old->version,
				old_lines[0] != '\0' ? "the lines replaced above" : "none");
		}
		free(old_lines);
	}
	free(lines);
}

static bool confirm(const struct cordon_install_options *o, const char *question) {
	if (o->yes) {
		return true;
	}
	if (!isatty(STDIN_FILENO)) {
		fprintf(stderr, "cordon-app: not a terminal to ask on: pass --yes to %s\n",
			question);
		return false;
	}
	printf("%s? [y/N] ", question);
	fflush(stdout);
	char answer[16];
	return fgets(answer, sizeof(answer), stdin) != NULL &&
		(answer[0] == 'y' || answer[0] == 'Y');
}

static void show_progress(void *data, uint64_t done, uint64_t total) {
	int *last = data;
	int percent = total > 0 ? (int)(done * 100 / total) : 100;
	if (percent / 25 != *last / 25 || (percent == 100 && *last != 100)) {
		printf("Verifying and unpacking: %d%%\n", percent);
		fflush(stdout);
	}
	*last = percent;
}

struct transaction {
	char *root, *staging;
	struct cordon_bundle *bundle;
	struct cordon_manifest *manifest;
	const struct cordon_trusted_key *key;
	struct cordon_installed old;
	bool has_old;
};

static int finish(struct transaction *t, int code, char *message) {
	if (message != NULL) {
		fprintf(stderr, "cordon-app: %s\n", message);
		free(message);
	}
	if (t->staging != NULL) {
		cordon_remove_tree(t->staging);
	}
	free(t->root);
	free(t->staging);
	cordon_bundle_close(t->bundle);
	cordon_manifest_destroy(t->manifest);
	cordon_installed_finish(&t->old);
	return code;
}

/* Copies and hashes the image into staging, then checks the signature against the keys. */
static int verify_into_staging(struct transaction *t, const struct cordon_trusted_key *keys,
	size_t key_count, const char *path) {
	int fd = openat(AT_FDCWD, t->staging, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int image_fd =
		fd >= 0 ? openat(fd, "image", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644) : -1;
	unsigned char digest[CORDON_DIGEST_SIZE];
	char *error = NULL;
	int last = -1;
	bool ok = image_fd >= 0 &&
		cordon_bundle_stream_image(
			t->bundle, image_fd, digest, show_progress, &last, &error) &&
		fsync(image_fd) == 0;
	if (image_fd >= 0) {
		close(image_fd);
	}
	if (fd >= 0) {
		close(fd);
	}
	if (!ok) {
		int code = error != NULL ? CORDON_APP_REFUSED_SIGNATURE : CORDON_APP_ERROR;
		char *message = error != NULL
			? cordon_format("refused %s: %s", path, error)
			: cordon_format("unpacking %s: %s", path, strerror(errno));
		free(error);
		return finish(t, code, message);
	}
	unsigned char message[CORDON_BUNDLE_SIGNED_SIZE];
	cordon_bundle_signed_message(t->bundle, digest, message);
	for (size_t i = 0; i < key_count && t->key == NULL; i++) {
		if (cordon_signature_verify(
			    keys[i].key, message, sizeof(message), t->bundle->signature)) {
			t->key = &keys[i];
		}
	}
	if (t->key == NULL) {
		return finish(t, CORDON_APP_REFUSED_SIGNATURE,
			cordon_format(
				"refused %s: its signature does not verify with %s (a tampered "
				"bundle, or one signed by a key you do not trust)",
				path,
				key_count > 0 ? "any trusted key" : "a trusted key: none given"));
	}
	return -1;
}

/* The checks that need the verified manifest: store's right to the id, origin, version. */
static int check_policy(struct transaction *t, const struct cordon_install_options *o) {
	const struct cordon_manifest *m = t->manifest;
	const struct cordon_store *store = t->key->store;
	if (store != NULL && !cordon_store_may_serve(store, m->id)) {
		return finish(t, CORDON_APP_REFUSED_POLICY,
			cordon_format("refused %s: store %s may not serve this app id", m->id,
				store->name));
	}
	char *error = NULL;
	t->has_old = cordon_installed_load(m->id, &t->old, &error);
	free(error);
	if (!t->has_old) {
		return -1;
	}
	char key_hex[CORDON_KEY_HEX_LEN + 1];
	cordon_hex_encode(t->key->key, CORDON_KEY_SIZE, key_hex);
	bool same_origin = store != NULL
		? t->old.origin_store != NULL && strcmp(t->old.origin_store, store->name) == 0
		: t->old.origin_store == NULL && t->old.origin_key != NULL &&
			strcmp(t->old.origin_key, key_hex) == 0;
	if (!same_origin && !o->replace_origin) {
		return finish(t, CORDON_APP_REFUSED_POLICY,
			cordon_format(
				"refused %s: it is installed from %s%s; %s may not replace it "
				"(--replace-origin if you want it to)",
				m->id, t->old.origin_store != NULL ? "store " : "",
				t->old.origin_store != NULL ? t->old.origin_store : "a file",
				store != NULL ? store->name : "this bundle's key"));
	}
	int cmp = cordon_version_compare(m->version, t->old.version);
	if (cmp < 0 && !o->allow_downgrade) {
		return finish(t, CORDON_APP_REFUSED_POLICY,
			cordon_format(
				"refused %s %s: older than the installed %s (--allow-downgrade "
				"to install it anyway)",
				m->id, m->version, t->old.version));
	}
	return -1;
}

static bool write_parts(struct transaction *t, char **error) {
	int fd = open(t->staging, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		*error = cordon_format("%s: %s", t->staging, strerror(errno));
		return false;
	}
	char sig_hex[CORDON_SIG_HEX_LEN + 2];
	cordon_hex_encode(t->bundle->signature, CORDON_SIG_SIZE, sig_hex);
	strcat(sig_hex, "\n");
	char key_hex[CORDON_KEY_HEX_LEN + 1];
	cordon_hex_encode(t->key->key, CORDON_KEY_SIZE, key_hex);
	json_object *origin = json_object_new_object();
	json_object_object_add(origin, "store",
		t->key->store != NULL ? json_object_new_string(t->key->store->name) : NULL);
	json_object_object_add(origin, "key", json_object_new_string(key_hex));
	const char *origin_text = json_object_to_json_string(origin);
	bool ok = cordon_write_at(fd, "manifest.json", t->bundle->manifest,
			  t->bundle->layout.manifest_len, error) &&
		(t->bundle->layout.icon_len == 0 ||
			cordon_write_at(fd, "icon.png", t->bundle->icon, t->bundle->layout.icon_len,
				error)) &&
		cordon_write_at(fd, "signature", sig_hex, strlen(sig_hex), error) &&
		cordon_write_at(fd, "origin.json", origin_text, strlen(origin_text), error) &&
		fsync(fd) == 0;
	json_object_put(origin);
	close(fd);
	return ok;
}

/* Moves the staged version into place and makes it current. */
static bool switch_version(struct transaction *t, char **error) {
	const struct cordon_manifest *m = t->manifest;
	char *dir = cordon_format("%s/%s", t->root, m->id);
	char *target = dir != NULL ? cordon_format("%s/v-%s", dir, m->version) : NULL;
	bool ok = target != NULL && cordon_mkdirs(dir, 0755);
	if (ok && access(target, F_OK) == 0) {
		/* The same version again, after a rollback or a downgrade: not the current one. */
		ok = cordon_remove_tree(target);
	}
	fault_point("before-rename");
	ok = ok && rename(t->staging, target) == 0 && cordon_fsync_path(dir) &&
		cordon_fsync_path(t->root);
	if (ok) {
		free(t->staging);
		t->staging = NULL;
	}
	/*
	 * previous first, then current: killed between the two, current still names the old
	 * version and the next run sets both again; killed after, both are right.
	 */
	if (ok && t->has_old && strcmp(t->old.version, m->version) != 0) {
		ok = set_link(dir, "previous", t->old.version);
	}
	fault_point("before-switch");
	ok = ok && set_link(dir, "current", m->version);
	fault_point("after-switch");
	if (ok) {
		prune_versions(dir, m->version, t->has_old ? t->old.version : NULL);
	} else {
		*error = cordon_format("installing into %s: %s", dir, strerror(errno));
	}
	free(dir);
	free(target);
	return ok;
}

int cordon_install_bundle(const char *path, const struct cordon_trusted_key *keys, size_t key_count,
	const struct cordon_install_options *o) {
	struct transaction t = {0};
	char *error = NULL;
	const char *file = path;
	if (o->label != NULL) {
		path = o->label;
	}
	t.root = cordon_installed_root();
	remove_leftovers(t.root);
	t.bundle = cordon_bundle_open(file, &error);
	if (t.bundle == NULL) {
		char *message = cordon_format("refused %s", error);
		free(error);
		return finish(&t, CORDON_APP_REFUSED_SIGNATURE, message);
	}
	free(error);
	error = NULL;
	t.staging = cordon_format("%s/.staging-XXXXXX", t.root);
	if (t.staging == NULL || mkdtemp(t.staging) == NULL) {
		return finish(
			&t, CORDON_APP_ERROR, cordon_format("%s: %s", t.root, strerror(errno)));
	}
	fault_point("staging");
	int code = verify_into_staging(&t, keys, key_count, path);
	if (code >= 0) {
		return code;
	}
	t.manifest =
		cordon_manifest_parse(t.bundle->manifest, t.bundle->layout.manifest_len, &error);
	if (t.manifest == NULL) {
		char *message = cordon_format("refused %s: %s", path, error);
		free(error);
		return finish(&t, CORDON_APP_REFUSED_POLICY, message);
	}
	if ((code = check_policy(&t, o)) >= 0) {
		return code;
	}
	if (t.has_old && cordon_version_compare(t.manifest->version, t.old.version) == 0) {
		/* Installed already: redo the launcher entry, icon and profile (a killed run). */
		bool ok = integrate(&t.old, t.old.manifest, o, &error);
		printf("%s %s is installed%s\n", t.manifest->id, t.manifest->version,
			ok ? "" : " (its launcher entry could not be written)");
		return finish(&t, ok ? CORDON_APP_OK : CORDON_APP_ERROR, error);
	}
	show_permissions(t.manifest, t.has_old ? &t.old : NULL);
	if (!confirm(o, t.has_old ? "update" : "install")) {
		return finish(&t, CORDON_APP_CANCELLED, cordon_format("nothing was installed"));
	}
	if (!write_parts(&t, &error) || !switch_version(&t, &error)) {
		return finish(&t, CORDON_APP_ERROR, error);
	}
	struct cordon_installed now;
	bool ok = cordon_installed_load(t.manifest->id, &now, &error) &&
		integrate(&now, t.has_old ? t.old.manifest : NULL, o, &error);
	if (ok) {
		printf("Installed %s %s from %s%s\n", now.id, now.version,
			now.origin_store != NULL ? "store " : "a file",
			now.origin_store != NULL ? now.origin_store : "");
		cordon_installed_finish(&now);
	}
	return finish(&t, ok ? CORDON_APP_OK : CORDON_APP_ERROR, error);
}

int cordon_install_rollback(const char *id, const struct cordon_install_options *o) {
	char *error = NULL;
	struct cordon_installed inst, now;
	int code = CORDON_APP_OK;
	if (!cordon_installed_load(id, &inst, &error)) {
		if (error != NULL) {
			fprintf(stderr, "cordon-app: %s\n", error);
		} else {
			fprintf(stderr, "cordon-app: %s is not installed\n", cordon_log_text(id));
		}
		code = error != NULL ? CORDON_APP_ERROR : CORDON_APP_NOT_FOUND;
	} else if (inst.previous == NULL || strcmp(inst.previous, inst.version) == 0) {
		fprintf(stderr, "cordon-app: %s has no previous version to roll back to\n", id);
		code = CORDON_APP_NOT_FOUND;
	} else if (!swap_links(inst.dir, inst.previous, inst.version)) {
		fprintf(stderr, "cordon-app: rolling %s back: %s\n", id, strerror(errno));
		code = CORDON_APP_ERROR;
	} else if (!cordon_installed_load(id, &now, &error) ||
		!integrate(&now, inst.manifest, o, &error)) {
		fprintf(stderr, "cordon-app: %s\n", error != NULL ? error : "rollback failed");
		code = CORDON_APP_ERROR;
	} else {
		printf("Rolled %s back from %s to %s\n", id, inst.version, now.version);
		cordon_installed_finish(&now);
	}
	free(error);
	cordon_installed_finish(&inst);
	return code;
}

int cordon_install_remove(const char *id, bool delete_data) {
	char *error = NULL;
	struct cordon_installed inst;
	if (!cordon_installed_load(id, &inst, &error)) {
		int code = error != NULL ? CORDON_APP_ERROR : CORDON_APP_NOT_FOUND;
		if (error != NULL) {
			fprintf(stderr, "cordon-app: %s\n", error);
		} else {
			fprintf(stderr, "cordon-app: %s is not installed\n", cordon_log_text(id));
		}
		free(error);
		return code;
	}
	/* The launcher entry first: nothing can start the app while its files go. */
	cordon_desktop_remove(id);
	bool ok = cordon_profile_remove(id, &error);
	char *root = cordon_installed_root();
	char *gone = root != NULL ? cordon_format("%s/.removing-%s", root, id) : NULL;
	ok = ok && gone != NULL && rename(inst.dir, gone) == 0 && cordon_fsync_path(root) &&
		cordon_remove_tree(gone);
	if (ok && delete_data) {
		char *data = cordon_user_data_path("apps");
		char *app_data = data != NULL ? cordon_format("%s/%s", data, id) : NULL;
		ok = app_data != NULL && cordon_remove_tree(app_data);
		free(data);
		free(app_data);
	}
	if (ok) {
		printf("Removed %s %s%s\n", id, inst.version,
			delete_data ? " and its data"
				    : " (its data is kept: --delete-data removes it)");
	} else {
		fprintf(stderr, "cordon-app: removing %s: %s\n", id,
			error != NULL ? error : strerror(errno));
	}
	free(error);
	free(root);
	free(gone);
	cordon_installed_finish(&inst);
	return ok ? CORDON_APP_OK : CORDON_APP_ERROR;
}
