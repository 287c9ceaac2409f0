/*
 * Per-app budgets: every resource a sandboxed app can make cordon hold is charged to its app,
 * not to one connection, since an app may open as many connections as it likes (through its
 * own security-context listener, or from every process of its cgroup). SECURITY-NOTES: one
 * sandbox used all of cordon's fds with about 6,800 connections in 2 s, and grew it by
 * 400 MB with the mime types of one data source.
 *
 * A budget is found by tag when a client or control peer is identified, and referenced by it
 * until it goes; what it charged is given back by whoever holds it. The host is not capped:
 * its clients are the user's own programs.
 */
#include "compositor/app_limits.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wayland-util.h>
#include <wlr/util/log.h>

#include "common/escape.h"

struct cordon_app_limits {
	struct wl_list budgets; /* cordon_app_budget.link */
	uint64_t next_id;
};

struct cordon_app_budget {
	struct cordon_app_limits *limits; /* NULL once the limits are gone */
	struct wl_list link;
	int refs;
	uint64_t id;
	bool known; /* false: the budget of every unknown sandbox */
	struct cordon_tag key; /* the tag without its instance */
	char name[CORDON_TAG_ENGINE_MAX + CORDON_TAG_APP_ID_MAX + 2];
	uint64_t used[CORDON_APP_RESOURCE_COUNT];
	/* Logging at the cap: when the last line was written, and what was refused since. */
	int64_t logged_ms[CORDON_APP_RESOURCE_COUNT];
	uint64_t refused[CORDON_APP_RESOURCE_COUNT];
	int64_t noticed_ms; /* cordon_app_budget_log's, likewise */
	uint64_t unnoticed;
};

static const uint64_t caps[CORDON_APP_RESOURCE_COUNT] = {
	[CORDON_APP_CONNECTIONS] = CORDON_APP_MAX_CONNECTIONS,
	[CORDON_APP_MIME_TYPES] = CORDON_APP_MAX_MIME_TYPES,
	[CORDON_APP_MIME_BYTES] = CORDON_APP_MAX_MIME_BYTES,
};

static const char *const resource_names[CORDON_APP_RESOURCE_COUNT] = {
	[CORDON_APP_CONNECTIONS] = "connections",
	[CORDON_APP_MIME_TYPES] = "offered mime types",
	[CORDON_APP_MIME_BYTES] = "bytes of offered mime types",
};

