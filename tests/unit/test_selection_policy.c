/* Unit tests for the mediation policy: a table of tags, events and the decision each must get. */
#include <stdio.h>
#include <string.h>

#include "common/policy.h"
#include "compositor/selection_policy.h"

static const struct cordon_tag host = {
	.engine = CORDON_SANDBOX_HOST, .app_id = "", .instance = "", .sandboxed = false};
static const struct cordon_tag host_app = {.engine = CORDON_SANDBOX_SYSTEMD_APP,
	.app_id = "org.gnome.Terminal",
	.instance = "",
	.sandboxed = false};
static const struct cordon_tag app_a1 = {.engine = CORDON_SANDBOX_FLATPAK,
	.app_id = "org.example.A",
	.instance = "1",
	.sandboxed = true};
static const struct cordon_tag app_a1_again = {.engine = CORDON_SANDBOX_FLATPAK,
	.app_id = "org.example.A",
	.instance = "1",
	.sandboxed = true};
static const struct cordon_tag app_a2 = {.engine = CORDON_SANDBOX_FLATPAK,
	.app_id = "org.example.A",
	.instance = "2",
	.sandboxed = true};
static const struct cordon_tag app_b1 = {.engine = CORDON_SANDBOX_FLATPAK,
	.app_id = "org.example.B",
	.instance = "1",
	.sandboxed = true};
/* The same app id from another engine is another app. */
static const struct cordon_tag snap_a1 = {.engine = CORDON_SANDBOX_SNAP,
	.app_id = "org.example.A",
	.instance = "1",
	.sandboxed = true};
/* Engines cordon has no name for (security contexts) are told apart by the name they gave. */
static const struct cordon_tag other_a1 = {.engine = CORDON_SANDBOX_OTHER,
	.app_id = "org.example.A",
	.instance = "1",
	.sandboxed = true,
	.engine_name = "org.example.Box"};
static const struct cordon_tag other2_a1 = {.engine = CORDON_SANDBOX_OTHER,
	.app_id = "org.example.A",
	.instance = "1",
	.sandboxed = true,
	.engine_name = "org.example.Jail"};
#define UNKNOWN NULL

enum {
	CLIP = CORDON_SELECTION_CLIPBOARD,
	PRIM = CORDON_SELECTION_PRIMARY,
	DRAG = CORDON_SELECTION_DRAG
};
enum { NONE = CORDON_OFFER_NONE, DIRECT = CORDON_OFFER_DIRECT, PROXIED = CORDON_OFFER_PROXIED };

struct offer_row {
	const char *what;
	int kind;
	const struct cordon_tag *source, *destination;
	bool user_acted;
	size_t allowed_types;
	bool primary_crosses, explicit_paste;
	int mode;
	enum cordon_offer_reason reason;
	bool pasted_across;
};

