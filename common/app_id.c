/*
 * The app id's grammar. cordon-run names a cgroup scope after the id it is given, and cordon
 * reads the id back from that scope's name (cgroup_tag.c): an id one accepts and the other
 * refuses is an app that cordon tags as an unknown sandbox (it was "x.", which cordon-run
 * took and the parser refused). So both call this, and the unit test checks the round trip.
 */
#include "common/app_id.h"

#include <string.h>

static bool id_char(char c) {
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		c == '.' || c == '_' || c == '-';
}

const char *cordon_app_id_problem(const char *id) {
	size_t len = strlen(id);
	if (len == 0) {
		return "empty";
	}
	if (len > CORDON_APP_ID_MAX) {
		return "longer than 255 bytes";
	}
	if (id[0] == '.' || id[0] == '-') {
		return "begins with '.' or '-'";
	}
	if (id[len - 1] == '.') {
		return "ends with '.'";
	}
	for (size_t i = 0; i < len; i++) {
		if (!id_char(id[i])) {
			return "holds a character other than letters, digits, '.', '_' and '-'";
		}
		if (id[i] == '.' && id[i + 1] == '.') {
			return "holds an empty element ('..')";
		}
	}
	return NULL;
}
