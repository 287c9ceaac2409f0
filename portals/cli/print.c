/*
 * cordon-portal's print commands (docs/portals.md):
 *
 *   cordon-portal print FILE|- [--printer NAME] [--copies N] [--pages RANGE]
 *                       [--set KEY=VALUE]... [--token TOKEN] [--modal]
 *                       [--mime-type TYPE] [--title TITLE] [--fd N]
 *   cordon-portal prepare-print [--printer NAME] [--copies N] [--pages RANGE]
 *                               [--set KEY=VALUE]... [--title TITLE]
 *
 * print hands the document over as an fd (a file opened here, standard input as
 * it is, or an inherited fd with --fd) and prints the job id once it is queued.
 * prepare-print prints the chosen settings as KEY=VALUE lines, then token=TOKEN.
 */
#include "print.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <wayland-client.h>

#include "common.h"
#include "cordon-portal-v1-client-protocol.h"

#define MAX_SETTINGS 16

struct print_state {
	struct cordon_portal_manager_v1 *manager;
	struct cordon_portal_cli_answer answer;
	uint32_t job_id;
};

static void handle_setting(
	void *data, struct cordon_portal_print_v1 *print, const char *key, const char *value) {
	printf("%s=%s\n", key, value);
}

static void handle_prepared(void *data, struct cordon_portal_print_v1 *print, const char *token) {
	struct print_state *state = data;
	printf("token=%s\n", token);
	cordon_portal_cli_chosen(&state->answer);
}

static void handle_queued(void *data, struct cordon_portal_print_v1 *print, uint32_t job_id) {
	struct print_state *state = data;
	cordon_portal_cli_chosen(&state->answer);
	state->job_id = job_id;
}

static void handle_cancelled(void *data, struct cordon_portal_print_v1 *print) {
	struct print_state *state = data;
	cordon_portal_cli_cancelled(&state->answer);
}

static void handle_failed(
	void *data, struct cordon_portal_print_v1 *print, uint32_t failure, const char *reason) {
	struct print_state *state = data;
	cordon_portal_cli_failed(&state->answer, failure, reason);
}

static const struct cordon_portal_print_v1_listener print_listener = {
	.setting = handle_setting,
	.prepared = handle_prepared,
	.queued = handle_queued,
	.cancelled = handle_cancelled,
	.failed = handle_failed,
};

static const char *guess_mime_type(const char *path) {
	const char *dot = strrchr(path, '.');
	if (dot && strcasecmp(dot, ".ps") == 0) {
		return "application/postscript";
	} else if (dot && strcasecmp(dot, ".png") == 0) {
		return "image/png";
	} else if (dot && (strcasecmp(dot, ".jpg") == 0 || strcasecmp(dot, ".jpeg") == 0)) {
		return "image/jpeg";
	}
	return "application/pdf";
}

static int print_usage(void) {
	fprintf(stderr,
		"Usage: cordon-portal print FILE|- [--printer NAME] [--copies N] [--pages RANGE]\n"
		"                           [--set KEY=VALUE]... [--token TOKEN] [--modal]\n"
		"                           [--mime-type TYPE] [--title TITLE] [--fd N]\n"
		"       cordon-portal prepare-print [--printer NAME] [--copies N] [--pages RANGE]\n"
		"                                   [--set KEY=VALUE]... [--title TITLE]\n");
	return EXIT_USAGE;
}