// clang-format off
static const struct offer_row offer_rows[] = {
	{"host to host", CLIP, &host, &host_app, false, 3, false, false, DIRECT, CORDON_OFFER_REASON_SAME_SIDE, false},
	{"same app instance", CLIP, &app_a1, &app_a1_again, false, 0, false, false, DIRECT, CORDON_OFFER_REASON_SAME_SIDE, false},
	{"same app, other instance", CLIP, &app_a1, &app_a2, true, 1, false, false, PROXIED, CORDON_OFFER_REASON_MEDIATED, false},
	{"same app id, other engine", CLIP, &app_a1, &snap_a1, false, 1, false, false, NONE, CORDON_OFFER_REASON_NO_ACTION, false},
	{"same app id and instance, other named engine", CLIP, &other_a1, &other2_a1, false, 1, false, false, NONE, CORDON_OFFER_REASON_NO_ACTION, false},
	{"host to sandbox on focus alone", CLIP, &host, &app_a1, false, 2, false, false, NONE, CORDON_OFFER_REASON_NO_ACTION, false},
	{"host to sandbox after a press", CLIP, &host, &app_a1, true, 2, false, false, PROXIED, CORDON_OFFER_REASON_MEDIATED, false},
	{"sandbox to host, no press needed", CLIP, &app_a1, &host, false, 1, false, false, PROXIED, CORDON_OFFER_REASON_MEDIATED, false},
	{"sandbox to sandbox on focus alone", CLIP, &app_a1, &app_b1, false, 1, false, false, NONE, CORDON_OFFER_REASON_NO_ACTION, false},
	{"sandbox to sandbox after a press", CLIP, &app_a1, &app_b1, true, 1, false, false, PROXIED, CORDON_OFFER_REASON_MEDIATED, false},
	{"nothing allowed to offer", CLIP, &host, &app_a1, true, 0, false, false, NONE, CORDON_OFFER_REASON_NO_TYPES, false},
	{"unknown source to host", CLIP, UNKNOWN, &host, false, 1, false, false, PROXIED, CORDON_OFFER_REASON_MEDIATED, false},
	{"host to unknown: gated", CLIP, &host, UNKNOWN, false, 1, false, false, NONE, CORDON_OFFER_REASON_NO_ACTION, false},
	{"unknown to unknown is not the same app", CLIP, UNKNOWN, UNKNOWN, true, 1, false, false, PROXIED, CORDON_OFFER_REASON_MEDIATED, false},
	{"primary does not cross", PRIM, &host, &app_a1, true, 1, false, false, NONE, CORDON_OFFER_REASON_PRIMARY, false},
	{"primary does not cross to host either", PRIM, &app_a1, &host, true, 1, false, false, NONE, CORDON_OFFER_REASON_PRIMARY, false},
	{"primary within the host", PRIM, &host, &host_app, false, 1, false, false, DIRECT, CORDON_OFFER_REASON_SAME_SIDE, false},
	{"primary within one app", PRIM, &app_a1, &app_a1_again, false, 1, false, false, DIRECT, CORDON_OFFER_REASON_SAME_SIDE, false},
	{"primary crossing when allowed, gated", PRIM, &host, &app_a1, false, 1, true, false, NONE, CORDON_OFFER_REASON_NO_ACTION, false},
	{"primary crossing when allowed", PRIM, &host, &app_a1, true, 1, true, false, PROXIED, CORDON_OFFER_REASON_MEDIATED, false},
	{"explicit mode: no implicit paste", CLIP, &host, &app_a1, true, 1, false, true, NONE, CORDON_OFFER_REASON_EXPLICIT, false},
	{"explicit mode after the shortcut", CLIP, &host, &app_a1, true, 1, false, true, PROXIED, CORDON_OFFER_REASON_MEDIATED, true},
	{"explicit mode: the shortcut does not lift the type filter", CLIP, &host, &app_a1, true, 0, false, true, NONE, CORDON_OFFER_REASON_NO_TYPES, true},
	{"explicit mode: primary still does not cross", PRIM, &host, &app_a1, true, 1, false, true, NONE, CORDON_OFFER_REASON_PRIMARY, true},
	{"explicit mode leaves same-app alone", CLIP, &app_a1, &app_a1_again, false, 1, false, true, DIRECT, CORDON_OFFER_REASON_SAME_SIDE, false},
	{"drag needs no press in the target", DRAG, &host, &app_a1, false, 1, false, false, PROXIED, CORDON_OFFER_REASON_MEDIATED, false},
	{"drag with nothing allowed", DRAG, &app_a1, &host, false, 0, false, false, NONE, CORDON_OFFER_REASON_NO_TYPES, false},
};
// clang-format on

struct set_row {
	const char *what;
	const struct cordon_tag *source;
	struct cordon_selection_proof proof;
	enum cordon_selection_verdict verdict;
};

