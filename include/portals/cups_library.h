/* libcups's functions for portals/cups.c, from libcups.so.2 loaded on the first print request. */
#ifndef CORDON_PORTALS_CUPS_LIBRARY_H
#define CORDON_PORTALS_CUPS_LIBRARY_H

#include <cups/cups.h>
#include <stdbool.h>
#include <stddef.h>

/* Every libcups function cordon calls, by its own name and with its header's type. */
struct cordon_cups_library {
	void *handle; /* NULL until loaded */
	__typeof__(cupsAddOption) *cupsAddOption;
	__typeof__(cupsCancelJob2) *cupsCancelJob2;
	__typeof__(cupsCopyDestInfo) *cupsCopyDestInfo;
	__typeof__(cupsCreateJob) *cupsCreateJob;
	__typeof__(cupsDoRequest) *cupsDoRequest;
	__typeof__(cupsEncryption) *cupsEncryption;
	__typeof__(cupsFindDestDefault) *cupsFindDestDefault;
	__typeof__(cupsFindDestSupported) *cupsFindDestSupported;
	__typeof__(cupsFinishDocument) *cupsFinishDocument;
	__typeof__(cupsFreeDestInfo) *cupsFreeDestInfo;
	__typeof__(cupsFreeDests) *cupsFreeDests;
	__typeof__(cupsFreeOptions) *cupsFreeOptions;
	__typeof__(cupsGetDests2) *cupsGetDests2;
	__typeof__(cupsGetOption) *cupsGetOption;
	__typeof__(cupsLastError) *cupsLastError;
	__typeof__(cupsLastErrorString) *cupsLastErrorString;
	__typeof__(cupsServer) *cupsServer;
	__typeof__(cupsStartDocument) *cupsStartDocument;
	__typeof__(cupsUser) *cupsUser;
	__typeof__(cupsWriteRequestData) *cupsWriteRequestData;
	__typeof__(httpAssembleURIf) *httpAssembleURIf;
	__typeof__(httpClose) *httpClose;
	__typeof__(httpConnect2) *httpConnect2;
	__typeof__(ippAddString) *ippAddString;
	__typeof__(ippDelete) *ippDelete;
	__typeof__(ippFindAttribute) *ippFindAttribute;
	__typeof__(ippGetCount) *ippGetCount;
	__typeof__(ippGetInteger) *ippGetInteger;
	__typeof__(ippGetRange) *ippGetRange;
	__typeof__(ippGetString) *ippGetString;
	__typeof__(ippGetValueTag) *ippGetValueTag;
	__typeof__(ippNewRequest) *ippNewRequest;
	__typeof__(ippPort) *ippPort;
};

/*
 * Loads libcups unless it is loaded. false with the reason in ERROR (libcups2 is not
 * installed, or is older than the functions cordon calls). It blocks while the loader
 * reads libcups and its ~20 libraries: call it from a CUPS thread, never from the event
 * loop.
 */
bool cordon_cups_library_load(struct cordon_cups_library *cups, char *error, size_t error_size);
/* Once no thread can call into it any more. libcups stays mapped (cups_library.c). */
void cordon_cups_library_unload(struct cordon_cups_library *cups);

#endif
