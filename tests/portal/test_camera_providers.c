/*
 * The camera provider registry and the photo check on their own: a good file,
 * the user's folder replacing the system's file of the same name, the Stream key,
 * malformed files refused with their line, mime type matching, and the PNG/JPEG
 * magic.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wlr/util/log.h>

#include "../unit/check.h"
#include "portals/camera_capture.h"
#include "portals/camera_providers.h"

static char root[256];

static void write_file(const char *dir, const char *name, const char *text) {
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *file = fopen(path, "w");
	CHECK(file != NULL);
	fputs(text, file);
	fclose(file);
}

static char *parse_error(const char *text) {
	write_file(root, "x.provider", text);
	char path[512];
	snprintf(path, sizeof(path), "%s/x.provider", root);
	struct cordon_camera_provider provider;
	char *error = NULL;
	if (cordon_camera_provider_parse_file(&provider, path, "x", &error)) {
		cordon_camera_provider_finish(&provider);
		return NULL;
	}
	/* Without the folder, for comparison. */
	char *colon = error ? strstr(error, "x.provider") : NULL;
	char *short_error = strdup(colon ? colon : "(none)");
	free(error);
	return short_error;
}

static void check_error(const char *text, const char *want) {
	char *error = parse_error(text);
	CHECK_STR(error, want);
	free(error);
}

