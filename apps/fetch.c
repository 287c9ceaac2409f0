/*
 * Fetching from a store: libcurl for http(s) (only those protocols, also after redirects, with
 * TLS verification on as libcurl defaults), plain reads for a folder. Every fetch has a size cap
 * from the index or the format, so a hostile server cannot fill the disk or memory.
 */
#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apps/fetch.h"
#include "common/format.h"

const char *cordon_fetch_url_problem(const char *url) {
	if (strlen(url) > 1024) {
		return "the URL is longer than 1024 bytes";
	}
	/* Printed in messages and listings: printable ASCII only, no quotes or spaces. */
	for (const unsigned char *p = (const unsigned char *)url; *p != '\0'; p++) {
		if (*p <= ' ' || *p >= 0x7f || strchr("\"'\\`", *p) != NULL) {
			return "the URL has spaces, quotes or characters that are not printable ASCII";
		}
	}
	if (strncmp(url, "http://", 7) == 0 || strncmp(url, "https://", 8) == 0 || url[0] == '/') {
		return NULL;
	}
	return "a store URL begins with https://, http:// or / (a folder)";
}

struct sink {
	int fd;
	char *buf;
	size_t len;
	uint64_t done, max, total;
	bool too_big;
	cordon_progress_fn progress;
	void *data;
};

static bool sink_write(struct sink *s, const char *p, size_t n) {
	if (s->done + n > s->max) {
		s->too_big = true;
		return false;
	}
	if (s->fd >= 0) {
		size_t left = n;
		while (left > 0) {
			ssize_t w = write(s->fd, p, left);
			if (w < 0 && errno == EINTR) {
				continue;
			}
			if (w <= 0) {
				return false;
			}
			p += w;
			left -= (size_t)w;
		}
	} else {
		memcpy(s->buf + s->len, p, n);
		s->len += n;
	}
	s->done += n;
	if (s->progress != NULL) {
		s->progress(s->data, s->done, s->total);
	}
	return true;
}

static size_t handle_curl_write(char *p, size_t size, size_t n, void *data) {
	return sink_write(data, p, size * n) ? size * n : 0;
}

static bool fetch_http(const char *url, struct sink *s, char **error) {
	CURL *curl = curl_easy_init();
	if (curl == NULL) {
		*error = cordon_format("libcurl failed to start");
		return false;
	}
	char message[CURL_ERROR_SIZE] = "";
	curl_easy_setopt(curl, CURLOPT_URL, url);
	curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(curl, CURLOPT_MAXREDIRS, 5L);
	curl_easy_setopt(curl, CURLOPT_FAILONERROR, 1L);
	curl_easy_setopt(curl, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)s->max);
	curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 30L);
	curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
	curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, 60L);
	curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, message);
	curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, handle_curl_write);
	curl_easy_setopt(curl, CURLOPT_WRITEDATA, s);
	curl_easy_setopt(curl, CURLOPT_USERAGENT, "cordon-app");
	CURLcode rc = curl_easy_perform(curl);
	curl_easy_cleanup(curl);
	if (rc == CURLE_OK) {
		return true;
	}
	if (s->too_big || rc == CURLE_FILESIZE_EXCEEDED) {
		*error = cordon_format(
			"%s: larger than the %llu bytes expected", url, (unsigned long long)s->max);
	} else {
		*error = cordon_format(
			"%s: %s", url, message[0] != '\0' ? message : curl_easy_strerror(rc));
	}
	return false;
}

static bool fetch_file(const char *path, struct sink *s, char **error) {
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		*error = cordon_format("%s: %s", path, strerror(errno));
		return false;
	}
	char buf[65536];
	bool ok = true;
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n < 0) {
			*error = cordon_format("%s: %s", path, strerror(errno));
			ok = false;
		} else if (n > 0 && !sink_write(s, buf, (size_t)n)) {
			*error = s->too_big
				? cordon_format("%s: larger than the %llu bytes expected", path,
					  (unsigned long long)s->max)
				: cordon_format("%s: %s", path, strerror(errno));
			ok = false;
		}
		if (n <= 0 || !ok) {
			break;
		}
	}
	close(fd);
	return ok;
}

static bool fetch(const char *base, const char *name, struct sink *s, char **error) {
	char *url = cordon_format("%s%s%s", base, base[strlen(base) - 1] == '/' ? "" : "/", name);
	if (url == NULL) {
		*error = cordon_format("out of memory");
		return false;
	}
	bool ok = base[0] == '/' ? fetch_file(url, s, error) : fetch_http(url, s, error);
	free(url);
	return ok;
}

bool cordon_fetch_to_fd(const char *base, const char *name, uint64_t max, int out_fd,
	cordon_progress_fn progress, void *data, char **error) {
	struct sink s = {
		.fd = out_fd, .max = max, .total = max, .progress = progress, .data = data};
	return fetch(base, name, &s, error);
}

char *cordon_fetch_to_memory(
	const char *base, const char *name, size_t max, size_t *len, char **error) {
	struct sink s = {.fd = -1, .max = max, .buf = malloc(max + 1)};
	if (s.buf == NULL) {
		*error = cordon_format("out of memory");
		return NULL;
	}
	if (!fetch(base, name, &s, error)) {
		free(s.buf);
		return NULL;
	}
	s.buf[s.len] = '\0';
	*len = s.len;
	return s.buf;
}
