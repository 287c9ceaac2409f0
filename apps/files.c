/*
 * What makes cordon-app's changes survive a kill -9 or a power cut at any point: a file is
 * replaced by renaming a complete, fsynced temporary file over it, and the directory is fsynced
 * so the rename itself is on disk.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "apps/files.h"
#include "common/format.h"

bool cordon_mkdirs(const char *path, unsigned mode) {
	char *copy = strdup(path);
	if (copy == NULL) {
		return false;
	}
	bool ok = true;
	for (char *p = copy + 1; ok; p++) {
		if (*p != '/' && *p != '\0') {
			continue;
		}
		char saved = *p;
		*p = '\0';
		ok = mkdir(copy, mode) == 0 || errno == EEXIST;
		*p = saved;
		if (saved == '\0') {
			break;
		}
	}
	free(copy);
	return ok;
}

bool cordon_fsync_path(const char *path) {
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		return false;
	}
	bool ok = fsync(fd) == 0;
	close(fd);
	return ok;
}

static bool write_fd(int fd, const void *data, size_t len) {
	const char *p = data;
	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n <= 0) {
			return false;
		}
		p += n;
		len -= (size_t)n;
	}
	return fsync(fd) == 0;
}

bool cordon_write_at(int dirfd, const char *name, const void *data, size_t len, char **error) {
	int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
	bool ok = fd >= 0 && write_fd(fd, data, len);
	if (fd >= 0) {
		ok = close(fd) == 0 && ok;
	}
	if (!ok) {
		*error = cordon_format("writing %s: %s", name, strerror(errno));
	}
	return ok;
}

bool cordon_write_atomic(
	const char *path, const void *data, size_t len, unsigned mode, char **error) {
	char *tmp = cordon_format("%s.tmp", path);
	if (tmp == NULL) {
		*error = cordon_format("out of memory");
		return false;
	}
	unlink(tmp);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode);
	bool ok = fd >= 0 && write_fd(fd, data, len);
	if (fd >= 0) {
		ok = close(fd) == 0 && ok;
	}
	ok = ok && rename(tmp, path) == 0;
	if (!ok) {
		*error = cordon_format("writing %s: %s", path, strerror(errno));
		unlink(tmp);
	} else {
		char *dir = strdup(path);
		if (dir != NULL) {
			cordon_fsync_path(dirname(dir));
		}
		free(dir);
	}
	free(tmp);
	return ok;
}

static bool remove_at(int parent, const char *name) {
	if (unlinkat(parent, name, 0) == 0 || errno == ENOENT) {
		return true;
	}
	if (errno != EISDIR && errno != EPERM) {
		return false;
	}
	int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		return false;
	}
	DIR *dir = fdopendir(fd);
	if (dir == NULL) {
		close(fd);
		return false;
	}
	bool ok = true;
	struct dirent *entry;
	while ((entry = readdir(dir)) != NULL) {
		if (strcmp(entry->d_name, ".") != 0 && strcmp(entry->d_name, "..") != 0) {
			ok = remove_at(dirfd(dir), entry->d_name) && ok;
		}
	}
	closedir(dir);
	return unlinkat(parent, name, AT_REMOVEDIR) == 0 && ok;
}

bool cordon_remove_tree(const char *path) {
	return remove_at(AT_FDCWD, path);
}

char *cordon_read_file(const char *path, size_t max, size_t *len) {
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		return NULL;
	}
	char *buf = malloc(max + 1);
	size_t used = 0;
	while (buf != NULL) {
		ssize_t n = read(fd, buf + used, max + 1 - used);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n <= 0) {
			break;
		}
		used += (size_t)n;
		if (used > max) {
			free(buf);
			buf = NULL;
		}
	}
	close(fd);
	if (buf != NULL) {
		buf[used] = '\0';
		if (len != NULL) {
			*len = used;
		}
	}
	return buf;
}
