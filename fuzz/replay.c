/*
 * The driver for builds without libFuzzer (gcc, or clang without compiler-rt): runs the
 * target once on each file named, and on each file of each folder named, as libFuzzer does
 * when it is given files. The seed corpus then runs as a plain test, under ASan+UBSan in
 * build-asan; an oracle failure or a sanitizer report fails it.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static unsigned long runs;

static int run_file(const char *path) {
	FILE *file = fopen(path, "rb");
	if (!file) {
		perror(path);
		return 1;
	}
	char *data = NULL;
	size_t size = 0, cap = 0;
	for (;;) {
		if (size == cap) {
			cap = cap ? cap * 2 : 4096;
			char *grown = realloc(data, cap);
			if (!grown) {
				free(data);
				fclose(file);
				fprintf(stderr, "%s: out of memory\n", path);
				return 1;
			}
			data = grown;
		}
		size_t n = fread(data + size, 1, cap - size, file);
		size += n;
		if (n == 0) {
			break;
		}
	}
	int failed = ferror(file);
	fclose(file);
	if (failed) {
		free(data);
		fprintf(stderr, "%s: read error\n", path);
		return 1;
	}
	/* An exact-size copy, so that ASan sees a read past the input's end. */
	char *input = malloc(size ? size : 1);
	if (!input) {
		free(data);
		return 1;
	}
	memcpy(input, data, size);
	free(data);
	LLVMFuzzerTestOneInput((const uint8_t *)input, size);
	free(input);
	runs++;
	return 0;
}

static int compare_names(const void *a, const void *b) {
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *path) {
	struct dirent **names;
	int n = scandir(path, &names, NULL, NULL);
	if (n < 0) {
		perror(path);
		return 1;
	}
	char **paths = calloc((size_t)n, sizeof(*paths));
	int count = 0, failed = 0;
	for (int i = 0; i < n; i++) {
		if (paths && names[i]->d_name[0] != '.') {
			size_t len = strlen(path) + strlen(names[i]->d_name) + 2;
			paths[count] = malloc(len);
			if (paths[count]) {
				snprintf(paths[count++], len, "%s/%s", path, names[i]->d_name);
			}
		}
		free(names[i]);
	}
	free(names);
	if (!paths) {
		return 1;
	}
	qsort(paths, (size_t)count, sizeof(*paths), compare_names);
	for (int i = 0; i < count; i++) {
		failed |= run_file(paths[i]);
		free(paths[i]);
	}
	free(paths);
	return failed;
}

int main(int argc, char **argv) {
	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE_OR_FOLDER...\n", argv[0]);
		return 2;
	}
	int failed = 0;
	for (int i = 1; i < argc; i++) {
		/* libFuzzer's flags ("-runs=0") mean nothing here. */
		if (argv[i][0] == '-') {
			continue;
		}
		struct stat st;
		if (stat(argv[i], &st) < 0) {
			perror(argv[i]);
			failed = 1;
		} else if (S_ISDIR(st.st_mode)) {
			failed |= run_dir(argv[i]);
		} else {
			failed |= run_file(argv[i]);
		}
	}
	printf("replayed %lu inputs\n", runs);
	if (runs == 0) {
		fprintf(stderr, "no input replayed: an empty corpus proves nothing\n");
		return 1;
	}
	return failed;
}
