/*
 * The desktop entry and icon of an installed app (the Desktop Entry and Icon Theme
 * specifications): GIO, gtk-launch and every launcher read $XDG_DATA_HOME/applications and
 * the hicolor theme, so an app installed here shows up in each without their help.
 *
 * The entry is written by cordon-app from checked manifest fields: a bundle never supplies
 * Exec=, so it cannot start anything but cordon-run on its own image, and a name cannot
 * carry a newline that would start a key of its own.
 */
#include <errno.h>
#include <glob.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apps/desktop.h"
#include "apps/files.h"
#include "common/format.h"

__attribute__((format(printf, 1, 2))) static char *data_home_path(const char *fmt, ...) {
	const char *xdg = getenv("XDG_DATA_HOME");
	char *base = xdg != NULL && xdg[0] == '/' ? strdup(xdg) : NULL;
	if (base == NULL) {
		const char *home = getenv("HOME");
		if (home == NULL || home[0] == '\0') {
			return NULL;
		}
		base = cordon_format("%s/.local/share", home);
	}
	va_list args;
	va_start(args, fmt);
	char *rest = cordon_vformat(fmt, args);
	va_end(args);
	char *path = base != NULL && rest != NULL ? cordon_format("%s/%s", base, rest) : NULL;
	free(base);
	free(rest);
	return path;
}

char *cordon_desktop_entry_path(const char *id) {
	return data_home_path("applications/%s.desktop", id);
}

/*
 * One argument of Exec=: plain characters as they are, a path with spaces in double quotes;
 * anything that would need the specification's escaping ('"', '`', '$', '\\', '%') is refused.
 */
static char *exec_arg(const char *arg) {
	bool space = false;
	for (const char *p = arg; *p != '\0'; p++) {
		bool plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			(*p >= '0' && *p <= '9') || strchr("/._+,:@=-", *p) != NULL;
		if (*p == ' ') {
			space = true;
		} else if (!plain) {
			return NULL;
		}
	}
	return space ? cordon_format("\"%s\"", arg) : strdup(arg);
}

__attribute__((format(printf, 2, 3))) static char *append(char *text, const char *fmt, ...) {
	va_list args;
	va_start(args, fmt);
	char *more = text != NULL ? cordon_vformat(fmt, args) : NULL;
	va_end(args);
	char *joined = more != NULL ? cordon_format("%s%s", text, more) : NULL;
	free(text);
	free(more);
	return joined;
}

static char *exec_line(const struct cordon_manifest *m, const char *cordon_run, const char *image) {
	const char *fixed[] = {cordon_run, "--app-id", m->id, "--image", image, "--"};
	char *line = strdup("Exec=");
	for (size_t i = 0; line != NULL && i < sizeof(fixed) / sizeof(fixed[0]) + m->command_len;
		i++) {
		const char *word = i < 6 ? fixed[i] : m->command[i - 6];
		char *arg = exec_arg(word);
		if (arg == NULL) {
			free(line);
			return NULL;
		}
		line = append(line, i == 0 ? "%s" : " %s", arg);
		free(arg);
	}
	return append(line, "%s", "\n");
}

bool cordon_desktop_write(const struct cordon_manifest *m, const char *cordon_run,
	const char *image, bool has_icon, char **error) {
	char *path = cordon_desktop_entry_path(m->id);
	char *exec = exec_line(m, cordon_run, image);
	if (path == NULL || exec == NULL) {
		*error = exec == NULL
			? cordon_format("cannot write an Exec line for %s (a path with "
					"quotes, '$', '%%' or '\\' in it)",
				  image)
			: cordon_format("no home directory for applications/");
		free(path);
		free(exec);
		return false;
	}
	char *text = cordon_format("[Desktop Entry]\nType=Application\nName=%s\n", m->name);
	if (m->summary != NULL) {
		text = append(text, "Comment=%s\n", m->summary);
	}
	text = append(text, "%s", exec);
	if (has_icon) {
		text = append(text, "Icon=%s\n", m->id);
	}
	if (m->category_count > 0) {
		text = append(text, "%s", "Categories=");
		for (size_t i = 0; i < m->category_count; i++) {
			text = append(text, "%s;", m->categories[i]);
		}
		text = append(text, "%s", "\n");
	}
	text = append(text, "Terminal=false\nX-Cordon-App=%s\n", m->id);
	char *dir = data_home_path("%s", "applications");
	bool ok = text != NULL && dir != NULL && cordon_mkdirs(dir, 0755) &&
		cordon_write_atomic(path, text, strlen(text), 0644, error);
	if (!ok && *error == NULL) {
		*error = cordon_format("writing %s: %s", path, strerror(errno));
	}
	free(dir);
	free(text);
	free(exec);
	free(path);
	return ok;
}

static uint32_t be32(const unsigned char *p) {
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

bool cordon_icon_install(const char *id, const unsigned char *png, size_t len, char **error) {
	static const unsigned char magic[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
	if (len < 24 || memcmp(png, magic, 8) != 0 || be32(png + 8) != 13 ||
		memcmp(png + 12, "IHDR", 4) != 0) {
		*error = cordon_format("the icon is not a PNG image");
		return false;
	}
	uint32_t width = be32(png + 16), height = be32(png + 20);
	if (width != height || width < 16 || width > 1024) {
		*error = cordon_format("the icon is not square, 16 to 1024 pixels");
		return false;
	}
	char size[32];
	snprintf(size, sizeof(size), "%ux%u", width, height);
	char *dir = data_home_path("icons/hicolor/%s/apps", size);
	char *path = dir != NULL ? cordon_format("%s/%s.png", dir, id) : NULL;
	bool ok = path != NULL && cordon_mkdirs(dir, 0755) &&
		cordon_write_atomic(path, png, len, 0644, error);
	if (!ok && *error == NULL) {
		*error = cordon_format("installing the icon: %s", strerror(errno));
	}
	free(dir);
	free(path);
	return ok;
}

void cordon_desktop_remove(const char *id) {
	char *path = cordon_desktop_entry_path(id);
	if (path != NULL) {
		unlink(path);
	}
	free(path);
	char *pattern = data_home_path("icons/hicolor/*/apps/%s.png", id);
	glob_t found;
	if (pattern != NULL && glob(pattern, GLOB_NOSORT, NULL, &found) == 0) {
		for (size_t i = 0; i < found.gl_pathc; i++) {
			unlink(found.gl_pathv[i]);
		}
		globfree(&found);
	}
	free(pattern);
}
