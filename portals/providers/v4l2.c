/*
 * cordon-camera-v4l2: a camera provider that captures one frame from the first
 * V4L2 capture device (/dev/video0 to 63) and writes it to stdout: YUYV frames
 * converted to RGB and encoded as PNG, MJPEG frames (asked for with
 * --mime-type=image/jpeg) passed on as they come. With --stream it captures
 * until the reader goes away, each YUYV frame converted to RGB and written as a
 * stream frame. It needs the device and nothing else. Without a device it fails
 * with a clear message and status 3.
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

#include "cordon/camera-frame.h"
#include "provider.h"

#define NAME "cordon-camera-v4l2"
#define EXIT_NO_DEVICE 3
#define FRAME_TIMEOUT_MS 5000
/* The first frames of many cameras are dark while exposure settles. */
#define SKIP_FRAMES 3
#define MAX_BUFFERS 8

struct camera {
	int fd;
	char path[32];
	struct v4l2_format format;
	void *maps[MAX_BUFFERS];
	size_t lengths[MAX_BUFFERS];
	uint32_t buffer_count;
	bool streaming;
};

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
			caps = cap.capabilities & V4L2_CAP_DEVICE_CAPS ? cap.device_caps
								       : cap.capabilities;
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
static void yuyv_to_rgb(
	const uint8_t *yuyv, uint32_t width, uint32_t height, uint32_t stride, uint8_t *rgb) {
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

/*
 * Asks for FPS frames a second; the driver may pick another rate, or have none
 * to pick, and the stream then follows the camera's.
 */
static void request_rate(struct camera *camera, uint32_t fps) {
	struct v4l2_streamparm parm = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE};
	if (xioctl(camera->fd, VIDIOC_G_PARM, &parm) != 0 ||
		!(parm.parm.capture.capability & V4L2_CAP_TIMEPERFRAME)) {
		return;
	}
	parm.parm.capture.timeperframe = (struct v4l2_fract){.numerator = 1, .denominator = fps};
	xioctl(camera->fd, VIDIOC_S_PARM, &parm);
}

/* Sets the format and starts streaming into mmap buffers; 0, or the exit status. */
static int camera_start(struct camera *camera, const struct provider_args *args,
	uint32_t pixelformat, const char *format_name) {
	camera->fd = open_device(camera->path, sizeof(camera->path));
	if (camera->fd < 0) {
		fprintf(stderr,
			NAME ": no V4L2 capture device (/dev/video0 to /dev/video63 "
			     "with video capture and streaming)\n");
		return EXIT_NO_DEVICE;
	}
	const char *path = camera->path;
	struct v4l2_format *format = &camera->format;
	*format = (struct v4l2_format){.type = V4L2_BUF_TYPE_VIDEO_CAPTURE};
	format->fmt.pix.width = args->width ? args->width : 640;
	format->fmt.pix.height = args->height ? args->height : 480;
	format->fmt.pix.pixelformat = pixelformat;
	format->fmt.pix.field = V4L2_FIELD_ANY;
	if (xioctl(camera->fd, VIDIOC_S_FMT, format) != 0 ||
		format->fmt.pix.pixelformat != pixelformat) {
		fprintf(stderr, NAME ": %s does not capture %s\n", path, format_name);
		return 1;
	}
	if (args->stream) {
		request_rate(camera, args->fps);
	}
	struct v4l2_requestbuffers req = {
		.count = 2,
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};
	if (xioctl(camera->fd, VIDIOC_REQBUFS, &req) != 0 || req.count < 1) {
		fprintf(stderr, NAME ": %s: no capture buffers: %s\n", path, strerror(errno));
		return 1;
	}
	camera->buffer_count = req.count < MAX_BUFFERS ? req.count : MAX_BUFFERS;
	for (uint32_t i = 0; i < camera->buffer_count; i++) {
		struct v4l2_buffer buf = {.type = req.type, .memory = req.memory, .index = i};
		if (xioctl(camera->fd, VIDIOC_QUERYBUF, &buf) != 0) {
			fprintf(stderr, NAME ": %s: buffer %u: %s\n", path, i, strerror(errno));
			return 1;
		}
		void *map = mmap(NULL, buf.length, PROT_READ, MAP_SHARED, camera->fd, buf.m.offset);
		if (map != MAP_FAILED) {
			camera->maps[i] = map;
			camera->lengths[i] = buf.length;
		}
		if (map == MAP_FAILED || xioctl(camera->fd, VIDIOC_QBUF, &buf) != 0) {
			fprintf(stderr, NAME ": %s: buffer %u: %s\n", path, i, strerror(errno));
			return 1;
		}
	}
	enum v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	if (xioctl(camera->fd, VIDIOC_STREAMON, &type) != 0) {
		fprintf(stderr, NAME ": %s: cannot start streaming: %s\n", path, strerror(errno));
		return 1;
	}
	camera->streaming = true;
	return 0;
}