// clang-format off
static const struct set_row set_rows[] = {
	{"host, no proof needed", &host, {0}, CORDON_SELECTION_ALLOW},
	{"sandbox with a fresh key serial", &app_a1, {.serial_is_input = true, .input_age_ms = 20, .has_keyboard_focus = true}, CORDON_SELECTION_ALLOW},
	{"sandbox with an enter serial", &app_a1, {.serial_is_input = false, .has_keyboard_focus = true}, CORDON_SELECTION_DENY_NO_INPUT},
	{"sandbox with a stale key serial", &app_a1, {.serial_is_input = true, .input_age_ms = 60000, .has_keyboard_focus = true}, CORDON_SELECTION_DENY_NO_INPUT},
	{"sandbox without focus", &app_a1, {.serial_is_input = true, .input_age_ms = 20}, CORDON_SELECTION_DENY_NO_FOCUS},
	{"unknown sandbox is a sandbox", UNKNOWN, {.has_keyboard_focus = true}, CORDON_SELECTION_DENY_NO_INPUT},
};

static const struct set_row drag_rows[] = {
	{"host drag", &host, {0}, CORDON_SELECTION_ALLOW},
	{"sandbox drag from its press", &app_a1, {.button_down = true, .serial_is_press = true, .has_pointer_focus = true}, CORDON_SELECTION_ALLOW},
	{"sandbox drag with no button down", &app_a1, {.serial_is_press = true, .has_pointer_focus = true}, CORDON_SELECTION_DENY_NO_BUTTON},
	{"sandbox drag with another serial", &app_a1, {.button_down = true, .has_pointer_focus = true}, CORDON_SELECTION_DENY_NO_INPUT},
	{"sandbox drag off its surface", &app_a1, {.button_down = true, .serial_is_press = true}, CORDON_SELECTION_DENY_NO_FOCUS},
	{"unknown drag with no button", UNKNOWN, {.serial_is_press = true}, CORDON_SELECTION_DENY_NO_BUTTON},
};
// clang-format on

struct type_row {
	const char *type;
	bool allowed;
};

static const struct type_row type_rows[] = {
	{"text/plain", true},
	{"text/plain;charset=utf-8", true},
	{"text/plain; charset=UTF-8", true},
	{"TEXT/PLAIN;CHARSET=utf-8", true},
	{"UTF8_STRING", true},
	{"STRING", true},
	{"TEXT", true},
	{"image/png", true},
	{"image/jpeg", true},
	{"text/html", false},
	{"text/uri-list", false},
	{"application/vnd.portal.filetransfer", false},
	{"application/x-secret", false},
	{"text/plain;charset=utf-16", false},
	{"text/plainx", false},
	{"image/png;evil", false},
	{"", false},
};

static const char policy_text[] = "[app org.example.A]\n"
				  "clipboard-types = text/plain, image/png\n"
				  "clipboard-size-limit = 1K\n"
				  "clipboard-primary = true\n"
				  "[app org.example.B]\n"
				  "clipboard-explicit = yes\n"
				  "[app org.example.C]\n"
				  "clipboard-files = false\n"
				  "clipboard-types = text/plain, text/uri-list\n";

static int expect(bool ok, const char *what) {
	if (!ok) {
		printf("FAIL app rules: %s\n", what);
	}
	return !ok;
}

