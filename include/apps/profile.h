/* An installed app's permissions as its profile in policy.ini, in a block cordon-app manages. */
#ifndef CORDON_APPS_PROFILE_H
#define CORDON_APPS_PROFILE_H

#include <stdbool.h>

/*
 * Writes (or replaces) the block of app id: "[profile app-ID]" with lines ("key = value\n"...)
 * and "[app ID] profile = app-ID". The whole file is checked with the policy loader before it
 * replaces the old one: a result cordon would refuse to load is never written.
 */
bool cordon_profile_write(const char *id, const char *lines, char **error);
/* The block's permission lines as they are now (the user may have narrowed them); NULL if none. */
char *cordon_profile_read(const char *id);
bool cordon_profile_remove(const char *id, char **error);

#endif