static void camera_stop(struct camera *camera) {
	if (camera->streaming) {
		enum v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		xioctl(camera->fd, VIDIOC_STREAMOFF, &type);
	}
	for (uint32_t i = 0; i < camera->buffer_count; i++) {
		if (camera->maps[i]) {
			munmap(camera->maps[i], camera->lengths[i]);
		}
	}
	if (camera->fd >= 0) {
		close(camera->fd);
	}
}

/* Waits for the next filled buffer; false after a message. */
static bool camera_dequeue(struct camera *camera, struct v4l2_buffer *buf) {
	for (;;) {
		struct pollfd pfd = {.fd = camera->fd, .events = POLLIN};
		int n = poll(&pfd, 1, FRAME_TIMEOUT_MS);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n <= 0) {
			fprintf(stderr, NAME ": %s gave no frame in %d ms\n", camera->path,
				FRAME_TIMEOUT_MS);
			return false;
		}
		*buf = (struct v4l2_buffer){
			.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
			.memory = V4L2_MEMORY_MMAP,
		};
		if (xioctl(camera->fd, VIDIOC_DQBUF, buf) != 0) {
			if (errno == EAGAIN) {
				continue;
			}
			fprintf(stderr, NAME ": %s: %s\n", camera->path, strerror(errno));
			return false;
		}
		if (buf->index >= camera->buffer_count || !camera->maps[buf->index]) {
			fprintf(stderr, NAME ": %s: a frame in an unknown buffer %u\n",
				camera->path, buf->index);
			return false;
		}
		return true;
	}
}

/* Gives a buffer back to the driver to fill again; false after a message. */
static bool camera_requeue(struct camera *camera, struct v4l2_buffer *buf) {
	if (xioctl(camera->fd, VIDIOC_QBUF, buf) != 0) {
		fprintf(stderr, NAME ": %s: buffer %u: %s\n", camera->path, buf->index,
			strerror(errno));
		return false;
	}
	return true;
}

static size_t frame_bytes(const struct camera *camera, const struct v4l2_buffer *buf) {
	size_t length = camera->lengths[buf->index];
	return buf->bytesused < length ? buf->bytesused : length;
}

static uint32_t yuyv_stride(const struct camera *camera) {
	const struct v4l2_pix_format *pix = &camera->format.fmt.pix;
	return pix->bytesperline ? pix->bytesperline : pix->width * 2;
}

