/* Per-app caps on what a sandboxed app can make cordon hold (docs/security.md, "Resources"). */
#ifndef CORDON_COMPOSITOR_APP_LIMITS_H
#define CORDON_COMPOSITOR_APP_LIMITS_H

#include <stdbool.h>
#include <stdint.h>

#include "sandbox/cgroup_tag.h"

/*
 * The caps. Each costs cordon a known amount per unit: a connection two fds (the socket and
 * the event loop's copy of it) and a client record; a mime type its bytes in wlroots' list
 * and in each view made of it. The numbers are far above what real apps use (one or a few
 * connections, a few dozen types on a copy) and far below what exhausts cordon.
 */
#define CORDON_APP_MAX_CONNECTIONS 128
#define CORDON_APP_MAX_MIME_TYPES 1024
#define CORDON_APP_MAX_MIME_BYTES (256 * 1024)

enum cordon_app_resource {
	CORDON_APP_CONNECTIONS, /* Wayland connections, and control-socket connections */
	CORDON_APP_MIME_TYPES, /* types offered on the app's data sources that are alive */
	CORDON_APP_MIME_BYTES, /* the bytes of those types */
	CORDON_APP_RESOURCE_COUNT,
};

struct cordon_app_limits;
/* What one app holds: shared by its clients and control peers, counted with references. */
struct cordon_app_budget;

struct cordon_app_limits *cordon_app_limits_create(void);
/* Budgets still referenced live on, detached, until their last reference goes. */
void cordon_app_limits_destroy(struct cordon_app_limits *limits);

/*
 * The budget of the app a client or peer belongs to, with a new reference. An app is its
 * engine and app id: its instances share one budget, so that starting more instances of
 * itself does not multiply what it may hold. tag NULL or cordon_tag_unknown is an unknown
 * sandbox (all of them share one budget). NULL for an unsandboxed tag (the host is not
 * capped) or out of memory.
 */
struct cordon_app_budget *cordon_app_budget_get(
	struct cordon_app_limits *limits, const struct cordon_tag *tag, bool sandboxed);
/* Another reference to a budget (NULL stays NULL). */
struct cordon_app_budget *cordon_app_budget_ref(struct cordon_app_budget *budget);
void cordon_app_budget_unref(struct cordon_app_budget *budget);

/*
 * Charges amount to the budget. At the cap nothing is charged and false is returned, and a
 * line naming the app is logged (once per resource every CORDON_APP_LOG_INTERVAL_MS, with
 * the count refused since). A NULL budget is never capped.
 */
#define CORDON_APP_LOG_INTERVAL_MS 10000
bool cordon_app_budget_take(
	struct cordon_app_budget *budget, enum cordon_app_resource resource, uint64_t amount);
void cordon_app_budget_give(
	struct cordon_app_budget *budget, enum cordon_app_resource resource, uint64_t amount);
/*
 * Logs (as an error) a refusal that is not a cap (a control command, say) naming the app,
 * rate-limited as the caps' lines are; always for a NULL budget (the host is not flooding).
 */
void cordon_app_budget_log(struct cordon_app_budget *budget, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), nonnull(2)));
uint64_t cordon_app_budget_used(
	const struct cordon_app_budget *budget, enum cordon_app_resource resource);
/* A number for the app, unique while cordon runs; 0 for NULL. */
uint64_t cordon_app_budget_id(const struct cordon_app_budget *budget);
/* "engine/app_id", or "unknown sandbox". */
const char *cordon_app_budget_name(const struct cordon_app_budget *budget);

#endif
