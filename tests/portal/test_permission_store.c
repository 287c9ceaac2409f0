/*
 * The permission store on its own: round trip, defaults, remembered folders,
 * names the file cannot hold, a corrupt file reported with its line and kept
 * read-only (never written over), two writers of one file merging under the
 * lock (neither undoes the other), and kill -9 at random points during saves
 * (nothing acknowledged is lost, nothing on disk is ever half written).
 */
#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <wlr/util/log.h>

#include "portals/permission_store.h"

#define APPS 50

static char dir[256];
static char last_log[4096];

__attribute__((format(printf, 2, 0))) static void capture_log(
	enum wlr_log_importance importance, const char *fmt, va_list args) {
	vsnprintf(last_log, sizeof(last_log), fmt, args);
}

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);   \
			exit(1);                                                                   \
		}                                                                                  \
	} while (0)

static char *path_in(const char *name) {
	static char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

static void write_file(const char *path, const char *text) {
	FILE *f = fopen(path, "w");
	CHECK(f);
	fputs(text, f);
	fclose(f);
}

static void test_round_trip(void) {
	char *path = strdup(path_in("state/cordon/permissions"));
	struct cordon_permission_store *store = cordon_permission_store_load(path);
	CHECK(store);
	CHECK(cordon_permission_store_get(store, "org.a", "file-chooser") == CORDON_PERMISSION_ASK);
	char *error = NULL;
	CHECK(cordon_permission_store_set(
		store, "org.a", "file-chooser", CORDON_PERMISSION_ALLOW, &error));
	CHECK(cordon_permission_store_set(
		store, "org.b", "file-chooser", CORDON_PERMISSION_DENY, &error));
	CHECK(cordon_permission_store_add_folder(
		store, "org.a", "file-chooser", "/home/u/Docs", &error));
	CHECK(cordon_permission_store_add_folder(store, "org.a", "file-chooser", "/tmp", &error));
	CHECK(cordon_permission_store_add_folder(
		store, "org.a", "file-chooser", "/home/u/Docs", &error));
	/* Names the line format cannot hold are refused, not written. */
	CHECK(!cordon_permission_store_set(
		store, "bad]id", "file-chooser", CORDON_PERMISSION_ALLOW, &error));
	CHECK(strstr(error, "bad]id"));
	free(error);
	error = NULL;
	CHECK(!cordon_permission_store_set(
		store, "", "file-chooser", CORDON_PERMISSION_ALLOW, &error));
	free(error);
	error = NULL;
	CHECK(!cordon_permission_store_add_folder(store, "org.a", "file-chooser", "/a\nb", &error));
	free(error);
	cordon_permission_store_destroy(store);

	store = cordon_permission_store_load(path);
	CHECK(cordon_permission_store_get(store, "org.a", "file-chooser") ==
		CORDON_PERMISSION_ALLOW);
	CHECK(cordon_permission_store_get(store, "org.b", "file-chooser") ==
		CORDON_PERMISSION_DENY);
	CHECK(cordon_permission_store_get(store, "org.a", "camera") == CORDON_PERMISSION_ASK);
	size_t count;
	const char *const *folders =
		cordon_permission_store_get_folders(store, "org.a", "file-chooser", &count);
	CHECK(count == 2);
	CHECK(strcmp(folders[0], "/home/u/Docs") == 0 && strcmp(folders[1], "/tmp") == 0);
	/* The oldest folder drops out. */
	for (int i = 0; i < CORDON_PERMISSION_MAX_FOLDERS + 3; i++) {
		char folder[32];
		snprintf(folder, sizeof(folder), "/f%d", i);
		CHECK(cordon_permission_store_add_folder(
			store, "org.a", "file-chooser", folder, &error));
	}
	folders = cordon_permission_store_get_folders(store, "org.a", "file-chooser", &count);
	CHECK(count == CORDON_PERMISSION_MAX_FOLDERS);
	CHECK(strcmp(folders[0], "/f10") == 0);
	cordon_permission_store_destroy(store);
	free(path);
}

static char *read_text(const char *path) {
	static char text[4096];
	memset(text, 0, sizeof(text));
	FILE *f = fopen(path, "r");
	CHECK(f);
	CHECK(fread(text, 1, sizeof(text) - 1, f) > 0);
	fclose(f);
	return text;
}

static void test_corrupt(void) {
	char *path = strdup(path_in("corrupt"));
	static const char corrupt[] =
		"# a store\n[org.a]\nfile-chooser = allow\nfile-chooser = sometimes\n";
	write_file(path, corrupt);
	last_log[0] = '\0';
	struct cordon_permission_store *store = cordon_permission_store_load(path);
	CHECK(store);
	/* Logged with its line; read-only, answering ask; the file left exactly as it was. */
	CHECK(strstr(last_log, ":4:") && strstr(last_log, "sometimes"));
	CHECK(strstr(last_log, "read-only"));
	const char *reason = cordon_permission_store_read_only_reason(store);
	CHECK(reason && strstr(reason, ":4:"));
	CHECK(cordon_permission_store_get(store, "org.a", "file-chooser") == CORDON_PERMISSION_ASK);
	char *error = NULL;
	CHECK(!cordon_permission_store_set(
		store, "org.c", "file-chooser", CORDON_PERMISSION_ALLOW, &error));
	CHECK(error && strstr(error, "read-only") && strstr(error, ":4:"));
	free(error);
	error = NULL;
	CHECK(!cordon_permission_store_add_folder(store, "org.c", "file-chooser", "/x", &error));
	free(error);
	error = NULL;
	CHECK(strcmp(read_text(path), corrupt) == 0);
	CHECK(access(path_in("corrupt.corrupt"), F_OK) != 0);
	/* Fixed by the user: it counts at once, and can be written again, merged. */
	write_file(path, "[org.a]\nfile-chooser = deny\n");
	CHECK(cordon_permission_store_get(store, "org.a", "file-chooser") ==
		CORDON_PERMISSION_DENY);
	CHECK(cordon_permission_store_read_only_reason(store) == NULL);
	CHECK(cordon_permission_store_set(
		store, "org.c", "file-chooser", CORDON_PERMISSION_ALLOW, &error));
	cordon_permission_store_destroy(store);
	store = cordon_permission_store_load(path);
	CHECK(cordon_permission_store_get(store, "org.a", "file-chooser") ==
		CORDON_PERMISSION_DENY);
	CHECK(cordon_permission_store_get(store, "org.c", "file-chooser") ==
		CORDON_PERMISSION_ALLOW);
	/* Broken again under a running store: the last good version answers, nothing is written. */
	write_file(path, "[org.a]\nfile-chooser = never\n");
	CHECK(cordon_permission_store_get(store, "org.c", "file-chooser") ==
		CORDON_PERMISSION_ALLOW);
	CHECK(!cordon_permission_store_set(
		store, "org.d", "camera", CORDON_PERMISSION_DENY, &error));
	free(error);
	error = NULL;
	CHECK(strcmp(read_text(path), "[org.a]\nfile-chooser = never\n") == 0);
	cordon_permission_store_destroy(store);

	/* Keys before a section, bad app ids and relative folders are errors too. */
	const char *bad[] = {
		"file-chooser = allow\n",
		"[has space]\nfile-chooser = allow\n",
		"[org.a]\nfile-chooser.folder = relative\n",
		"[org.a]\nfile chooser = allow\n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		write_file(path, bad[i]);
		last_log[0] = '\0';
		store = cordon_permission_store_load(path);
		CHECK(store && (strstr(last_log, ":1:") || strstr(last_log, ":2:")));
		CHECK(cordon_permission_store_read_only_reason(store));
		cordon_permission_store_destroy(store);
	}
	free(path);
}

/*
 * Two writers of one file (two cordon instances): each loaded it before the other's
 * change. A deny in one and an unrelated grant in the other both end up on disk and in
 * both stores, as do remembered folders; a writer holding the lock makes a change wait,
 * and fail after the bound rather than write unlocked.
 */
static void test_merge(void) {
	char *path = strdup(path_in("shared/permissions"));
	char *error = NULL;
	struct cordon_permission_store *first = cordon_permission_store_load(path);
	CHECK(cordon_permission_store_set(
		first, "org.victim", "camera", CORDON_PERMISSION_ALLOW, &error));
	struct cordon_permission_store *second = cordon_permission_store_load(path);
	CHECK(cordon_permission_store_get(second, "org.victim", "camera") ==
		CORDON_PERMISSION_ALLOW);
	/* The user takes the camera away in the first instance... */
	CHECK(cordon_permission_store_set(
		first, "org.victim", "camera", CORDON_PERMISSION_DENY, &error));
	/* ...and grants something unrelated in the second, which loaded the old allow. */
	CHECK(cordon_permission_store_set(
		second, "org.other", "file-chooser", CORDON_PERMISSION_ALLOW, &error));
	CHECK(cordon_permission_store_add_folder(
		second, "org.other", "file-chooser", "/home/u/B", &error));
	CHECK(cordon_permission_store_add_folder(
		first, "org.other", "file-chooser", "/home/u/A", &error));
	const char *text = read_text(path);
	CHECK(strstr(text, "[org.victim]\ncamera = deny\n"));
	CHECK(strstr(text, "[org.other]\nfile-chooser = allow\n"));
	/* Both in effect in both, without a restart. */
	struct cordon_permission_store *stores[] = {first, second};
	for (int i = 0; i < 2; i++) {
		CHECK(cordon_permission_store_get(stores[i], "org.victim", "camera") ==
			CORDON_PERMISSION_DENY);
		CHECK(cordon_permission_store_get(stores[i], "org.other", "file-chooser") ==
			CORDON_PERMISSION_ALLOW);
		size_t count;
		const char *const *folders = cordon_permission_store_get_folders(
			stores[i], "org.other", "file-chooser", &count);
		CHECK(count == 2 && strcmp(folders[0], "/home/u/A") == 0 &&
			strcmp(folders[1], "/home/u/B") == 0);
	}
	/* Another process holds the lock: the change waits, then fails, and writes nothing. */
	char lock_path[600];
	snprintf(lock_path, sizeof(lock_path), "%s.lock", path);
	int lock = open(lock_path, O_RDWR);
	CHECK(lock >= 0 && flock(lock, LOCK_EX) == 0);
	struct timespec start, end;
	clock_gettime(CLOCK_MONOTONIC, &start);
	CHECK(!cordon_permission_store_set(
		first, "org.victim", "camera", CORDON_PERMISSION_ALLOW, &error));
	clock_gettime(CLOCK_MONOTONIC, &end);
	CHECK(error && strstr(error, "locked"));
	free(error);
	error = NULL;
	CHECK(end.tv_sec - start.tv_sec >= 1);
	CHECK(cordon_permission_store_get(second, "org.victim", "camera") ==
		CORDON_PERMISSION_DENY);
	close(lock);
	CHECK(cordon_permission_store_set(
		first, "org.victim", "camera", CORDON_PERMISSION_ASK, &error));
	CHECK(cordon_permission_store_get(second, "org.victim", "camera") == CORDON_PERMISSION_ASK);
	cordon_permission_store_destroy(first);
	cordon_permission_store_destroy(second);
	free(path);
}

/*
 * Two processes saving at the same time, each its own apps, each store loaded before the
 * other's first save: every save of both is in the file at the end (a writer that saved
 * its own copy would drop the other's).
 */
static void test_concurrent_writers(int saves) {
	char *path = strdup(path_in("concurrent/permissions"));
	pid_t pids[2];
	for (int w = 0; w < 2; w++) {
		pids[w] = fork();
		CHECK(pids[w] >= 0);
		if (pids[w] == 0) {
			struct cordon_permission_store *store = cordon_permission_store_load(path);
			for (int i = 0; i < saves; i++) {
				char app[64];
				snprintf(app, sizeof(app), "org.writer%d.app%d", w, i);
				char *error = NULL;
				if (!cordon_permission_store_set(store, app, "camera",
					    w ? CORDON_PERMISSION_DENY : CORDON_PERMISSION_ALLOW,
					    &error)) {
					fprintf(stderr, "writer %d: %s\n", w, error);
					_exit(1);
				}
			}
			cordon_permission_store_destroy(store);
			_exit(0);
		}
	}
	for (int w = 0; w < 2; w++) {
		int status;
		CHECK(waitpid(pids[w], &status, 0) == pids[w]);
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	struct cordon_permission_store *store = cordon_permission_store_load(path);
	for (int w = 0; w < 2; w++) {
		for (int i = 0; i < saves; i++) {
			char app[64];
			snprintf(app, sizeof(app), "org.writer%d.app%d", w, i);
			CHECK(cordon_permission_store_get(store, app, "camera") ==
				(w ? CORDON_PERMISSION_DENY : CORDON_PERMISSION_ALLOW));
		}
	}
	cordon_permission_store_destroy(store);
	printf("two writers at once: %d saves each, all kept\n", saves);
	free(path);
}

/*
 * Random damage to a valid store: every load either keeps what parses or reports the
 * file read-only; it never crashes, never changes the file, and a read-only store
 * answers "ask" for everything.
 */
static void test_fuzz(int rounds) {
	static const char valid[] =
		"# cordon portal permissions, format 1\n\n[org.a]\n"
		"file-chooser = allow\nfile-chooser.folder = /home/u\n\n[org.b]\ncamera = deny\n";
	static const char alphabet[] = "[]=.# \n\tabz/-\\\x01\xff";
	char *path = strdup(path_in("fuzzed"));
	srand(42);
	int read_only = 0;
	for (int round = 0; round < rounds; round++) {
		char text[sizeof(valid)];
		memcpy(text, valid, sizeof(valid));
		int edits = 1 + rand() % 4;
		for (int i = 0; i < edits; i++) {
			text[rand() % (sizeof(valid) - 1)] =
				alphabet[rand() % (sizeof(alphabet) - 1)];
		}
		write_file(path, text);
		last_log[0] = '\0';
		struct cordon_permission_store *store = cordon_permission_store_load(path);
		CHECK(store);
		if (cordon_permission_store_read_only_reason(store)) {
			read_only++;
			CHECK(strstr(last_log, path));
			CHECK(cordon_permission_store_get(store, "org.b", "camera") ==
				CORDON_PERMISSION_ASK);
			char *error = NULL;
			CHECK(!cordon_permission_store_set(
				store, "org.b", "camera", CORDON_PERMISSION_ALLOW, &error));
			free(error);
			CHECK(memcmp(read_text(path), text, strlen(text)) == 0);
		}
		cordon_permission_store_destroy(store);
	}
	printf("fuzzed stores: %d, read-only as corrupt: %d\n", rounds, read_only);
	free(path);
}

/* Operation I of the fault-injection run: app I % APPS gets permission (I / APPS) % 3. */
static void op_of(long i, char *app, size_t size, enum cordon_permission *permission) {
	snprintf(app, size, "org.example.app%ld", i % APPS);
	*permission = (enum cordon_permission)((i / APPS) % 3);
}

/* The child: saves operation after operation, acknowledging each once it is on disk. */
static void writer(const char *path, long start, int ack_fd) {
	struct cordon_permission_store *store = cordon_permission_store_load(path);
	for (long i = start;; i++) {
		char app[64];
		enum cordon_permission permission;
		op_of(i, app, sizeof(app), &permission);
		char *error = NULL;
		if (!cordon_permission_store_set(store, app, "file-chooser", permission, &error)) {
			fprintf(stderr, "save failed: %s\n", error);
			_exit(1);
		}
		if (write(ack_fd, &i, sizeof(i)) != sizeof(i)) {
			_exit(1);
		}
	}
}

static void test_kill_during_writes(int rounds) {
	char *path = strdup(path_in("killed/permissions"));
	long acked = -1;
	srand((unsigned)time(NULL));
	for (int round = 0; round < rounds; round++) {
		int fds[2];
		CHECK(pipe(fds) == 0);
		pid_t pid = fork();
		CHECK(pid >= 0);
		if (pid == 0) {
			close(fds[0]);
			writer(path, acked + 1, fds[1]);
		}
		close(fds[1]);
		/* Anywhere from before the first save to a few saves in. */
		struct timespec delay = {0, (long)(rand() % 4000) * 1000};
		nanosleep(&delay, NULL);
		kill(pid, SIGKILL);
		int status;
		waitpid(pid, &status, 0);
		CHECK(WIFSIGNALED(status));
		long value;
		while (read(fds[0], &value, sizeof(value)) == sizeof(value)) {
			CHECK(value == acked + 1);
			acked = value;
		}
		close(fds[0]);

		last_log[0] = '\0';
		struct cordon_permission_store *store = cordon_permission_store_load(path);
		CHECK(cordon_permission_store_read_only_reason(store) == NULL);
		/* Every acknowledged save is there; the one in flight may be too. */
		for (int app_index = 0; app_index < APPS && acked >= 0; app_index++) {
			long last = acked - ((acked - app_index) % APPS + APPS) % APPS;
			char app[64];
			enum cordon_permission expected = CORDON_PERMISSION_ASK, in_flight;
			if (last >= 0) {
				op_of(last, app, sizeof(app), &expected);
			}
			op_of(acked + 1, app, sizeof(app), &in_flight);
			snprintf(app, sizeof(app), "org.example.app%d", app_index);
			enum cordon_permission got =
				cordon_permission_store_get(store, app, "file-chooser");
			bool flight_app = (acked + 1) % APPS == app_index;
			if (got != expected && !(flight_app && got == in_flight)) {
				fprintf(stderr, "round %d: %s is %s, expected %s (last ack %ld)\n",
					round, app, cordon_permission_name(got),
					cordon_permission_name(expected), acked);
				exit(1);
			}
		}
		cordon_permission_store_destroy(store);
	}
	/* Temporary files of killed saves stay behind until the next save; count them. */
	int leftovers = 0;
	DIR *listing = opendir(path_in("killed"));
	struct dirent *entry;
	while (listing && (entry = readdir(listing))) {
		leftovers += strncmp(entry->d_name, "permissions.", 12) == 0 &&
			strcmp(entry->d_name, "permissions.lock") != 0;
	}
	if (listing) {
		closedir(listing);
	}
	printf("kill -9 rounds: %d, saves acknowledged: %ld, none lost, none corrupt, "
	       "temporary files left by killed saves: %d\n",
		rounds, acked + 1, leftovers);
	free(path);
}

int main(void) {
	wlr_log_init(WLR_ERROR, capture_log);
	snprintf(dir, sizeof(dir), "%s/cordon-perm-test.XXXXXX",
		getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	CHECK(mkdtemp(dir));
	test_round_trip();
	test_corrupt();
	test_merge();
	test_concurrent_writers(200);
	test_fuzz(5000);
	const char *rounds = getenv("CORDON_PERMISSION_KILL_ROUNDS");
	test_kill_during_writes(rounds ? atoi(rounds) : 1000);
	char command[512];
	snprintf(command, sizeof(command), "rm -rf '%s'", dir);
	CHECK(system(command) == 0);
	return 0;
}
