/* Clipboard and drag-and-drop decisions across sandbox boundaries: pure functions of tags and
 * events. */
#ifndef CORDON_COMPOSITOR_SELECTION_POLICY_H
#define CORDON_COMPOSITOR_SELECTION_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sandbox/cgroup_tag.h"

struct cordon_policy;

#define CORDON_SELECTION_MAX_TYPES 32
#define CORDON_SELECTION_TYPE_MAX 128
#define CORDON_SELECTION_DEFAULT_SIZE_LIMIT (64u * 1024 * 1024)
/* How old the input event behind a cross-boundary set_selection may be. */
#define CORDON_SELECTION_DEFAULT_INPUT_AGE_MS 10000u
#define CORDON_SELECTION_DEFAULT_TRANSFERS_PER_CLIENT 8

enum cordon_selection_kind {
	CORDON_SELECTION_CLIPBOARD,
	CORDON_SELECTION_PRIMARY,
	CORDON_SELECTION_DRAG,
};

/* The rules, per destination app (defaults in cordon_selection_rules_init). */
struct cordon_selection_rules {
	/* Mime types allowed across a boundary; exact matches after normalising text/plain. */
	char allowed_types[CORDON_SELECTION_MAX_TYPES][CORDON_SELECTION_TYPE_MAX];
	size_t allowed_type_count;
	uint64_t size_limit; /* bytes per proxied transfer */
	uint32_t input_age_ms;
	bool primary_crosses; /* the primary selection may cross (off by default) */
	/* Explicit (Qubes-like) mode: nothing crosses into this app but by the paste shortcut. */
	bool explicit_paste;
	int transfers_per_client;
	/*
	 * Files (text/uri-list) cross as document grants: only between the host and one
	 * known sandboxed app, where the app's clipboard-files allows it (the default), and
	 * only while file grants work (selection.c clears it without a document portal).
	 */
	bool files_cross;
};

/* Text in its usual spellings and common image types, 64 MiB, no primary. */
void cordon_selection_rules_init(struct cordon_selection_rules *rules);
/*
 * The rules of one app (app_id NULL: an app without an id, or the host): the
 * defaults, with what policy.ini sets for it (clipboard-types,
 * clipboard-size-limit, clipboard-primary, clipboard-explicit). policy may be NULL.
 */
void cordon_selection_rules_for_app(struct cordon_selection_rules *rules,
	const struct cordon_policy *policy, const char *app_id);
/* Narrows rules by other: only types both allow, the smaller limits, primary if both allow it. */
void cordon_selection_rules_narrow(
	struct cordon_selection_rules *rules, const struct cordon_selection_rules *other);
/*
 * The rules for a transfer between two tags: those of each sandboxed side
 * (an unknown sandbox has the default profile's), narrowed by each other.
 */
void cordon_selection_rules_between(struct cordon_selection_rules *rules,
	const struct cordon_policy *policy, const struct cordon_tag *a, const struct cordon_tag *b);

/*
 * Whether a transfer between two tags crosses a sandbox boundary. An unknown
 * sandbox (cordon_tag_unknown; a NULL pointer is taken as one) crosses to
 * everything, even to another unknown one. Host to host, and the same sandboxed
 * app instance (cordon_tag_same_sandbox), do not cross.
 */
bool cordon_selection_crosses(const struct cordon_tag *from, const struct cordon_tag *to);

/* text/uri-list in its spellings: the type that crosses as file grants, never as bytes. */
bool cordon_selection_type_is_files(const char *mime_type);

/*
 * Whether a mime type may be offered across a boundary under these rules. The file
 * types follow files_cross whatever clipboard-types says (a host path passed as text
 * would leak it); application/vnd.portal.filetransfer never crosses (its key is only of
 * use on the session bus, which a sandbox does not have).
 */
bool cordon_selection_type_allowed(
	const struct cordon_selection_rules *rules, const char *mime_type);

/* What authorises a set_selection or start_drag request, as the seat saw it. */
struct cordon_selection_proof {
	/* The request's serial is one of an input event (key or button press or release)
	 * that cordon delivered to this client, not an enter or configure serial. */
	bool serial_is_input;
	uint32_t input_age_ms; /* since that event */
	bool has_keyboard_focus; /* set_selection */
	bool button_down; /* start_drag: a button is still held */
	bool serial_is_press; /* start_drag: the serial is that of the held button's press */
	bool has_pointer_focus; /* start_drag: the origin is under the pointer */
};

enum cordon_selection_verdict {
	CORDON_SELECTION_ALLOW,
	CORDON_SELECTION_DENY_NO_INPUT, /* no recent user input in the source */
	CORDON_SELECTION_DENY_NO_FOCUS,
	CORDON_SELECTION_DENY_NO_BUTTON, /* a drag without a held button */
};

/*
 * May a client with this tag set the clipboard or primary selection? A host
 * client's selection is gated where it would cross, at the destination (see
 * cordon_selection_offer); a sandboxed or unknown one needs focus and a recent
 * input serial, since wlroots only checks that the serial was once sent.
 */
enum cordon_selection_verdict cordon_selection_may_set(const struct cordon_selection_rules *rules,
	const struct cordon_tag *source, const struct cordon_selection_proof *proof);

/* May a client start a drag? Sandboxed or unknown: only from a held button's press serial. */
enum cordon_selection_verdict cordon_selection_may_drag(
	const struct cordon_tag *source, const struct cordon_selection_proof *proof);

enum cordon_offer_mode {
	CORDON_OFFER_NONE, /* the destination sees no selection */
	CORDON_OFFER_DIRECT, /* the source's own offer, fds passed through */
	CORDON_OFFER_PROXIED, /* allowed types only, data copied through cordon */
};

enum cordon_offer_reason {
	CORDON_OFFER_REASON_SAME_SIDE,
	CORDON_OFFER_REASON_MEDIATED,
	CORDON_OFFER_REASON_NO_ACTION, /* no key or button press in the destination since focus */
	CORDON_OFFER_REASON_PRIMARY, /* the primary selection does not cross */
	CORDON_OFFER_REASON_EXPLICIT, /* explicit mode: only the paste shortcut crosses */
	CORDON_OFFER_REASON_NO_TYPES, /* nothing the rules allow */
};

struct cordon_offer_decision {
	enum cordon_offer_mode mode;
	enum cordon_offer_reason reason;
};

/*
 * What the focused destination is offered of a selection. user_acted: a key or
 * button press reached the destination after it got focus (a window mapped to
 * grab focus has none); required of sandboxed and unknown destinations. allowed_types: how many of
 * the source's types the rules allow. pasted_across: the user pressed the paste-across shortcut in
 * this destination since it got focus (the one way into an app in explicit mode).
 */
struct cordon_offer_decision cordon_selection_offer(const struct cordon_selection_rules *rules,
	enum cordon_selection_kind kind, const struct cordon_tag *source,
	const struct cordon_tag *destination, bool user_acted, bool pasted_across,
	size_t allowed_types);

const char *cordon_selection_verdict_name(enum cordon_selection_verdict verdict);
const char *cordon_offer_reason_name(enum cordon_offer_reason reason);
const char *cordon_selection_kind_name(enum cordon_selection_kind kind);
const char *cordon_offer_mode_name(enum cordon_offer_mode mode);

#endif
