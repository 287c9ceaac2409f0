/*
 * The mediation policy: every clipboard, primary selection and drag decision
 * that can cross a sandbox boundary is made here, from the tags the kernel gave
 * (never from what a client says) and from the input event behind the request.
 * No display needed: tests/unit/test_selection_policy.c runs it as a table.
 */
#include "compositor/selection_policy.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "common/policy.h"

/* Text in its usual spellings (X11 atoms as Xwayland and toolkits name them) and common images. */
static const char *const default_types[] = {
	"text/plain;charset=utf-8",
	"text/plain",
	"UTF8_STRING",
	"STRING",
	"TEXT",
	"image/png",
	"image/jpeg",
	"image/gif",
	"image/bmp",
	"image/webp",
};

void cordon_selection_rules_init(struct cordon_selection_rules *rules) {
	memset(rules, 0, sizeof(*rules));
	for (size_t i = 0; i < sizeof(default_types) / sizeof(default_types[0]); i++) {
		snprintf(rules->allowed_types[rules->allowed_type_count++],
			CORDON_SELECTION_TYPE_MAX, "%s", default_types[i]);
	}
	rules->size_limit = CORDON_SELECTION_DEFAULT_SIZE_LIMIT;
	rules->input_age_ms = CORDON_SELECTION_DEFAULT_INPUT_AGE_MS;
	rules->transfers_per_client = CORDON_SELECTION_DEFAULT_TRANSFERS_PER_CLIENT;
	rules->files_cross = true;
}

/* Replaces the allowed types with a comma-separated list from policy.ini. */
static void set_types(struct cordon_selection_rules *rules, const char *list) {
	rules->allowed_type_count = 0;
	while (*list && rules->allowed_type_count < CORDON_SELECTION_MAX_TYPES) {
		while (*list == ' ' || *list == '\t' || *list == ',') {
			list++;
		}
		size_t len = strcspn(list, ",");
		while (len > 0 && (list[len - 1] == ' ' || list[len - 1] == '\t')) {
			len--;
		}
		/* A type too long to keep is left out: never allowed rather than cut short. */
		if (len > 0 && len < CORDON_SELECTION_TYPE_MAX) {
			memcpy(rules->allowed_types[rules->allowed_type_count], list, len);
			rules->allowed_types[rules->allowed_type_count++][len] = '\0';
		}
		list += strcspn(list, ",");
	}
}

void cordon_selection_rules_for_app(struct cordon_selection_rules *rules,
	const struct cordon_policy *policy, const char *app_id) {
	cordon_selection_rules_init(rules);
	if (!policy) {
		return;
	}
	const char *types = cordon_policy_get(policy, app_id, NULL, "clipboard-types");
	if (types) {
		set_types(rules, types);
	}
	rules->size_limit = cordon_policy_get_size(
		policy, app_id, NULL, "clipboard-size-limit", rules->size_limit);
	rules->primary_crosses = cordon_policy_get_bool(
		policy, app_id, NULL, "clipboard-primary", rules->primary_crosses);
	rules->explicit_paste = cordon_policy_get_bool(
		policy, app_id, NULL, "clipboard-explicit", rules->explicit_paste);
	rules->files_cross =
		cordon_policy_get_bool(policy, app_id, NULL, "clipboard-files", rules->files_cross);
}

void cordon_selection_rules_narrow(
	struct cordon_selection_rules *rules, const struct cordon_selection_rules *other) {
	size_t kept = 0;
	for (size_t i = 0; i < rules->allowed_type_count; i++) {
		if (cordon_selection_type_allowed(other, rules->allowed_types[i])) {
			if (kept != i) {
				memcpy(rules->allowed_types[kept], rules->allowed_types[i],
					CORDON_SELECTION_TYPE_MAX);
			}
			kept++;
		}
	}
	rules->allowed_type_count = kept;
	if (other->size_limit < rules->size_limit) {
		rules->size_limit = other->size_limit;
	}
	if (other->input_age_ms < rules->input_age_ms) {
		rules->input_age_ms = other->input_age_ms;
	}
	if (other->transfers_per_client < rules->transfers_per_client) {
		rules->transfers_per_client = other->transfers_per_client;
	}
	rules->primary_crosses = rules->primary_crosses && other->primary_crosses;
	rules->files_cross = rules->files_cross && other->files_cross;
	rules->explicit_paste = rules->explicit_paste || other->explicit_paste;
}

