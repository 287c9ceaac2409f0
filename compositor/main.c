/* cordon's command line: parse the options, then create, start and run the server. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wlr/util/log.h>

#include "compositor/server.h"

static const char usage[] =
	"Usage: cordon [OPTION]...\n"
	"A Wayland compositor that mediates between sandboxed apps and the desktop.\n"
	"\n"
	"  -H, --headless         run without display hardware (WLR_BACKENDS=headless)\n"
	"  -o, --output WxH       with --headless, add an output of this size\n"
	"                         (repeatable, up to 8; default one 1280x720)\n"
	"  -S, --socket NAME      Wayland socket name (default: first free wayland-N)\n"
	"  -c, --config FILE      configuration file\n"
	"                         (default: $XDG_CONFIG_HOME/cordon/cordon.ini)\n"
	"  -p, --policy FILE      per-app policy: profiles and app sections\n"
	"                         (default: $XDG_CONFIG_HOME/cordon/policy.ini)\n"
	"  -s, --startup COMMAND  run COMMAND with /bin/sh -c once cordon is ready\n"
	"  -d, --debug            debug logging\n"
	"  -v, --verbose          informational logging\n"
	"  -h, --help             show this help\n"
	"  -V, --version          show the version\n"
	"\n"
	"Without --headless, cordon runs in a window when WAYLAND_DISPLAY or DISPLAY\n"
	"is set and as the session compositor (DRM, libinput) otherwise.\n";

static bool parse_size(const char *text, struct cordon_headless_output_size *size) {
	char *end;
	long width = strtol(text, &end, 10);
	if (end == text || *end != 'x') {
		return false;
	}
	const char *height_text = end + 1;
	long height = strtol(height_text, &end, 10);
	if (end == height_text || *end != '\0') {
		return false;
	}
	/* Bounded so that a typo cannot ask for gigabytes of framebuffer. */
	if (width < 1 || height < 1 || width > 16384 || height > 16384) {
		return false;
	}
	size->width = (int)width;
	size->height = (int)height;
	return true;
}

int main(int argc, char *argv[]) {
	static const struct option long_options[] = {
		{"headless", no_argument, NULL, 'H'},
		{"output", required_argument, NULL, 'o'},
		{"socket", required_argument, NULL, 'S'},
		{"config", required_argument, NULL, 'c'},
		{"policy", required_argument, NULL, 'p'},
		{"startup", required_argument, NULL, 's'},
		{"debug", no_argument, NULL, 'd'},
		{"verbose", no_argument, NULL, 'v'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{0},
	};
	struct cordon_options options = {0};
	enum wlr_log_importance log_level = WLR_ERROR;
	int opt;
	while ((opt = getopt_long(argc, argv, "Ho:S:c:p:s:dvhV", long_options, NULL)) != -1) {
		switch (opt) {
		case 'H':
			options.headless = true;
			break;
		case 'o':
			if (options.headless_output_count == CORDON_MAX_HEADLESS_OUTPUTS) {
				fprintf(stderr, "cordon: at most %d outputs\n",
					CORDON_MAX_HEADLESS_OUTPUTS);
				return EXIT_FAILURE;
			}
			if (!parse_size(optarg,
				    &options.headless_outputs[options.headless_output_count])) {
				fprintf(stderr,
					"cordon: invalid output size '%s' (expected WIDTHxHEIGHT, "
					"e.g. 1280x720)\n",
					optarg);
				return EXIT_FAILURE;
			}
			options.headless_output_count++;
			break;
		case 'S':
			options.socket_name = optarg;
			break;
		case 'c':
			options.config_path = optarg;
			break;
		case 'p':
			options.policy_path = optarg;
			break;
		case 's':
			options.startup_command = optarg;
			break;
		case 'd':
			log_level = WLR_DEBUG;
			break;
		case 'v':
			if (log_level < WLR_INFO) {
				log_level = WLR_INFO;
			}
			break;
		case 'h':
			fputs(usage, stdout);
			return EXIT_SUCCESS;
		case 'V':
			printf("cordon %s\n", CORDON_VERSION);
			return EXIT_SUCCESS;
		default:
			fputs("Try 'cordon --help' for more information.\n", stderr);
			return EXIT_FAILURE;
		}
	}
	if (optind < argc) {
		fprintf(stderr,
			"cordon: unexpected argument '%s'\n"
			"Try 'cordon --help' for more information.\n",
			argv[optind]);
		return EXIT_FAILURE;
	}
	if (options.headless_output_count > 0 && !options.headless) {
		fprintf(stderr, "cordon: --output needs --headless\n");
		return EXIT_FAILURE;
	}
	wlr_log_init(log_level, NULL);

	struct cordon_server *server = cordon_server_create(&options);
	if (!server) {
		fprintf(stderr, "cordon: cannot start (run with -d for details)\n");
		return EXIT_FAILURE;
	}
	int status = EXIT_FAILURE;
	if (cordon_server_start(server)) {
		status = cordon_server_run(server);
	}
	cordon_server_destroy(server);
	return status;
}
