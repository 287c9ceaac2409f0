/*
 * A window label's words and colour (compositor/label_style.c): from the tag and the
 * policy only. Host windows have none; an unknown sandbox is always the unknown colour;
 * the policy's label-color wins over the palette for the app, its profile and the default
 * profile; the palette never gives the unknown colour or the trusted frame's yellow; text
 * a tag could carry (controls, bidi overrides) is escaped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/policy.h"
#include "compositor/label_style.h"

static struct cordon_tag tag_of(
	enum cordon_sandbox_engine engine, const char *app_id, bool sandboxed) {
	struct cordon_tag tag = {.engine = engine, .sandboxed = sandboxed};
	snprintf(tag.app_id, sizeof(tag.app_id), "%s", app_id);
	snprintf(tag.instance, sizeof(tag.instance), "1");
	return tag;
}

static void test_host_and_unknown(void) {
	struct cordon_label_style style;
	struct cordon_tag host = tag_of(CORDON_SANDBOX_HOST, "", false);
	cordon_label_style_for_tag(NULL, &host, false, &style);
	CHECK(!style.shown);
	/* A systemd app unit is the host unless the policy marks it. */
	struct cordon_tag app = tag_of(CORDON_SANDBOX_SYSTEMD_APP, "org.a", false);
	cordon_label_style_for_tag(NULL, &app, false, &style);
	CHECK(!style.shown);
	cordon_label_style_for_tag(NULL, &cordon_tag_unknown, true, &style);
	CHECK(style.shown);
	CHECK(style.color == CORDON_LABEL_UNKNOWN_COLOR);
	CHECK_STR(style.text, "unknown sandbox");
	/* Fail closed: unknown is labelled even if a caller says it is not sandboxed. */
	cordon_label_style_for_tag(NULL, &cordon_tag_unknown, false, &style);
	CHECK(style.shown && style.color == CORDON_LABEL_UNKNOWN_COLOR);
}

static void test_palette(void) {
	struct cordon_label_style a, b, c;
	struct cordon_tag flatpak = tag_of(CORDON_SANDBOX_FLATPAK, "org.example.App", true);
	cordon_label_style_for_tag(NULL, &flatpak, true, &a);
	cordon_label_style_for_tag(NULL, &flatpak, true, &b);
	CHECK(a.shown);
	CHECK(a.color == b.color); /* stable */
	CHECK_STR(a.text, "org.example.App \xc2\xb7 flatpak");
	CHECK(a.text_color == 0x000000 || a.text_color == 0xffffff);
	/* The engine is part of the name: a snap of the same id is told apart in the text. */
	struct cordon_tag snap = tag_of(CORDON_SANDBOX_SNAP, "org.example.App", true);
	cordon_label_style_for_tag(NULL, &snap, true, &c);
	CHECK_STR(c.text, "org.example.App \xc2\xb7 snap");
	/* Many ids: never the unknown red nor the trusted frame's yellow or black. */
	for (int i = 0; i < 200; i++) {
		char id[32];
		snprintf(id, sizeof(id), "org.example.App%d", i);
		struct cordon_tag tag = tag_of(CORDON_SANDBOX_CORDON, id, true);
		cordon_label_style_for_tag(NULL, &tag, true, &a);
		CHECK(a.color != CORDON_LABEL_UNKNOWN_COLOR);
		CHECK(a.color != 0xf5c211 && a.color != 0x1a1a1a);
	}
}

static void test_policy(void) {
	char *error = NULL;
	struct cordon_policy *policy = cordon_policy_load_string("[profile game]\n"
								 "label-color = #112233\n"
								 "[app org.example.Chosen]\n"
								 "label-color = #3584E4\n"
								 "[app org.example.Game]\n"
								 "profile = game\n",
		"test", &error);
	CHECK(policy != NULL);
	if (!policy) {
		fprintf(stderr, "%s\n", error);
		free(error);
		return;
	}
	struct cordon_label_style style;
	struct cordon_tag chosen = tag_of(CORDON_SANDBOX_FLATPAK, "org.example.Chosen", true);
	cordon_label_style_for_tag(policy, &chosen, true, &style);
	CHECK(style.color == 0x3584e4);
	char name[8];
	cordon_label_color_name(style.color, name);
	CHECK_STR(name, "#3584e4");
	struct cordon_tag game = tag_of(CORDON_SANDBOX_FLATPAK, "org.example.Game", true);
	cordon_label_style_for_tag(policy, &game, true, &style);
	CHECK(style.color == 0x112233);
	CHECK(style.text_color == 0xffffff);
	/* The policy never labels a host app. */
	struct cordon_tag host = tag_of(CORDON_SANDBOX_HOST, "org.example.Chosen", false);
	cordon_label_style_for_tag(policy, &host, false, &style);
	CHECK(!style.shown);
	cordon_policy_destroy(policy);

	const char *bad[] = {"red", "#12345", "#1234567", "#12345g", "3584e4", ""};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char text[64];
		snprintf(text, sizeof(text), "[app a]\nlabel-color = %s\n", bad[i]);
		error = NULL;
		struct cordon_policy *refused = cordon_policy_load_string(text, "bad", &error);
		CHECK(refused == NULL);
		CHECK(error != NULL && strstr(error, "label-color") != NULL);
		cordon_policy_destroy(refused);
		free(error);
	}
}

static void test_escaping(void) {
	struct cordon_label_style style;
	/* An engine name or app id a security context gave: controls and bidi overrides. */
	struct cordon_tag tag =
		tag_of(CORDON_SANDBOX_OTHER, "org.evil\x1b]52;c;x\x07\xe2\x80\xae", true);
	snprintf(tag.engine_name, sizeof(tag.engine_name), "jail\n");
	cordon_label_style_for_tag(NULL, &tag, true, &style);
	CHECK(strchr(style.text, '\x1b') == NULL);
	CHECK(strchr(style.text, '\n') == NULL);
	CHECK(strstr(style.text, "\xe2\x80\xae") == NULL);
	CHECK(strstr(style.text, "org.evil") == style.text);
}

int main(void) {
	test_host_and_unknown();
	test_palette();
	test_policy();
	test_escaping();
	return check_result();
}
