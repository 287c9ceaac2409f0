/*
 * cordon-camera-v4l2: a camera provider that captures one frame from the first
 * V4L2 capture device (/dev/video0 to 63) and writes it to stdout: YUYV frames
 * converted to RGB and encoded as PNG, MJPEG frames (asked for with
 * --mime-type=image/jpeg) passed on as they come. It needs the device and
 * nothing else. Without a device it fails with a clear message and status 3.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "provider.h"

#define NAME "cordon-camera-v4l2"
#define EXIT_NO_DEVICE 3
#define FRAME_TIMEOUT_MS 5000
/* The first frames of many cameras are dark while exposure settles. */
#define SKIP_FRAMES 3

static int xioctl(int fd, unsigned long request, void *arg) {
	int r;
	do {
		r = ioctl(fd, request, arg);
	} while (r < 0 && errno == EINTR);
	return r;
}

static int open_device(char *path, size_t size) {
	for (int i = 0; i < 64; i++) {
		snprintf(path, size, "/dev/video%d", i);
		int fd = open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
		if (fd < 0) {
			continue;
		}
		struct v4l2_capability cap = {0};
		uint32_t caps = 0;
		if (xioctl(fd, VIDIOC_QUERYCAP, &cap) == 0) {
			caps = cap.capabilities & V4L2_CAP_DEVICE_CAPS ? cap.device_caps :
				cap.capabilities;
		}
		if ((caps & V4L2_CAP_VIDEO_CAPTURE) && (caps & V4L2_CAP_STREAMING)) {
			return fd;
		}
		close(fd);
	}
	return -1;
}

static uint8_t clamp(int v) {
	return v < 0 ? 0 : v > 255 ? 255 : (uint8_t)v;
}

/* BT.601 limited range YUYV to RGB. */
static void yuyv_to_rgb(const uint8_t *yuyv, uint32_t width, uint32_t height,
		uint32_t stride, uint8_t *rgb) {
	for (uint32_t y = 0; y < height; y++) {
		const uint8_t *in = yuyv + (size_t)y * stride;
		uint8_t *out = rgb + (size_t)y * width * 3;
		for (uint32_t x = 0; x < width; x += 2) {
			int u = in[1] - 128, v = in[3] - 128;
			for (int k = 0; k < 2 && x + (uint32_t)k < width; k++) {
				int c = 298 * ((k ? in[2] : in[0]) - 16);
				*out++ = clamp((c + 409 * v + 128) >> 8);
				*out++ = clamp((c - 100 * u - 208 * v + 128) >> 8);
				*out++ = clamp((c + 516 * u + 128) >> 8);
			}
			in += 4;
		}
	}
}

int main(int argc, char *argv[]) {
	struct provider_args args;
	if (!provider_parse_args(NAME, argc, argv, &args)) {
		return 2;
	}
	bool jpeg = strcmp(args.mime_type, "image/jpeg") == 0;
	if (!jpeg && strcmp(args.mime_type, "image/png") != 0) {
		fprintf(stderr, NAME ": makes image/png or image/jpeg, not '%s'\n", args.mime_type);
		return 2;
	}
	char path[32];
	int fd = open_device(path, sizeof(path));
	if (fd < 0) {
		fprintf(stderr, NAME ": no V4L2 capture device (/dev/video0 to /dev/video63 "
			"with video capture and streaming)\n");
		return EXIT_NO_DEVICE;
	}
	struct v4l2_format format = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE};
	format.fmt.pix.width = args.width ? args.width : 640;
	format.fmt.pix.height = args.height ? args.height : 480;
	format.fmt.pix.pixelformat = jpeg ? V4L2_PIX_FMT_MJPEG : V4L2_PIX_FMT_YUYV;
	format.fmt.pix.field = V4L2_FIELD_ANY;
	if (xioctl(fd, VIDIOC_S_FMT, &format) != 0 ||
			format.fmt.pix.pixelformat != (jpeg ? V4L2_PIX_FMT_MJPEG : V4L2_PIX_FMT_YUYV)) {
		fprintf(stderr, NAME ": %s does not capture %s\n", path, jpeg ? "MJPEG" : "YUYV");
		return 1;
	}
	struct v4l2_requestbuffers req = {
		.count = 2,
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};
	if (xioctl(fd, VIDIOC_REQBUFS, &req) != 0 || req.count < 1) {
		fprintf(stderr, NAME ": %s: no capture buffers: %s\n", path, strerror(errno));
		return 1;
	}
	void *maps[8] = {0};
	size_t lengths[8] = {0};
	for (uint32_t i = 0; i < req.count && i < 8; i++) {
		struct v4l2_buffer buf = {.type = req.type, .memory = req.memory, .index = i};
		if (xioctl(fd, VIDIOC_QUERYBUF, &buf) != 0) {
			fprintf(stderr, NAME ": %s: buffer %u: %s\n", path, i, strerror(errno));
			return 1;
		}
		maps[i] = mmap(NULL, buf.length, PROT_READ, MAP_SHARED, fd, buf.m.offset);
		lengths[i] = buf.length;
		if (maps[i] == MAP_FAILED || xioctl(fd, VIDIOC_QBUF, &buf) != 0) {
			fprintf(stderr, NAME ": %s: buffer %u: %s\n", path, i, strerror(errno));
			return 1;
		}
	}
	enum v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	if (xioctl(fd, VIDIOC_STREAMON, &type) != 0) {
		fprintf(stderr, NAME ": %s: cannot start streaming: %s\n", path, strerror(errno));
		return 1;
	}
	struct v4l2_buffer buf;
	for (int frame = 0;; frame++) {
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		if (poll(&pfd, 1, FRAME_TIMEOUT_MS) <= 0) {
			fprintf(stderr, NAME ": %s gave no frame in %d ms\n", path, FRAME_TIMEOUT_MS);
			return 1;
		}
		buf = (struct v4l2_buffer){.type = type, .memory = V4L2_MEMORY_MMAP};
		if (xioctl(fd, VIDIOC_DQBUF, &buf) != 0) {
			if (errno == EAGAIN) {
				continue;
			}
			fprintf(stderr, NAME ": %s: %s\n", path, strerror(errno));
			return 1;
		}
		if (buf.index >= 8 || !maps[buf.index]) {
			fprintf(stderr, NAME ": %s: a frame in an unknown buffer %u\n", path,
				buf.index);
			return 1;
		}
		if (frame >= SKIP_FRAMES) {
			break;
		}
		xioctl(fd, VIDIOC_QBUF, &buf);
	}
	const uint8_t *data = maps[buf.index];
	size_t used = buf.bytesused < lengths[buf.index] ? buf.bytesused : lengths[buf.index];
	bool ok;
	if (jpeg) {
		ok = provider_write_all(NAME, data, used);
	} else {
		uint32_t w = format.fmt.pix.width, h = format.fmt.pix.height;
		uint32_t stride = format.fmt.pix.bytesperline ? format.fmt.pix.bytesperline : w * 2;
		if ((size_t)stride * h > used) {
			fprintf(stderr, NAME ": %s: a short frame (%zu bytes)\n", path, used);
			return 1;
		}
		uint8_t *rgb = malloc((size_t)w * h * 3);
		if (!rgb) {
			fprintf(stderr, NAME ": out of memory\n");
			return 1;
		}
		yuyv_to_rgb(data, w, h, stride, rgb);
		ok = provider_write_png(NAME, w, h, rgb);
		free(rgb);
	}
	xioctl(fd, VIDIOC_STREAMOFF, &type);
	close(fd);
	return ok ? 0 : 1;
}