static int take_photo(struct camera *camera, bool jpeg) {
	struct v4l2_buffer buf;
	for (int frame = 0;; frame++) {
		if (!camera_dequeue(camera, &buf)) {
			return 1;
		}
		if (frame >= SKIP_FRAMES) {
			break;
		}
		if (!camera_requeue(camera, &buf)) {
			return 1;
		}
	}
	const uint8_t *data = camera->maps[buf.index];
	size_t used = frame_bytes(camera, &buf);
	if (jpeg) {
		return provider_write_all(NAME, data, used) ? 0 : 1;
	}
	uint32_t w = camera->format.fmt.pix.width, h = camera->format.fmt.pix.height;
	uint32_t stride = yuyv_stride(camera);
	if ((size_t)stride * h > used) {
		fprintf(stderr, NAME ": %s: a short frame (%zu bytes)\n", camera->path, used);
		return 1;
	}
	uint8_t *rgb = malloc((size_t)w * h * 3);
	if (!rgb) {
		fprintf(stderr, NAME ": out of memory\n");
		return 1;
	}
	yuyv_to_rgb(data, w, h, stride, rgb);
	bool ok = provider_write_png(NAME, w, h, rgb);
	free(rgb);
	return ok ? 0 : 1;
}

/*
 * Frames as the camera delivers them (at the rate asked for, if the driver can),
 * until the reader goes away. A damaged or short frame is dropped and leaves a
 * gap in the sequence, as the frame format says a dropped frame does.
 */
static int stream(struct camera *camera, const struct provider_args *args) {
	uint32_t w = camera->format.fmt.pix.width, h = camera->format.fmt.pix.height;
	uint32_t stride = yuyv_stride(camera);
	/* The driver may have picked another size than asked for. */
	if (w == 0 || h == 0 || w > CORDON_CAMERA_FRAME_MAX_SIDE ||
		h > CORDON_CAMERA_FRAME_MAX_SIDE || stride < w * 2) {
		fprintf(stderr,
			NAME ": %s captures %ux%u (stride %u), not a stream frame of "
			     "at most %d pixels a side\n",
			camera->path, w, h, stride, CORDON_CAMERA_FRAME_MAX_SIDE);
		return 1;
	}
	uint8_t *rgb = malloc((size_t)w * h * 3);
	if (!rgb) {
		fprintf(stderr, NAME ": out of memory\n");
		return 1;
	}
	int status = 0;
	for (uint64_t sequence = 0; args->frames == 0 || sequence < args->frames; sequence++) {
		struct v4l2_buffer buf;
		if (!camera_dequeue(camera, &buf)) {
			status = 1;
			break;
		}
		bool damaged = (buf.flags & V4L2_BUF_FLAG_ERROR) ||
			(size_t)stride * h > frame_bytes(camera, &buf);
		if (!damaged) {
			yuyv_to_rgb(camera->maps[buf.index], w, h, stride, rgb);
		}
		/* Back to the driver before the write, which may block on a slow reader. */
		if (!camera_requeue(camera, &buf)) {
			status = 1;
			break;
		}
		if (damaged) {
			continue;
		}
		enum provider_write_result result = provider_write_frame(NAME, w, h, sequence, rgb);
		if (result != PROVIDER_WRITE_OK) {
			/* CLOSED: the reader went away, the stream's normal end. */
			status = result == PROVIDER_WRITE_CLOSED ? 0 : 1;
			break;
		}
	}
	free(rgb);
	return status;
}

int main(int argc, char *argv[]) {
	struct provider_args args;
	if (!provider_parse_args(NAME, argc, argv, &args)) {
		return 2;
	}
	bool jpeg = !args.stream && strcmp(args.mime_type, "image/jpeg") == 0;
	if (!args.stream && !jpeg && strcmp(args.mime_type, "image/png") != 0) {
		fprintf(stderr, NAME ": makes image/png or image/jpeg, not '%s'\n", args.mime_type);
		return 2;
	}
	if (args.stream) {
		provider_stream_start();
	}
	struct camera camera = {.fd = -1};
	int status = camera_start(&camera, &args, jpeg ? V4L2_PIX_FMT_MJPEG : V4L2_PIX_FMT_YUYV,
		jpeg ? "MJPEG" : "YUYV");
	if (status == 0) {
		status = args.stream ? stream(&camera, &args) : take_photo(&camera, jpeg);
	}
	camera_stop(&camera);
	return status;
}
