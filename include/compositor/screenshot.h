/* Renders an output's scene into a PNG file, for cordonctl screenshot. */
#ifndef CORDON_COMPOSITOR_SCREENSHOT_H
#define CORDON_COMPOSITOR_SCREENSHOT_H

#include <stdbool.h>

struct cordon_output;

/* Writes the output's current contents to path; false with *error set. */
/* WITH_CURSOR: the software cursor is drawn too, as on screen. */
bool cordon_screenshot_output(struct cordon_output *output, const char *path, bool with_cursor,
	int *width, int *height, char **error);

#endif