void cordon_selection_rules_between(struct cordon_selection_rules *rules,
	const struct cordon_policy *policy, const struct cordon_tag *a,
	const struct cordon_tag *b) {
	const struct cordon_tag *sides[] = {a, b};
	bool have = false;
	for (size_t i = 0; i < 2; i++) {
		const struct cordon_tag *tag = sides[i];
		bool unknown = cordon_tag_is_unknown(tag);
		if (!unknown && !tag->sandboxed) {
			continue;
		}
		struct cordon_selection_rules side;
		cordon_selection_rules_for_app(&side, policy, unknown ? NULL : tag->app_id);
		if (have) {
			cordon_selection_rules_narrow(rules, &side);
		} else {
			*rules = side;
			have = true;
		}
	}
	if (!have) {
		cordon_selection_rules_for_app(rules, policy, NULL);
	}
	/*
	 * A grant is made to one app id, from the host's files or back to them: nothing to
	 * grant to an unknown sandbox, and between two sandboxes files do not cross.
	 */
	bool a_known = !cordon_tag_is_unknown(a), b_known = !cordon_tag_is_unknown(b);
	bool a_app = a_known && a->sandboxed && a->app_id[0];
	bool b_app = b_known && b->sandboxed && b->app_id[0];
	bool a_host = a_known && !a->sandboxed;
	bool b_host = b_known && !b->sandboxed;
	if (!((a_host && b_app) || (a_app && b_host))) {
		rules->files_cross = false;
	}
}

bool cordon_selection_crosses(const struct cordon_tag *from, const struct cordon_tag *to) {
	/* Fail closed: an unknown sandbox is never the same app as anything. */
	if (cordon_tag_is_unknown(from) || cordon_tag_is_unknown(to)) {
		return true;
	}
	if (!from->sandboxed && !to->sandboxed) {
		return false;
	}
	if (from->sandboxed != to->sandboxed) {
		return true;
	}
	/* Two sandboxes: only the same instance of the same app shares a clipboard freely. */
	return !cordon_tag_same_sandbox(from, to);
}

/*
 * "text/plain; charset=UTF-8" and "text/plain;charset=utf-8" are one type:
 * compare case-insensitively and ignore blanks. Anything else (parameters
 * that change meaning, a different subtype) must match exactly that way.
 */
static bool same_type(const char *a, const char *b) {
	for (;;) {
		while (*a == ' ' || *a == '\t') {
			a++;
		}
		while (*b == ' ' || *b == '\t') {
			b++;
		}
		if (!*a || !*b) {
			return !*a && !*b;
		}
		if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) {
			return false;
		}
		a++;
		b++;
	}
}

bool cordon_selection_type_is_files(const char *mime_type) {
	return mime_type && same_type(mime_type, "text/uri-list");
}

bool cordon_selection_type_allowed(
	const struct cordon_selection_rules *rules, const char *mime_type) {
	if (!mime_type || strlen(mime_type) > 255) {
		return false;
	}
	if (cordon_selection_type_is_files(mime_type)) {
		return rules->files_cross;
	}
	if (same_type(mime_type, "application/vnd.portal.filetransfer")) {
		return false;
	}
	for (size_t i = 0; i < rules->allowed_type_count; i++) {
		if (same_type(rules->allowed_types[i], mime_type)) {
			return true;
		}
	}
	return false;
}

enum cordon_selection_verdict cordon_selection_may_set(const struct cordon_selection_rules *rules,
	const struct cordon_tag *source, const struct cordon_selection_proof *proof) {
	if (!cordon_tag_is_unknown(source) && !source->sandboxed) {
		return CORDON_SELECTION_ALLOW;
	}
	/* wlroots accepts any serial it once sent (an enter, a configure): not consent. */
	if (!proof->has_keyboard_focus) {
		return CORDON_SELECTION_DENY_NO_FOCUS;
	}
	if (!proof->serial_is_input || proof->input_age_ms > rules->input_age_ms) {
		return CORDON_SELECTION_DENY_NO_INPUT;
	}
	return CORDON_SELECTION_ALLOW;
}

