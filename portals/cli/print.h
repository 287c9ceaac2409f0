/* cordon-portal's print and prepare-print commands. */
#ifndef CORDON_PORTAL_CLI_PRINT_H
#define CORDON_PORTAL_CLI_PRINT_H

#include <stdbool.h>

/* argv[1] is the command; returns the exit status. No wait lasts longer than timeout_ms. */
int cordon_portal_print_main(int argc, char *argv[], bool prepare, int timeout_ms);

#endif
