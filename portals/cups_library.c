/*
 * libcups, loaded when the first print request needs it rather than linked: its
 * dependencies (Kerberos, GnuTLS, Avahi, p11-kit...) are 19 of the shared libraries
 * cordon would otherwise map and relocate at every start (docs/performance.md).
 */
#include "portals/cups_library.h"

#include "portals/lazy_library.h"

/* The soname of the ABI the headers describe (Debian's libcups2). */
#define SONAME "libcups.so.2"

static const struct cordon_lazy_symbol symbols[] = {
	CORDON_LAZY_SYMBOL(struct cordon_cups_library, cupsAddOption),
	CORDON_LAZY_SYMBOL(struct cordon_cups_library, cupsCancelJob2),
	CORDON_LAZY_SYMBOL(struct cordon_cups_library, cupsCopyDestInfo),
	CORDON_LAZY_SYMBOL(struct cordon_cups_library, cupsCreateJob),
	CORDON_LAZY_SYMBOL(struct cordon_cups_library, cupsDoRequest),
	CORDON_LAZY_SYMBOL(struct cordon_cups_library, cupsEncryption),
	CORDON_LAZY_SYMBOL(struct cordon_cups_library, cupsFindDestDefault),
	CORDON_LAZY_SYMBOL(struct cordon_cups_library, cupsFindDestSupported),
	CORDON_LAZY_SYMBOL(struct cordon_cups_library, cupsFinishDocument),
	CORDON_LAZY_SYMBOL(struct cordon_cups_library, cupsFreeDestInfo),
	CORDON_LAZY_SYMBOL(struct cordon_cups_library, cupsFreeDests),
	CORDON_LAZY_SYMBOL(struct cordon_cups_library, cupsFreeOptions),
	CORDON_LAZY_SYMBOL(struct cordon_cups_library, cupsGetDests2),
	CORDON_LAZY_SYMBOL(struct cordon_cups_library, cupsGetOption),
	CORDON_LAZY_SYMBOL(struct cordon_cups_library, cupsLastError),
	CORDON_LAZY_SYMBOL(struct cordon_cups_library, cupsLastErrorString),
	CORDON_LAZY_SYMBOL(struct cordon_cups_library, cupsServer),
	CORDON_LAZY_SYMBOL(struct cordon_cups_library, cupsStartDocument),
	CORDON_LAZY_SYMBOL(struct cordon_cups_library, cupsUser),
	CORDON_LAZY_SYMBOL(struct cordon_cups_library, cupsWriteRequestData),
	CORDON_LAZY_SYMBOL(struct cordon_cups_library, httpAssembleURIf),
	CORDON_LAZY_SYMBOL(struct cordon_cups_library, httpClose),
	CORDON_LAZY_SYMBOL(struct cordon_cups_library, httpConnect2),
	CORDON_LAZY_SYMBOL(struct cordon_cups_library, ippAddString),
	CORDON_LAZY_SYMBOL(struct cordon_cups_library, ippDelete),
	CORDON_LAZY_SYMBOL(struct cordon_cups_library, ippFindAttribute),
	CORDON_LAZY_SYMBOL(struct cordon_cups_library, ippGetCount),
	CORDON_LAZY_SYMBOL(struct cordon_cups_library, ippGetInteger),
	CORDON_LAZY_SYMBOL(struct cordon_cups_library, ippGetRange),
	CORDON_LAZY_SYMBOL(struct cordon_cups_library, ippGetString),
	CORDON_LAZY_SYMBOL(struct cordon_cups_library, ippGetValueTag),
	CORDON_LAZY_SYMBOL(struct cordon_cups_library, ippNewRequest),
	CORDON_LAZY_SYMBOL(struct cordon_cups_library, ippPort),
};

static const struct cordon_lazy_library library = {
	.soname = SONAME,
	.symbols = symbols,
	.symbol_count = sizeof(symbols) / sizeof(symbols[0]),
	/*
	 * libcups keeps memory for the life of the process in its globals (its string
	 * pool, GnuTLS's and Kerberos' state behind it) and has no call that frees it:
	 * unmapped at destroy, all of it showed up under LeakSanitizer as leaked.
	 */
	.keep_mapped = true,
};

bool cordon_cups_library_load(struct cordon_cups_library *cups, char *error, size_t error_size) {
	if (!cups->handle) {
		cups->handle = cordon_lazy_library_open(&library, cups, error, error_size);
	}
	return cups->handle != NULL;
}

void cordon_cups_library_unload(struct cordon_cups_library *cups) {
	cordon_lazy_library_close(&cups->handle);
}