int main(void) {
	wlr_log_init(WLR_SILENT, NULL);
	snprintf(root, sizeof(root), "/tmp/cordon-camera-test.XXXXXX");
	CHECK(mkdtemp(root) != NULL);
	char sys_dir[300], user[300];
	snprintf(sys_dir, sizeof(sys_dir), "%s/system", root);
	snprintf(user, sizeof(user), "%s/user", root);
	mkdir(sys_dir, 0700);
	mkdir(user, 0700);

	write_file(sys_dir, "pattern.provider",
		"# comment\n[Camera Provider]\nName = System pattern\n"
		"MimeTypes = image/png\nExec = /usr/bin/pattern --fast\nAppId = true\n");
	write_file(sys_dir, "cam.provider",
		"[Camera Provider]\nName = Cam\nIcon = camera-web\n"
		"MimeTypes = image/jpeg image/png\nExec = /usr/bin/cam\nDevice = video\nStream = true\n");
	write_file(user, "pattern.provider",
		"[Camera Provider]\nName = My pattern\n"
		"MimeTypes = image/png\nExec = /home/me/pattern\n");
	write_file(user, "broken.provider",
		"[Camera Provider]\nName = Broken\nMimeTypes = "
		"image/png\nExec = /bin/true\nExec = /bin/false\n");
	write_file(user, "ignored.txt", "not a provider");

	struct cordon_camera_providers providers;
	const char *dirs[] = {sys_dir, user};
	cordon_camera_providers_load(&providers, dirs, 2);
	CHECK(providers.count == 2);
	if (providers.count == 2) {
		struct cordon_camera_provider *cam = &providers.providers[0];
		struct cordon_camera_provider *pattern = &providers.providers[1];
		CHECK_STR(cam->id, "cam");
		CHECK_STR(cam->icon, "camera-web");
		CHECK(cam->needs_video && !cam->wants_app_id);
		CHECK(cam->can_stream);
		CHECK(cam->mime_type_count == 2);
		CHECK_STR(pattern->id, "pattern");
		/* The user's file, whole: nothing of the system's file of that name is left. */
		CHECK_STR(pattern->name, "My pattern");
		CHECK_STR(pattern->argv[0], "/home/me/pattern");
		CHECK(pattern->argc == 1 && pattern->argv[1] == NULL);
		CHECK(!pattern->wants_app_id);
		/* No Stream key: photos only. */
		CHECK(!pattern->can_stream);
		CHECK_STR(pattern->icon, "");
		const char *png_only[] = {"image/png"};
		const char *jpeg_first[] = {"image/webp", "image/jpeg"};
		CHECK_STR(cordon_camera_provider_match(cam, png_only, 1), "image/png");
		CHECK_STR(cordon_camera_provider_match(cam, jpeg_first, 2), "image/jpeg");
		CHECK(cordon_camera_provider_match(pattern, jpeg_first, 2) == NULL);
	}
	cordon_camera_providers_finish(&providers);

	check_error("Name = x\n", "x.provider:1: 'Name' comes before any [section]");
	check_error("[Desktop Entry]\n", "x.provider:1: expected one [Camera Provider] section");
	check_error("[Camera Provider]\nName = a\nMimeTypes = image/png\n",
		"x.provider: Exec is missing");
	check_error("[Camera Provider]\nName = a\nExec = /x\n", "x.provider: MimeTypes is missing");
	check_error("[Camera Provider]\nName = a\nMimeTypes = image/gif\nExec = /x\n",
		"x.provider:3: cordon checks only image/png and image/jpeg, not 'image/gif'");
	check_error("[Camera Provider]\nName = a\nMimeTypes = image/png\nExec = sh -c x\n",
		"x.provider:4: Exec must start with an absolute path");
	check_error("[Camera Provider]\nAppId = yes\n",
		"x.provider:2: AppId must be true or false, got 'yes'");
	check_error("[Camera Provider]\nDevice = /dev/sda\n",
		"x.provider:2: Device must be none or video, got '/dev/sda'");
	check_error("[Camera Provider]\nStream = maybe\n",
		"x.provider:2: Stream must be true or false, got 'maybe'");
	check_error("[Camera Provider]\nStream = false\nStream = true\n",
		"x.provider:3: Stream is set twice");
	check_error("[Camera Provider]\nName =\n", "x.provider:2: Name is empty");
	check_error("[Camera Provider]\nName = a\n[Camera Provider]\n",
		"x.provider:3: expected one [Camera Provider] section");
	check_error("[Camera Provider]\nColour = blue\n",
		"x.provider:2: unknown key 'Colour' (Name, Icon, MimeTypes, Exec, AppId, Device, "
		"Stream)");
	char *error = parse_error("[Camera Provider]\nName = ok\nMimeTypes = image/png\n"
				  "Exec = /bin/x\n");
	CHECK(error == NULL);
	free(error);

	/*
	 * Fuzz: a good file damaged at random (bytes flipped, cut, lines doubled) either
	 * parses or is refused with the file's name in the reason; never a crash (ASan).
	 */
	static const char good[] =
		"[Camera Provider]\nName = Test\nIcon = camera\n"
		"MimeTypes = image/png, image/jpeg\nExec = /usr/bin/x --a --b\nAppId = true\n"
		"Device = video\nStream = true\n";
	static const char insert[] = "\nExec = /bin/y  \n\n";
	srand(1);
	int parsed = 0, refused = 0;
	for (int round = 0; round < 1000; round++) {
		char text[sizeof(good) * 2];
		size_t len = sizeof(good) - 1;
		memcpy(text, good, len);
		int damage = 1 + rand() % 4;
		for (int d = 0; d < damage && len > 0; d++) {
			size_t at = (size_t)rand() % len;
			switch (rand() % 3) {
			case 0:
				text[at] = (char)(rand() % 256);
				break;
			case 1:
				len = at;
				break;
			default:
				if (len + sizeof(insert) < sizeof(text)) {
					memmove(text + at + sizeof(insert) - 1, text + at,
						len - at);
					memcpy(text + at, insert, sizeof(insert) - 1);
					len += sizeof(insert) - 1;
				}
				break;
			}
		}
		text[len] = '\0';
		if (strlen(text) != len) {
			len = strlen(text);
		}
		char *reason = parse_error(text);
		if (reason) {
			CHECK(strncmp(reason, "x.provider", 10) == 0);
			refused++;
		} else {
			parsed++;
		}
		free(reason);
	}
	CHECK(parsed > 0 && refused > 0);

	static const unsigned char png[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0};
	static const unsigned char jpeg[] = {0xff, 0xd8, 0xff, 0xe0, 0, 0xff, 0xd9};
	static const unsigned char cut_jpeg[] = {0xff, 0xd8, 0xff, 0xe0, 0, 0};
	CHECK(cordon_camera_check_magic(png, sizeof(png), "image/png"));
	CHECK(!cordon_camera_check_magic(png, 7, "image/png"));
	CHECK(!cordon_camera_check_magic(png, sizeof(png), "image/jpeg"));
	CHECK(cordon_camera_check_magic(jpeg, sizeof(jpeg), "image/jpeg"));
	CHECK(!cordon_camera_check_magic(cut_jpeg, sizeof(cut_jpeg), "image/jpeg"));
	CHECK(!cordon_camera_check_magic(jpeg, sizeof(jpeg), "image/png"));
	CHECK(!cordon_camera_check_magic(png, sizeof(png), "image/gif"));

	char command[600];
	snprintf(command, sizeof(command), "rm -rf '%s'", root);
	CHECK(system(command) == 0);
	return check_result();
}