/* Per-app keys from policy.ini, and how the two sides of a transfer combine. */
static int check_app_rules(void) {
	char *error = NULL;
	struct cordon_policy *policy = cordon_policy_load_string(policy_text, "test", &error);
	if (!policy) {
		printf("FAIL: policy: %s\n", error ? error : "?");
		return 1;
	}
	int failures = 0;
	struct cordon_selection_rules rules;
	cordon_selection_rules_between(&rules, policy, &app_a1, &host);
	failures += expect(rules.size_limit == 1024, "A's size limit applies from and to the host");
	failures += expect(rules.primary_crosses, "A lets the primary selection cross");
	failures += expect(cordon_selection_type_allowed(&rules, "text/plain") &&
			cordon_selection_type_allowed(&rules, "image/png") &&
			!cordon_selection_type_allowed(&rules, "UTF8_STRING"),
		"A's own type list");
	cordon_selection_rules_between(&rules, policy, &host, &app_b1);
	failures += expect(rules.explicit_paste, "B is in explicit mode");
	failures += expect(rules.size_limit == CORDON_SELECTION_DEFAULT_SIZE_LIMIT,
		"B keeps the default limit");
	cordon_selection_rules_between(&rules, policy, &app_a1, &app_b1);
	failures +=
		expect(rules.size_limit == 1024 && rules.explicit_paste && !rules.primary_crosses,
			"A to B: the stricter of both");
	failures += expect(cordon_selection_type_allowed(&rules, "text/plain") &&
			!cordon_selection_type_allowed(&rules, "image/gif"),
		"A to B: types both allow");
	cordon_selection_rules_between(&rules, policy, &host, &host_app);
	failures += expect(
		rules.size_limit == CORDON_SELECTION_DEFAULT_SIZE_LIMIT && !rules.explicit_paste,
		"host to host: the defaults");
	cordon_selection_rules_between(&rules, policy, UNKNOWN, &host);
	failures += expect(!rules.primary_crosses && cordon_selection_type_allowed(&rules, "TEXT"),
		"an unknown sandbox has the default profile's rules");
	cordon_policy_destroy(policy);
	return failures;
}

static const struct cordon_tag app_c1 = {.engine = CORDON_SANDBOX_CORDON,
	.app_id = "org.example.C",
	.instance = "1",
	.sandboxed = true};

/* Files cross as grants only between the host and one known app that allows them. */
static int check_file_rules(void) {
	char *error = NULL;
	struct cordon_policy *policy = cordon_policy_load_string(policy_text, "test", &error);
	if (!policy) {
		printf("FAIL: policy: %s\n", error ? error : "?");
		return 1;
	}
	int failures = 0;
	struct cordon_selection_rules rules;
	cordon_selection_rules_between(&rules, policy, &host, &app_a1);
	failures += expect(rules.files_cross &&
			cordon_selection_type_allowed(&rules, "text/uri-list") &&
			cordon_selection_type_allowed(&rules, "TEXT/URI-LIST"),
		"host to an app: files cross");
	failures += expect(
		!cordon_selection_type_allowed(&rules, "application/vnd.portal.filetransfer"),
		"the FileTransfer key never crosses");
	cordon_selection_rules_between(&rules, policy, &app_b1, &host_app);
	failures += expect(rules.files_cross, "an app to the host: files cross back");
	cordon_selection_rules_between(&rules, policy, &app_a1, &app_b1);
	failures += expect(!rules.files_cross, "between two apps: no files");
	cordon_selection_rules_between(&rules, policy, &app_a1, &app_a2);
	failures += expect(!rules.files_cross, "between two instances: no files");
	cordon_selection_rules_between(&rules, policy, UNKNOWN, &host);
	failures += expect(!rules.files_cross, "an unknown sandbox: no app to grant to");
	cordon_selection_rules_between(&rules, policy, &host, UNKNOWN);
	failures += expect(!rules.files_cross, "to an unknown sandbox: no files");
	cordon_selection_rules_between(&rules, policy, &host, &app_c1);
	failures += expect(
		!rules.files_cross && !cordon_selection_type_allowed(&rules, "text/uri-list"),
		"clipboard-files = false, even with text/uri-list in clipboard-types");
	failures += expect(cordon_selection_type_is_files("text/uri-list") &&
			cordon_selection_type_is_files("Text/URI-List") &&
			!cordon_selection_type_is_files("text/uri-list2") &&
			!cordon_selection_type_is_files("text/plain"),
		"the file type's spellings");
	cordon_policy_destroy(policy);
	return failures;
}

