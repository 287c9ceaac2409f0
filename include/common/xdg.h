/* Where cordon's user files live, by the XDG base directory rules. */
#ifndef CORDON_COMMON_XDG_H
#define CORDON_COMMON_XDG_H

/*
 * $XDG_CONFIG_HOME/cordon/NAME, else ~/.config/cordon/NAME (a relative or empty
 * XDG_CONFIG_HOME is ignored, as the specification says). A malloc'ed path, or
 * NULL when there is no home directory or memory ran out.
 */
char *cordon_user_config_path(const char *name);
/* $XDG_STATE_HOME/cordon/NAME, else ~/.local/state/cordon/NAME (the portal permission store). */
char *cordon_user_state_path(const char *name);
/* $XDG_DATA_HOME/cordon/NAME, else ~/.local/share/cordon/NAME (camera providers). */
char *cordon_user_data_path(const char *name);

#endif
