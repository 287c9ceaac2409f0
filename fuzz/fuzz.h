/*
 * What every fuzz target shares: the libFuzzer entry point each one defines, and the oracle.
 * A target calls cordon's own parser on the input and then checks what a caller relies on;
 * a broken rule aborts, so that libFuzzer (or the replay driver) keeps the input as a finding.
 */
#ifndef CORDON_FUZZ_FUZZ_H
#define CORDON_FUZZ_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An oracle rule: when ok is false, prints what broke and aborts. */
void fuzz_require(bool ok, const char *rule);

/* The input as a C string (up to its first NUL), malloc'ed; aborts when memory runs out. */
char *fuzz_string(const uint8_t *data, size_t size);

/* The input as a stream to read, NUL bytes and all (the path real files take); fclose it. */
FILE *fuzz_stream(const uint8_t *data, size_t size);

/*
 * Whether s is safe on a terminal: valid UTF-8 without C0 or C1 controls, DEL, bidirectional
 * overrides or line separators (what common/escape.c escapes, the backslash aside).
 */
bool fuzz_terminal_safe(const char *s);

/* Whether s holds a C0 control byte or DEL: text printed for people must not. */
bool fuzz_has_control(const char *s);

#endif
