/* fcft for the built-in dialogs' text: loaded with the first font, unloaded with the last. */
#ifndef CORDON_PORTALS_FONT_LIBRARY_H
#define CORDON_PORTALS_FONT_LIBRARY_H

#include <fcft/fcft.h>

/* Every fcft function cordon calls, by its own name and with its header's type. */
struct cordon_font_library {
	__typeof__(fcft_init) *fcft_init;
	__typeof__(fcft_fini) *fcft_fini;
	__typeof__(fcft_from_name) *fcft_from_name;
	__typeof__(fcft_destroy) *fcft_destroy;
	__typeof__(fcft_rasterize_char_utf32) *fcft_rasterize_char_utf32;
};

/*
 * fcft, loaded and initialised (fcft_init) by the first reference. NULL, after logging
 * why, when libfcft cannot be loaded: the caller goes on as without its font.
 */
const struct cordon_font_library *cordon_font_library_ref(void);
/* The last reference ends fcft's state (fcft_fini) and unloads libfcft. */
void cordon_font_library_unref(void);

#endif
