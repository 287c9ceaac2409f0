/*
 * Loading a library on first use. Printing (libcups, with Kerberos, GnuTLS and Avahi
 * behind it) and the built-in dialogs' text (fcft, with fontconfig, FreeType and
 * HarfBuzz) are rare, but linked into cordon they made every start map and relocate
 * 27 more shared libraries (docs/performance.md). The functions are looked up
 * from a table of names, so a library without one of them fails to load with that
 * name in the message instead of failing at the first call.
 */
#include "portals/lazy_library.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

/* dlsym() gives a data pointer; POSIX guarantees a function pointer fits in it. */
_Static_assert(sizeof(void *) == sizeof(void (*)(void)),
	"a function pointer is stored from dlsym's void *");

/* Writes SYMBOL's address into TABLE; false with the reason in ERROR. */
static bool find_symbol(void *handle, const char *soname, const struct cordon_lazy_symbol *symbol,
	void *table, char *error, size_t error_size) {
	/* Cleared first: a NULL from dlsym is an error only when dlerror says so. */
	dlerror();
	void *address = dlsym(handle, symbol->name);
	const char *reason = dlerror();
	if (reason) {
		/* It names the file that was loaded and the symbol that file lacks. */
		snprintf(error, error_size, "%s", reason);
		return false;
	}
	if (!address) {
		snprintf(error, error_size, "%s: %s is NULL", soname, symbol->name);
		return false;
	}
	/* Copied as bytes: the field is a function pointer, not a void *. */
	memcpy((char *)table + symbol->offset, &address, sizeof(address));
	return true;
}

void *cordon_lazy_library_open(
	const struct cordon_lazy_library *library, void *table, char *error, size_t error_size) {
	void *handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);
	if (!handle) {
		snprintf(error, error_size, "%s", dlerror());
		return NULL;
	}
	for (size_t i = 0; i < library->symbol_count; i++) {
		if (!find_symbol(handle, library->soname, &library->symbols[i], table, error,
			    error_size)) {
			dlclose(handle);
			return NULL;
		}
	}
	if (library->keep_mapped) {
		/*
		 * Marked only now that it has everything: a library that lacks a function is
		 * unmapped again. RTLD_NOLOAD finds the loaded one and sets RTLD_NODELETE on it.
		 */
		void *kept = dlopen(
			library->soname, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE | RTLD_NOLOAD);
		if (kept) {
			dlclose(kept);
		}
	}
	return handle;
}

void cordon_lazy_library_close(void **handle) {
	if (*handle) {
		dlclose(*handle);
		*handle = NULL;
	}
}
