/*
 * The secure attention key (Logo+Escape unless configured): never an app's, never held
 * back by an inhibitor or a grab. It opens cordon's overlay, which says who really owns
 * the focused window, which portal requests wait, and which apps use the camera or
 * crossed the clipboard lately; Escape closes it.
 */
#ifndef CORDON_COMPOSITOR_ATTENTION_H
#define CORDON_COMPOSITOR_ATTENTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cordon_server;
struct cordon_keyboard;
struct cordon_portal_dialog_surface;

#define CORDON_ATTENTION_MAX_LINES 32
#define CORDON_ATTENTION_LINE_MAX 320

struct cordon_attention_line {
	char text[CORDON_ATTENTION_LINE_MAX]; /* printable: what a client said is escaped */
	bool has_swatch; /* a square of swatch_color before the text (a label's colour) */
	uint32_t swatch_color;
	bool heading;
};

struct cordon_attention {
	struct cordon_server *server;
	bool open;
	struct cordon_attention_line lines[CORDON_ATTENTION_MAX_LINES];
	size_t line_count;
	struct cordon_portal_dialog_surface *overlay;
};

struct cordon_attention *cordon_attention_create(struct cordon_server *server);
void cordon_attention_destroy(struct cordon_attention *attention);

/*
 * A key press of KEYBOARD, before anything else sees it: true when it is the attention
 * key, or any key while the overlay is open (Escape closes it). Such a key, and its
 * release, reach no client.
 */
bool cordon_attention_key(
	struct cordon_attention *attention, struct cordon_keyboard *keyboard, uint32_t keycode);
void cordon_attention_close(struct cordon_attention *attention);

#endif
