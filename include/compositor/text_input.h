/*
 * text-input-v3 and input-method-v2: the focused app's text field and the host's input
 * method (fcitx5, ibus, a virtual keyboard) talk through cordon, which alone knows which
 * window has the keyboard. Text inputs are offered to every client; the input method is
 * host-only (it sees every key typed while a text field is active).
 */
#ifndef CORDON_COMPOSITOR_TEXT_INPUT_H
#define CORDON_COMPOSITOR_TEXT_INPUT_H

#include <stdbool.h>
#include <wayland-server-core.h>

struct cordon_server;
struct cordon_keyboard;
struct wlr_keyboard_key_event;

struct cordon_text_input_relay;

struct cordon_text_input_relay *cordon_text_input_relay_create(struct cordon_server *server);
void cordon_text_input_relay_destroy(struct cordon_text_input_relay *relay);
/* The server's relay; NULL before the globals exist (every function below takes NULL). */
struct cordon_text_input_relay *cordon_text_input_relay_of(struct cordon_server *server);

/*
 * Whether the input method takes this keyboard's keys now: it holds a keyboard grab and the
 * focused app's text field is active. The app then gets the text the input method commits,
 * not the keys. Keys of the input method's own virtual keyboard (what it sends back) are
 * never taken.
 */
bool cordon_text_input_relay_takes_keys(
	struct cordon_text_input_relay *relay, struct cordon_keyboard *keyboard);
/* Sends a key to the grab; false when there is no grab any more (the key is dropped). */
bool cordon_text_input_relay_key(struct cordon_text_input_relay *relay,
	struct cordon_keyboard *keyboard, const struct wlr_keyboard_key_event *event);
/* The modifiers to the grab instead of the app, when it takes the keys. */
bool cordon_text_input_relay_modifiers(
	struct cordon_text_input_relay *relay, struct cordon_keyboard *keyboard);

#endif
