#include <stdlib.h>

#include "common/format.h"
#include "common/xdg.h"

char *cordon_user_config_path(const char *name) {
	const char *xdg = getenv("XDG_CONFIG_HOME");
	if (xdg != NULL && xdg[0] == '/') {
		return cordon_format("%s/cordon/%s", xdg, name);
	}
	const char *home = getenv("HOME");
	if (home != NULL && home[0] != '\0') {
		return cordon_format("%s/.config/cordon/%s", home, name);
	}
	return NULL;
}

char *cordon_user_state_path(const char *name) {
	const char *xdg = getenv("XDG_STATE_HOME");
	if (xdg != NULL && xdg[0] == '/') {
		return cordon_format("%s/cordon/%s", xdg, name);
	}
	const char *home = getenv("HOME");
	if (home != NULL && home[0] != '\0') {
		return cordon_format("%s/.local/state/cordon/%s", home, name);
	}
	return NULL;
}

char *cordon_user_data_path(const char *name) {
	const char *xdg = getenv("XDG_DATA_HOME");
	if (xdg != NULL && xdg[0] == '/') {
		return cordon_format("%s/cordon/%s", xdg, name);
	}
	const char *home = getenv("HOME");
	if (home != NULL && home[0] != '\0') {
		return cordon_format("%s/.local/share/cordon/%s", home, name);
	}
	return NULL;
}
