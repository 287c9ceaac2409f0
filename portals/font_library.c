/*
 * libfcft, loaded with the first font rather than linked: with fontconfig, FreeType,
 * HarfBuzz and theirs it is 8 shared libraries that every start of cordon mapped and
 * relocated for dialogs most sessions never show (docs/performance.md).
 *
 * fcft's state is the process's, and fcft_fini() ends it for every font: it runs when
 * the last font goes (the built-in UI's and the camera indicator's come and go apart,
 * each kept from its first use until cordon stops), and libfcft is unloaded with it.
 * A static, because what it counts is process state too: the loader's handle and
 * fcft's globals. Only the event loop loads fonts.
 */
#include "portals/font_library.h"

#include <stdbool.h>
#include <stddef.h>
#include <wlr/util/log.h>

#include "portals/lazy_library.h"

/* The soname of the ABI the header describes (Debian's libfcft4). */
#define SONAME "libfcft.so.4"

static const struct cordon_lazy_symbol symbols[] = {
	CORDON_LAZY_SYMBOL(struct cordon_font_library, fcft_init),
	CORDON_LAZY_SYMBOL(struct cordon_font_library, fcft_fini),
	CORDON_LAZY_SYMBOL(struct cordon_font_library, fcft_from_name),
	CORDON_LAZY_SYMBOL(struct cordon_font_library, fcft_destroy),
	CORDON_LAZY_SYMBOL(struct cordon_font_library, fcft_rasterize_char_utf32),
};

static const struct cordon_lazy_library library = {
	.soname = SONAME,
	.symbols = symbols,
	.symbol_count = sizeof(symbols) / sizeof(symbols[0]),
};

static struct {
	void *handle;
	size_t refs;
	struct cordon_font_library functions;
} fcft;

const struct cordon_font_library *cordon_font_library_ref(void) {
	if (fcft.refs > 0) {
		fcft.refs++;
		return &fcft.functions;
	}
	char error[384];
	fcft.handle = cordon_lazy_library_open(&library, &fcft.functions, error, sizeof(error));
	if (!fcft.handle) {
		wlr_log(WLR_ERROR, "Cannot load fcft, needed for the text of dialogs: %s", error);
		return NULL;
	}
	if (!fcft.functions.fcft_init(FCFT_LOG_COLORIZE_NEVER, false, FCFT_LOG_CLASS_ERROR)) {
		wlr_log(WLR_ERROR, "Cannot start fcft, needed for the text of dialogs");
		cordon_lazy_library_close(&fcft.handle);
		return NULL;
	}
	fcft.refs = 1;
	return &fcft.functions;
}

void cordon_font_library_unref(void) {
	if (fcft.refs == 0 || --fcft.refs > 0) {
		return;
	}
	fcft.functions.fcft_fini();
	cordon_lazy_library_close(&fcft.handle);
}
