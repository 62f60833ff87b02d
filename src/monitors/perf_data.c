// SPDX-License-Identifier: MIT
/*
 * perf_data: count the samples of a perf.data file, after the layout perf's
 * own reader walks (tools/perf/util/header.h struct perf_file_header, then
 * the data section's records, each opened by a struct perf_event_header).
 */
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "monitors/perf_data.h"

/* "PERFILE2" as perf writes it, a u64 in the writer's byte order (tools/perf/util/header.c). */
#define PERF_MAGIC2 0x32454c4946524550ULL
/* magic, size, attr_size, then the sections {offset, size}: attrs, data. */
#define HDR_DATA_OFFSET 40
#define HDR_MIN 56
/*
 * perf's own record types (tools/lib/perf/include/perf/event.h enum
 * perf_user_event_type): AUXTRACE is followed by data its header does not
 * count, COMPRESSED wraps records (samples among them) in zstd.
 */
#define PERF_RECORD_AUXTRACE 71
#define PERF_RECORD_COMPRESSED 81

static uint64_t u64_at(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* The samples among the records of data[0..len), or -1 (see perf_data.h). */
static int64_t count_samples(const unsigned char *data, uint64_t len)
{
	int64_t samples = 0;
	uint64_t at = 0;

	while (at < len) {
		struct perf_event_header h;

		if (len - at < sizeof(h))
			return -1;
		memcpy(&h, data + at, sizeof(h));
		if (h.size < sizeof(h) || h.size > len - at || h.type == PERF_RECORD_AUXTRACE ||
		    h.type == PERF_RECORD_COMPRESSED)
			return -1;
		samples += h.type == PERF_RECORD_SAMPLE;
		at += h.size;
	}
	return samples;
}

int64_t pcost_perf_data_samples(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	int64_t samples = -1;
	struct stat st;
	unsigned char *map;
	uint64_t off, len, size;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size < HDR_MIN) {
		close(fd);
		return -1;
	}
	size = (uint64_t)st.st_size;
	map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return -1;
	off = u64_at(map + HDR_DATA_OFFSET);
	len = u64_at(map + HDR_DATA_OFFSET + 8);
	/* A header of the other byte order, or one perf never finished (data size 0). */
	if (u64_at(map) == PERF_MAGIC2 && u64_at(map + 8) >= HDR_MIN && len > 0 && off <= size &&
	    len <= size - off)
		samples = count_samples(map + off, len);
	munmap(map, size);
	return samples;
}