enum cordon_selection_verdict cordon_selection_may_drag(
	const struct cordon_tag *source, const struct cordon_selection_proof *proof) {
	if (!cordon_tag_is_unknown(source) && !source->sandboxed) {
		return CORDON_SELECTION_ALLOW;
	}
	/* wlroots 0.15 does not check drag serials: a held button's press is the proof. */
	if (!proof->button_down) {
		return CORDON_SELECTION_DENY_NO_BUTTON;
	}
	if (!proof->serial_is_press) {
		return CORDON_SELECTION_DENY_NO_INPUT;
	}
	if (!proof->has_pointer_focus) {
		return CORDON_SELECTION_DENY_NO_FOCUS;
	}
	return CORDON_SELECTION_ALLOW;
}

struct cordon_offer_decision cordon_selection_offer(const struct cordon_selection_rules *rules,
	enum cordon_selection_kind kind, const struct cordon_tag *source,
	const struct cordon_tag *destination, bool user_acted, bool pasted_across,
	size_t allowed_types) {
	struct cordon_offer_decision decision = {CORDON_OFFER_NONE, CORDON_OFFER_REASON_NO_ACTION};
	if (!cordon_selection_crosses(source, destination)) {
		decision.mode = CORDON_OFFER_DIRECT;
		decision.reason = CORDON_OFFER_REASON_SAME_SIDE;
		return decision;
	}
	if (kind == CORDON_SELECTION_PRIMARY && !rules->primary_crosses) {
		decision.reason = CORDON_OFFER_REASON_PRIMARY;
		return decision;
	}
	/* Explicit mode: the shortcut is the consent; a drag is consent enough by itself. */
	if (rules->explicit_paste && kind != CORDON_SELECTION_DRAG && !pasted_across) {
		decision.reason = CORDON_OFFER_REASON_EXPLICIT;
		return decision;
	}
	/*
	 * A drag's consent is the drag itself (a held button that the user moves
	 * over the destination); a selection's, for a sandboxed destination, is a
	 * press in it after it got focus, which a window mapped to steal focus
	 * never has. A host destination reads what the user copied in a sandbox.
	 */
	bool gated = cordon_tag_is_unknown(destination) || destination->sandboxed;
	if (kind != CORDON_SELECTION_DRAG && gated && !user_acted) {
		decision.reason = CORDON_OFFER_REASON_NO_ACTION;
		return decision;
	}
	if (allowed_types == 0) {
		decision.reason = CORDON_OFFER_REASON_NO_TYPES;
		return decision;
	}
	decision.mode = CORDON_OFFER_PROXIED;
	decision.reason = CORDON_OFFER_REASON_MEDIATED;
	return decision;
}

const char *cordon_selection_verdict_name(enum cordon_selection_verdict verdict) {
	switch (verdict) {
	case CORDON_SELECTION_ALLOW:
		return "allow";
	case CORDON_SELECTION_DENY_NO_INPUT:
		return "deny-no-input";
	case CORDON_SELECTION_DENY_NO_FOCUS:
		return "deny-no-focus";
	case CORDON_SELECTION_DENY_NO_BUTTON:
		return "deny-no-button";
	}
	return "?";
}

const char *cordon_offer_reason_name(enum cordon_offer_reason reason) {
	switch (reason) {
	case CORDON_OFFER_REASON_SAME_SIDE:
		return "same-side";
	case CORDON_OFFER_REASON_MEDIATED:
		return "mediated";
	case CORDON_OFFER_REASON_NO_ACTION:
		return "no-user-action";
	case CORDON_OFFER_REASON_PRIMARY:
		return "primary-does-not-cross";
	case CORDON_OFFER_REASON_EXPLICIT:
		return "explicit-mode";
	case CORDON_OFFER_REASON_NO_TYPES:
		return "no-allowed-types";
	}
	return "?";
}

const char *cordon_offer_mode_name(enum cordon_offer_mode mode) {
	switch (mode) {
	case CORDON_OFFER_NONE:
		return "none";
	case CORDON_OFFER_DIRECT:
		return "direct";
	case CORDON_OFFER_PROXIED:
		return "proxied";
	}
	return "?";
}

const char *cordon_selection_kind_name(enum cordon_selection_kind kind) {
	switch (kind) {
	case CORDON_SELECTION_CLIPBOARD:
		return "clipboard";
	case CORDON_SELECTION_PRIMARY:
		return "primary";
	case CORDON_SELECTION_DRAG:
		return "drag";
	}
	return "?";
}
