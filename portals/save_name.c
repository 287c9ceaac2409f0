/*
 * Save names that need the user's explicit word. A sandboxed app suggests the name
 * of a save; the dialog opens in $HOME with the keyboard. A name such as
 * .bash_profile, saved on a stray Return, is code the user's next shell runs: a
 * sandbox escape. These tables say which names and folders are run or trusted by
 * something outside the app, each with the reason the dialog shows.
 */
#include "portals/save_name.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct risky {
	const char *name;
	const char *reason;
};

/* File names run or read as commands at login or by a shell. */
static const struct risky risky_names[] = {
	{".bashrc", "bash runs it in every interactive shell"},
	{".bash_profile", "bash runs it at every login"},
	{".bash_login", "bash runs it at every login"},
	{".bash_logout", "bash runs it at every logout"},
	{".profile", "login shells run it at every login"},
	{".zshrc", "zsh runs it in every interactive shell"},
	{".zshenv", "zsh runs it in every shell"},
	{".zprofile", "zsh runs it at every login"},
	{".zlogin", "zsh runs it at every login"},
	{".zlogout", "zsh runs it at every logout"},
	{".cshrc", "csh runs it in every shell"},
	{".tcshrc", "tcsh runs it in every shell"},
	{".kshrc", "ksh runs it in every shell"},
	{".xinitrc", "startx runs it to start the session"},
	{".xsession", "the display manager runs it to start the session"},
	{".xsessionrc", "the X session runs it at login"},
	{".xprofile", "the display manager runs it at login"},
	{".Xresources", "the X session loads it at login"},
	{".pam_environment", "sets the environment of every login"},
	{".inputrc", "every readline program reads it (it can bind keys to commands)"},
	{".gitconfig", "git runs the commands it names"},
	{".vimrc", "vim runs it at every start"},
	{".emacs", "Emacs runs it at every start"},
	{".npmrc", "npm runs the scripts it names"},
	{".ssh", "ssh keys and who may log in live there"},
	{".config", "settings and start-up files of every program live there"},
	{".local", "programs and menu entries of yours live there"},
};

/* Folders of $HOME whose files are run or trusted; their subfolders too. */
static const struct risky risky_folders[] = {
	{".config/autostart", "programs in it start at every login"},
	{".config/systemd", "services in it start for you"},
	{".config/environment.d", "it sets the environment of every program"},
	{".ssh", "ssh keys and who may log in live there"},
	{".gnupg", "your keys live there"},
	{".local/bin", "programs in it are on your PATH"},
	{".local/share/applications", "its menu entries run commands"},
	{"bin", "programs in it are on your PATH"},
};

const char *cordon_save_name_risk(const char *name) {
	for (size_t i = 0; i < sizeof(risky_names) / sizeof(risky_names[0]); i++) {
		if (strcmp(name, risky_names[i].name) == 0) {
			return risky_names[i].reason;
		}
	}
	if (name[0] == '.') {
		return "it is a hidden file: the folder does not show it";
	}
	return NULL;
}

/* FOLDER relative to $HOME, or NULL when it is not inside it. */
static const char *home_relative(const char *folder) {
	const char *home = getenv("HOME");
	if (!home || home[0] != '/') {
		return NULL;
	}
	size_t len = strlen(home);
	while (len > 1 && home[len - 1] == '/') {
		len--;
	}
	if (strncmp(folder, home, len) != 0 || (folder[len] != '/' && folder[len] != '\0')) {
		return NULL;
	}
	return folder[len] == '/' ? folder + len + 1 : folder + len;
}

const char *cordon_save_folder_risk(const char *folder) {
	const char *rel = home_relative(folder);
	if (!rel) {
		return NULL;
	}
	for (size_t i = 0; i < sizeof(risky_folders) / sizeof(risky_folders[0]); i++) {
		size_t len = strlen(risky_folders[i].name);
		if (strncmp(rel, risky_folders[i].name, len) == 0 &&
			(rel[len] == '\0' || rel[len] == '/')) {
			return risky_folders[i].reason;
		}
	}
	/* Any hidden folder of $HOME: settings and start-up files of programs live there. */
	for (const char *c = rel; *c; c = strchr(c, '/') ? strchr(c, '/') + 1 : c + strlen(c)) {
		if (c[0] == '.') {
			return "it is a hidden folder, where programs keep settings and start-up "
			       "files";
		}
	}
	return NULL;
}

static bool is_free(int dir_fd, const char *name) {
	struct stat st;
	return fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 && !cordon_save_name_risk(name);
}

bool cordon_save_name_alternative(int dir_fd, const char *name, char *out, size_t size) {
	const char *base = name;
	while (base[0] == '.') {
		base++;
	}
	if (base[0] == '\0') {
		base = "file";
	}
	if (base == name && (size_t)snprintf(out, size, "%s", name) < size &&
		is_free(dir_fd, out)) {
		return true;
	}
	if ((size_t)snprintf(out, size, "%s", base) < size && is_free(dir_fd, out)) {
		return true;
	}
	/* "report.odt" -> "report (2).odt": the extension stays, so the file still opens. */
	const char *dot = strrchr(base, '.');
	int stem = dot && dot != base ? (int)(dot - base) : (int)strlen(base);
	const char *ext = dot && dot != base ? dot : "";
	for (int n = 2; n < 100; n++) {
		if ((size_t)snprintf(out, size, "%.*s (%d)%s", stem, base, n, ext) < size &&
			is_free(dir_fd, out)) {
			return true;
		}
	}
	return false;
}
