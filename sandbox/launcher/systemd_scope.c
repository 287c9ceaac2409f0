/*
 * The sandbox's scope made by the systemd user manager (StartTransientUnit over sd-bus), as
 * Flatpak does: systemd then accounts the app, can stop it, and collects the scope when it is
 * empty, even if cordon-run is killed. A scope needs a process in it when it is made, and the
 * sandbox must be born in its scope (CLONE_INTO_CGROUP), so a helper that only waits is forked
 * first and handed to systemd in PIDs; its cgroup, read back from /proc/PID/cgroup once the job
 * is done, is where clone3 puts the sandbox. The helper is killed as soon as the sandbox is
 * in; the scope then lives as long as the sandbox does.
 *
 * No user bus, or no org.freedesktop.systemd1 on it: false, and cgroup.c makes the scope
 * itself. The unit name is cordon's tag (sandbox/cgroup_tag.c) as is: an app id has only
 * letters, digits, '.', '_' and '-', all valid in a unit name, so systemd escapes nothing, and
 * the instance (hex) has no dash, so the parser's split at the last dash finds the app id.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <systemd/sd-bus.h>
#include <time.h>
#include <unistd.h>

#include "sandbox/cgroup_mount.h"
#include "sandbox/launcher/launcher.h"
#include "sandbox/launcher/util.h"

/* How long the bus may take to answer a call, and systemd to finish the scope's job. */
#define JOB_TIMEOUT_USEC (10ULL * 1000 * 1000)

struct job_wait {
	const char *unit;
	bool done;
	char result[32];
};

static int handle_job_removed(sd_bus_message *m, void *data, sd_bus_error *error) {
	(void)error;
	struct job_wait *wait = data;
	uint32_t id;
	const char *job, *unit, *result;
	if (sd_bus_message_read(m, "uoss", &id, &job, &unit, &result) < 0) {
		return 0;
	}
	/* The unit name has the random instance in it: no other job can be for it. */
	if (strcmp(unit, wait->unit) == 0) {
		wait->done = true;
		snprintf(wait->result, sizeof(wait->result), "%s", result);
	}
	return 0;
}

static bool manager_answers(sd_bus *bus) {
	sd_bus_error err = SD_BUS_ERROR_NULL;
	sd_bus_message *reply = NULL;
	int has_owner = 0;
	/* NameHasOwner, not a call to systemd1: a bus that could activate one has none running. */
	int r = sd_bus_call_method(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
		"org.freedesktop.DBus", "NameHasOwner", &err, &reply, "s",
		"org.freedesktop.systemd1");
	if (r >= 0) {
		r = sd_bus_message_read(reply, "b", &has_owner);
	}
	if (r < 0) {
		cordon_debug("the user bus did not say whether systemd is on it: %s",
			err.message != NULL ? err.message : strerror(-r));
	}
	sd_bus_error_free(&err);
	sd_bus_message_unref(reply);
	return r >= 0 && has_owner;
}

/* A child that only waits to be killed, dying with cordon-run. */
static pid_t fork_helper(void) {
	pid_t parent = getpid();
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		cordon_die_errno("forking the scope's placeholder process");
	}
	if (pid == 0) {
		cordon_die_set_cleanup(NULL, NULL);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent) {
			_exit(0);
		}
		close_range(0, ~0U, 0);
		for (;;) {
			pause();
		}
	}
	return pid;
}

static int start_scope(
	sd_bus *bus, const char *name, pid_t helper, const char *app_id, sd_bus_error *err) {
	sd_bus_message *m = NULL, *reply = NULL;
	cleanup_free char *description = cordon_strdup_printf("cordon sandbox of %s", app_id);
	int r = sd_bus_message_new_method_call(bus, &m, "org.freedesktop.systemd1",
		"/org/freedesktop/systemd1", "org.freedesktop.systemd1.Manager",
		"StartTransientUnit");
	if (r >= 0) {
		r = sd_bus_message_append(m, "ss", name, "fail");
	}
	if (r >= 0) {
		r = sd_bus_message_append(m, "a(sv)", 4, "Description", "s", description, "PIDs",
			"au", 1, (uint32_t)helper, "CollectMode", "s", "inactive-or-failed",
			"Delegate", "b", 0);
	}
	if (r >= 0) {
		r = sd_bus_message_append(m, "a(sa(sv))", 0);
	}
	if (r >= 0) {
		r = sd_bus_call(bus, m, JOB_TIMEOUT_USEC, err, &reply);
	}
	sd_bus_message_unref(m);
	sd_bus_message_unref(reply);
	return r;
}

