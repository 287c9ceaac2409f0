/* Which file names a save must not write on Return alone: hidden and start-up files. */
#ifndef CORDON_PORTALS_SAVE_NAME_H
#define CORDON_PORTALS_SAVE_NAME_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Why NAME needs the user's explicit word before it is written (a shell or session
 * start-up file, or any hidden file), or NULL. Static text.
 */
const char *cordon_save_name_risk(const char *name);
/*
 * Why writing into FOLDER (an absolute path) needs the user's explicit word (a folder
 * whose files are run or trusted: autostart, ~/.ssh, PATH folders, any hidden folder of
 * $HOME), or NULL. Static text.
 */
const char *cordon_save_folder_risk(const char *folder);
/*
 * A name for NAME that nothing in DIR_FD has yet and that is not risky: NAME itself
 * when free and safe, else NAME without its leading dots, then "NAME (2).EXT" up to
 * (99). False when none is free or it does not fit in SIZE.
 */
bool cordon_save_name_alternative(int dir_fd, const char *name, char *out, size_t size);

#endif