int main(void) {
	int failures = 0;
	struct cordon_selection_rules defaults;
	cordon_selection_rules_init(&defaults);
	if (defaults.size_limit != 64u * 1024 * 1024 || defaults.primary_crosses ||
		defaults.explicit_paste) {
		printf("FAIL: defaults are not 64 MiB, no primary, no explicit mode\n");
		failures++;
	}
	for (size_t i = 0; i < sizeof(offer_rows) / sizeof(offer_rows[0]); i++) {
		const struct offer_row *row = &offer_rows[i];
		struct cordon_selection_rules rules = defaults;
		rules.primary_crosses = row->primary_crosses;
		rules.explicit_paste = row->explicit_paste;
		struct cordon_offer_decision got =
			cordon_selection_offer(&rules, row->kind, row->source, row->destination,
				row->user_acted, row->pasted_across, row->allowed_types);
		if ((int)got.mode != row->mode || got.reason != row->reason) {
			printf("FAIL offer: %s: got mode %d (%s), want %d (%s)\n", row->what,
				got.mode, cordon_offer_reason_name(got.reason), row->mode,
				cordon_offer_reason_name(row->reason));
			failures++;
		}
	}
	for (size_t i = 0; i < sizeof(set_rows) / sizeof(set_rows[0]); i++) {
		const struct set_row *row = &set_rows[i];
		enum cordon_selection_verdict got =
			cordon_selection_may_set(&defaults, row->source, &row->proof);
		if (got != row->verdict) {
			printf("FAIL set: %s: got %s, want %s\n", row->what,
				cordon_selection_verdict_name(got),
				cordon_selection_verdict_name(row->verdict));
			failures++;
		}
	}
	for (size_t i = 0; i < sizeof(drag_rows) / sizeof(drag_rows[0]); i++) {
		const struct set_row *row = &drag_rows[i];
		enum cordon_selection_verdict got =
			cordon_selection_may_drag(row->source, &row->proof);
		if (got != row->verdict) {
			printf("FAIL drag: %s: got %s, want %s\n", row->what,
				cordon_selection_verdict_name(got),
				cordon_selection_verdict_name(row->verdict));
			failures++;
		}
	}
	/* The file type follows files_cross (check_file_rules), off here as without a portal. */
	struct cordon_selection_rules no_files = defaults;
	no_files.files_cross = false;
	for (size_t i = 0; i < sizeof(type_rows) / sizeof(type_rows[0]); i++) {
		const struct type_row *row = &type_rows[i];
		if (cordon_selection_type_allowed(&no_files, row->type) != row->allowed) {
			printf("FAIL type: \"%s\" should be %s\n", row->type,
				row->allowed ? "allowed" : "denied");
			failures++;
		}
	}
	/* Symmetry: crossing never depends on the direction. */
	const struct cordon_tag *tags[] = {&host, &host_app, &app_a1, &app_a1_again, &app_a2,
		&app_b1, &snap_a1, &other_a1, &other2_a1, UNKNOWN};
	size_t count = sizeof(tags) / sizeof(tags[0]);
	for (size_t i = 0; i < count; i++) {
		for (size_t j = 0; j < count; j++) {
			if (cordon_selection_crosses(tags[i], tags[j]) !=
				cordon_selection_crosses(tags[j], tags[i])) {
				printf("FAIL: crossing between tags %zu and %zu depends on direction\n",
					i, j);
				failures++;
			}
		}
	}
	failures += check_app_rules();
	failures += check_file_rules();
	if (failures) {
		printf("%d failures\n", failures);
		return 1;
	}
	printf("selection policy: %zu offer, %zu set, %zu drag, %zu type rows pass\n",
		sizeof(offer_rows) / sizeof(offer_rows[0]), sizeof(set_rows) / sizeof(set_rows[0]),
		sizeof(drag_rows) / sizeof(drag_rows[0]), sizeof(type_rows) / sizeof(type_rows[0]));
	return 0;
}