int cordon_portal_print_main(int argc, char *argv[], bool prepare, int timeout_ms) {
	static const struct option options[] = {
		{"printer", required_argument, NULL, 'p'},
		{"copies", required_argument, NULL, 'c'},
		{"pages", required_argument, NULL, 'r'},
		{"set", required_argument, NULL, 's'},
		{"token", required_argument, NULL, 'k'},
		{"modal", no_argument, NULL, 'M'},
		{"mime-type", required_argument, NULL, 'm'},
		{"title", required_argument, NULL, 't'},
		{"fd", required_argument, NULL, 'f'},
		{0},
	};
	const char *keys[MAX_SETTINGS], *values[MAX_SETTINGS];
	size_t count = 0;
	const char *token = NULL, *mime_type = NULL, *title = NULL;
	bool modal = false;
	int fd = -1;
	int opt;
	optind = 2;
	while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
		if (count == MAX_SETTINGS) {
			fprintf(stderr, "cordon-portal: at most %d settings\n", MAX_SETTINGS);
			return EXIT_USAGE;
		}
		switch (opt) {
		case 'p':
			keys[count] = "printer";
			values[count++] = optarg;
			break;
		case 'c':
			keys[count] = "copies";
			values[count++] = optarg;
			break;
		case 'r':
			keys[count] = "page-ranges";
			values[count++] = optarg;
			break;
		case 's': {
			char *eq = strchr(optarg, '=');
			if (!eq) {
				fprintf(stderr, "cordon-portal: --set takes KEY=VALUE\n");
				return EXIT_USAGE;
			}
			*eq = '\0';
			keys[count] = optarg;
			values[count++] = eq + 1;
			break;
		}
		case 'k':
			token = optarg;
			break;
		case 'M':
			modal = true;
			break;
		case 'm':
			mime_type = optarg;
			break;
		case 't':
			title = optarg;
			break;
		case 'f':
			fd = atoi(optarg);
			break;
		default:
			return print_usage();
		}
	}
	const char *file = NULL;
	if (!prepare) {
		if (optind + 1 != argc && !(fd >= 0 && optind == argc)) {
			return print_usage();
		}
		file = optind < argc ? argv[optind] : NULL;
	} else if (optind != argc || token || modal || mime_type || fd >= 0) {
		return print_usage();
	}
	if (file && fd >= 0) {
		fprintf(stderr, "cordon-portal: FILE or --fd, not both\n");
		return EXIT_USAGE;
	}
	if (file && strcmp(file, "-") == 0) {
		fd = STDIN_FILENO;
	} else if (file) {
		fd = open(file, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			fprintf(stderr, "cordon-portal: cannot open %s: %s\n", file,
				strerror(errno));
			return EXIT_FAILED;
		}
	}
	if (!mime_type) {
		mime_type =
			file && strcmp(file, "-") != 0 ? guess_mime_type(file) : "application/pdf";
	}

	struct print_state state = {0};
	struct wl_display *display;
	state.manager = cordon_portal_cli_connect(&display, 3, "print", timeout_ms);
	if (!state.manager) {
		return EXIT_NO_PORTAL;
	}
	struct cordon_portal_print_v1 *print = cordon_portal_manager_v1_get_print(state.manager,
		prepare ? CORDON_PORTAL_MANAGER_V1_PRINT_KIND_PREPARE
			: CORDON_PORTAL_MANAGER_V1_PRINT_KIND_PRINT);
	cordon_portal_print_v1_add_listener(print, &print_listener, &state);
	const char *base = file ? strrchr(file, '/') : NULL;
	cordon_portal_print_v1_set_title(print,
		title ? title
		      : (base ? base + 1 : (file && strcmp(file, "-") != 0 ? file : "Document")));
	for (size_t i = 0; i < count; i++) {
		cordon_portal_print_v1_set_setting(print, keys[i], values[i]);
	}
	if (!prepare) {
		if (token) {
			cordon_portal_print_v1_set_token(print, token);
		}
		cordon_portal_print_v1_set_modal(print, modal);
		cordon_portal_print_v1_set_document(print, fd, mime_type);
	}
	cordon_portal_print_v1_submit(print);
	/* The fd goes with the request (libwayland sends a copy): ours is no longer needed. */
	wl_display_flush(display);
	if (file && fd != STDIN_FILENO) {
		close(fd);
	}

	int status = cordon_portal_cli_wait(display, &state.answer, timeout_ms);
	if (status == EXIT_CHOSEN && !prepare) {
		printf("%u\n", state.job_id);
	}
	cordon_portal_print_v1_destroy(print);
	cordon_portal_manager_v1_destroy(state.manager);
	wl_display_disconnect(display);
	return status;
}
