/*
 * Unit tests for the app id's grammar (common/app_id.c), and the round trip that made it one
 * rule: every id valid here (up to cordon-run's length) is read back from the scope cordon-run
 * names after it, with the same id, and every id refused here is never read back as that id.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "common/app_id.h"
#include "sandbox/cgroup_tag.h"

#define L64 "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl"

struct row {
	const char *id;
	bool valid;
};

static const struct row rows[] = {
	{"org.example.App", true},
	{"x", true},
	{"X_1", true},
	{"a-b", true},
	{"a-", true},
	{"a_", true},
	{"_a", true},
	{"0day", true},
	{"org.gnome.Weather-2", true},
	{L64 L64 L64 "abcdefgh", true}, /* 200 bytes, cordon-run's longest */
	{L64 L64 L64 "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijk", true},
	{"", false},
	{"x.", false}, /* the one cordon-run took and the parser refused */
	{"org.example.", false},
	{".x", false},
	{"-x", false},
	{"a..b", false},
	{".", false},
	{"..", false},
	{"a/b", false},
	{"a b", false},
	{"a\\x2db", false},
	{"a\nb", false},
	{"a@b", false},
	{"é", false},
	{L64 L64 L64 L64, false}, /* 256 bytes */
};

/* What cordon reads back from the scope cordon-run makes for id. */
static bool round_trips(const char *id) {
	char path[512];
	snprintf(path, sizeof(path), "/user.slice/app-cordon-%s-0123456789abcdef.scope", id);
	struct cordon_tag tag;
	return cordon_tag_from_cgroup_path(path, &tag) && tag.engine == CORDON_SANDBOX_CORDON &&
		tag.sandboxed && strcmp(tag.app_id, id) == 0;
}

int main(void) {
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *row = &rows[i];
		if (cordon_app_id_valid(row->id) != row->valid) {
			fprintf(stderr, "row %zu '%s': valid %d, want %d (%s)\n", i, row->id,
				!row->valid, row->valid,
				row->valid ? cordon_app_id_problem(row->id) : "accepted");
			failures++;
		}
		/* Longer ids are valid tags (a flatpak's) but not cordon-run's to make. */
		if (strlen(row->id) > CORDON_APP_ID_SCOPE_MAX) {
			continue;
		}
		if (round_trips(row->id) != row->valid) {
			fprintf(stderr, "row %zu '%s': the cgroup parser %s it\n", i, row->id,
				row->valid ? "refuses" : "accepts");
			failures++;
		}
	}
	CHECK(cordon_app_id_problem("x.") != NULL);
	CHECK_STR(cordon_app_id_problem("x."), "ends with '.'");
	CHECK(cordon_app_id_problem("org.example.App") == NULL);
	return check_result();
}