static int64_t now_ms(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

struct cordon_app_limits *cordon_app_limits_create(void) {
	struct cordon_app_limits *limits = calloc(1, sizeof(*limits));
	if (!limits) {
		return NULL;
	}
	wl_list_init(&limits->budgets);
	limits->next_id = 1;
	return limits;
}

/*
 * A budget nobody holds is kept while one of its log lines is recent: an app that reconnects
 * at once (a cordonctl per command) must not get a fresh line each time.
 */
static bool logged_recently(const struct cordon_app_budget *budget, int64_t now) {
	if (now - budget->noticed_ms < CORDON_APP_LOG_INTERVAL_MS) {
		return true;
	}
	for (int i = 0; i < CORDON_APP_RESOURCE_COUNT; i++) {
		if (now - budget->logged_ms[i] < CORDON_APP_LOG_INTERVAL_MS) {
			return true;
		}
	}
	return false;
}

static void budget_free_if_unused(struct cordon_app_budget *budget, int64_t now) {
	if (budget->refs > 0 || (budget->limits && logged_recently(budget, now))) {
		return;
	}
	wl_list_remove(&budget->link);
	free(budget);
}

void cordon_app_limits_destroy(struct cordon_app_limits *limits) {
	if (!limits) {
		return;
	}
	struct cordon_app_budget *budget, *tmp;
	wl_list_for_each_safe(budget, tmp, &limits->budgets, link) {
		wl_list_remove(&budget->link);
		wl_list_init(&budget->link);
		budget->limits = NULL;
		budget_free_if_unused(budget, 0);
	}
	free(limits);
}

/* The app, without the instance: instances of one app share its budget. */
static void app_key(const struct cordon_tag *tag, struct cordon_tag *key) {
	*key = *tag;
	key->instance[0] = '\0';
	key->launcher[0] = '\0';
}

struct cordon_app_budget *cordon_app_budget_get(
	struct cordon_app_limits *limits, const struct cordon_tag *tag, bool sandboxed) {
	if (!limits || !sandboxed) {
		return NULL;
	}
	/* Every unknown sandbox shares one budget (fail closed), though no two unknown tags
	 * are the same sandbox. */
	if (tag && cordon_tag_is_unknown(tag)) {
		tag = NULL;
	}
	struct cordon_tag key;
	if (tag) {
		app_key(tag, &key);
	}
	struct cordon_app_budget *budget, *tmp;
	int64_t now = now_ms();
	wl_list_for_each_safe(budget, tmp, &limits->budgets, link) {
		if (tag ? budget->known && cordon_tag_same_sandbox(&budget->key, &key)
			: !budget->known) {
			budget->refs++;
			return budget;
		}
		/* Those kept only for their log lines go once the lines are old. */
		budget_free_if_unused(budget, now);
	}
	budget = calloc(1, sizeof(*budget));
	if (!budget) {
		return NULL;
	}
	budget->limits = limits;
	budget->refs = 1;
	budget->id = limits->next_id++;
	budget->known = tag != NULL;
	if (tag) {
		budget->key = key;
		snprintf(budget->name, sizeof(budget->name), "%s/%s", cordon_tag_engine_name(tag),
			tag->app_id);
	} else {
		snprintf(budget->name, sizeof(budget->name), "unknown sandbox");
	}
	for (int i = 0; i < CORDON_APP_RESOURCE_COUNT; i++) {
		budget->logged_ms[i] = -CORDON_APP_LOG_INTERVAL_MS;
	}
	budget->noticed_ms = -CORDON_APP_LOG_INTERVAL_MS;
	wl_list_insert(&limits->budgets, &budget->link);
	return budget;
}

struct cordon_app_budget *cordon_app_budget_ref(struct cordon_app_budget *budget) {
	if (budget) {
		budget->refs++;
	}
	return budget;
}

void cordon_app_budget_unref(struct cordon_app_budget *budget) {
	if (!budget) {
		return;
	}
	budget->refs--;
	budget_free_if_unused(budget, now_ms());
}

/* One line per resource and interval: an app at its cap must not flood the log either. */
static void log_refusal(struct cordon_app_budget *budget, enum cordon_app_resource resource) {
	budget->refused[resource]++;
	int64_t now = now_ms();
	if (now - budget->logged_ms[resource] < CORDON_APP_LOG_INTERVAL_MS) {
		return;
	}
	wlr_log(WLR_ERROR,
		"App %s reached its cap of %llu %s: refused (%llu refusals since the last such "
		"line; the next comes in %d s at the earliest)",
		cordon_log_text(budget->name), (unsigned long long)caps[resource],
		resource_names[resource], (unsigned long long)budget->refused[resource],
		CORDON_APP_LOG_INTERVAL_MS / 1000);
	budget->logged_ms[resource] = now;
	budget->refused[resource] = 0;
}

void cordon_app_budget_log(struct cordon_app_budget *budget, const char *fmt, ...) {
	int64_t now = now_ms();
	if (budget) {
		if (now - budget->noticed_ms < CORDON_APP_LOG_INTERVAL_MS) {
			budget->unnoticed++;
			return;
		}
		budget->noticed_ms = now;
	}
	char line[1024];
	va_list args;
	va_start(args, fmt);
	vsnprintf(line, sizeof(line), fmt, args);
	va_end(args);
	if (budget && budget->unnoticed) {
		wlr_log(WLR_ERROR, "%s (and %llu more such since the last line)", line,
			(unsigned long long)budget->unnoticed);
	} else {
		wlr_log(WLR_ERROR, "%s", line);
	}
	if (budget) {
		budget->unnoticed = 0;
	}
}

bool cordon_app_budget_take(
	struct cordon_app_budget *budget, enum cordon_app_resource resource, uint64_t amount) {
	if (!budget) {
		return true;
	}
	if (amount > caps[resource] || budget->used[resource] > caps[resource] - amount) {
		log_refusal(budget, resource);
		return false;
	}
	budget->used[resource] += amount;
	return true;
}

void cordon_app_budget_give(
	struct cordon_app_budget *budget, enum cordon_app_resource resource, uint64_t amount) {
	if (!budget) {
		return;
	}
	budget->used[resource] =
		amount > budget->used[resource] ? 0 : budget->used[resource] - amount;
}

uint64_t cordon_app_budget_used(
	const struct cordon_app_budget *budget, enum cordon_app_resource resource) {
	return budget ? budget->used[resource] : 0;
}

uint64_t cordon_app_budget_id(const struct cordon_app_budget *budget) {
	return budget ? budget->id : 0;
}

const char *cordon_app_budget_name(const struct cordon_app_budget *budget) {
	return budget ? budget->name : "host";
}