static int wait_for_job(sd_bus *bus, struct job_wait *wait) {
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	uint64_t deadline =
		(uint64_t)now.tv_sec * 1000000 + (uint64_t)now.tv_nsec / 1000 + JOB_TIMEOUT_USEC;
	while (!wait->done) {
		int r = sd_bus_process(bus, NULL);
		if (r < 0) {
			return r;
		}
		if (r > 0) {
			continue;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		uint64_t t = (uint64_t)now.tv_sec * 1000000 + (uint64_t)now.tv_nsec / 1000;
		if (t >= deadline) {
			return -ETIMEDOUT;
		}
		r = sd_bus_wait(bus, deadline - t);
		if (r < 0) {
			return r;
		}
	}
	return 0;
}

/* The cgroup v2 path of pid ("0::PATH"), or NULL. */
static char *cgroup_of(pid_t pid) {
	char proc[64];
	snprintf(proc, sizeof(proc), "/proc/%d/cgroup", (int)pid);
	FILE *f = fopen(proc, "re");
	if (f == NULL) {
		return NULL;
	}
	char *line = NULL, *path = NULL;
	size_t cap = 0;
	while (getline(&line, &cap, f) > 0) {
		if (strncmp(line, "0::", 3) == 0) {
			line[strcspn(line, "\n")] = '\0';
			path = strdup(line + 3);
			break;
		}
	}
	free(line);
	fclose(f);
	return path;
}

static void kill_helper(struct cordon_launch *launch) {
	if (launch->scope_helper_pid > 0) {
		kill(launch->scope_helper_pid, SIGKILL);
		while (waitpid(launch->scope_helper_pid, NULL, 0) < 0 && errno == EINTR) {
		}
		launch->scope_helper_pid = -1;
	}
}

void cordon_launch_release_scope_helper(struct cordon_launch *launch) {
	kill_helper(launch);
}

bool cordon_launch_systemd_scope(struct cordon_launch *launch, const char *name) {
	sd_bus *bus = NULL;
	int r = sd_bus_open_user(&bus);
	if (r < 0) {
		cordon_debug("no systemd user manager: no user bus (%s)", strerror(-r));
		return false;
	}
	/* A bus that never answers delays the launch by at most this, never 25 s per call. */
	sd_bus_set_method_call_timeout(bus, JOB_TIMEOUT_USEC);
	if (!manager_answers(bus)) {
		cordon_debug(
			"no systemd user manager: org.freedesktop.systemd1 is not on the user bus");
		sd_bus_flush_close_unref(bus);
		return false;
	}

	struct job_wait wait = {.unit = name};
	sd_bus_slot *slot = NULL;
	/* Before the call: the job may be over before its reply is read. */
	r = sd_bus_match_signal(bus, &slot, "org.freedesktop.systemd1", "/org/freedesktop/systemd1",
		"org.freedesktop.systemd1.Manager", "JobRemoved", handle_job_removed, &wait);
	sd_bus_error err = SD_BUS_ERROR_NULL;
	launch->scope_helper_pid = fork_helper();
	if (r >= 0) {
		r = start_scope(bus, name, launch->scope_helper_pid, launch->options.app_id, &err);
	}
	if (r >= 0) {
		r = wait_for_job(bus, &wait);
	}
	const char *why = r == -ETIMEDOUT   ? "no answer in 10 s"
		: sd_bus_error_is_set(&err) ? err.message
					    : strerror(-r);
	if (r >= 0 && strcmp(wait.result, "done") != 0) {
		r = -EIO;
		why = wait.result;
	}
	cleanup_free char *why_copy = strdup(why != NULL ? why : "unknown");
	sd_bus_error_free(&err);
	sd_bus_slot_unref(slot);
	sd_bus_flush_close_unref(bus);

	cleanup_free char *cgroup = r >= 0 ? cgroup_of(launch->scope_helper_pid) : NULL;
	const char *base = cgroup != NULL ? strrchr(cgroup, '/') : NULL;
	char mount[4096];
	if (r >= 0 && (base == NULL || strcmp(base + 1, name) != 0)) {
		r = -EIO;
		free(why_copy);
		why_copy = cordon_strdup_printf("its placeholder is in %s, not in the scope",
			cgroup != NULL ? cgroup : "no cgroup");
	} else if (r >= 0 && !cordon_cgroup2_mount(mount, sizeof(mount))) {
		r = -EIO;
		free(why_copy);
		why_copy = strdup("no cgroup v2 mount in /proc/self/mountinfo");
	}
	if (r < 0) {
		/* An empty scope is stopped and collected by systemd: nothing stays. */
		kill_helper(launch);
		fprintf(stderr,
			"cordon-run: the systemd user manager did not make the scope %s (%s); "
			"making it in the cgroup tree instead\n",
			name, why_copy);
		return false;
	}
	launch->cgroup_path = cordon_strdup_printf("%s%s", mount, cgroup);
	launch->systemd_scope = true;
	cordon_debug("systemd user manager made the scope %s", name);
	return true;
}
