/* Shared libraries that cordon loads on first use instead of linking: libcups, fcft. */
#ifndef CORDON_PORTALS_LAZY_LIBRARY_H
#define CORDON_PORTALS_LAZY_LIBRARY_H

#include <stdbool.h>
#include <stddef.h>

/* A function wanted from the library, and where its address goes in the caller's table. */
struct cordon_lazy_symbol {
	const char *name;
	size_t offset;
};

/*
 * The entry for FUNCTION in TABLE, a struct whose fields are the library's functions by
 * their own names, typed from the library's header (`__typeof__(f) *f;`): the compiler
 * checks every call, and the name looked up is the field's, so the two cannot differ.
 */
#define CORDON_LAZY_SYMBOL(table, function) {#function, offsetof(table, function)}

/* A library by its soname (the ABI its header describes) and the functions it must have. */
struct cordon_lazy_library {
	const char *soname;
	const struct cordon_lazy_symbol *symbols;
	size_t symbol_count;
	/*
	 * Opened with RTLD_NODELETE: dlclose() does not unmap it. For a library whose own
	 * globals hold memory to the end (caches, pools): unmapped, that memory would be
	 * reachable from nowhere, leaked, and reported so by LeakSanitizer.
	 */
	bool keep_mapped;
};

/*
 * dlopen()s LIBRARY (RTLD_NOW: every symbol is bound now, not at a first call on some
 * thread; RTLD_LOCAL: its symbols stay out of what cordon loads later, such as UI
 * plugins) and writes each symbol's address into TABLE. Returns the handle;
 * NULL with the reason in ERROR (the library or the symbol that is missing), and then
 * nothing stays loaded.
 */
void *cordon_lazy_library_open(
	const struct cordon_lazy_library *library, void *table, char *error, size_t error_size);
/* dlclose()s *HANDLE if set and clears it (the library stays mapped if keep_mapped). */
void cordon_lazy_library_close(void **handle);

#endif
