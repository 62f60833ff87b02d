// SPDX-License-Identifier: MIT
/* util: error reporting, allocation, number parsing and the monotonic clock. */
#include "core/util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int pcost_verbosity = 1;

static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	char msg[4096];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	fprintf(stderr, "probecost: %s%s\n", prefix, msg);
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("error: ", fmt, ap);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	if (pcost_verbosity < 1)
		return;
	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

void info(const char *fmt, ...)
{
	va_list ap;

	if (pcost_verbosity < 2)
		return;
	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("error: ", fmt, ap);
	va_end(ap);
	exit(PCOST_EXIT_FAIL);
}

int usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
	return PCOST_EXIT_USAGE;
}

static void *check_alloc(void *p)
{
	if (!p) {
		fputs("probecost: error: out of memory\n", stderr);
		abort();
	}
	return p;
}

void *xmalloc(size_t n)
{
	return check_alloc(malloc(n ? n : 1));
}

void *xcalloc(size_t nmemb, size_t size)
{
	return check_alloc(calloc(nmemb ? nmemb : 1, size ? size : 1));
}

void *xrealloc(void *p, size_t n)
{
	return check_alloc(realloc(p, n ? n : 1));
}

char *xstrdup(const char *s)
{
	return check_alloc(strdup(s ? s : ""));
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		check_alloc(NULL);
	return s;
}

void xgrow(void **p, size_t *cap, size_t want, size_t sz)
{
	size_t n = *cap ? *cap : 8;

	if (want <= *cap)
		return;
	while (n < want)
		n *= 2;
	*p = xrealloc(*p, n * sz);
	*cap = n;
}

int pcost_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	uint64_t mult = 1;
	char *end;

	if (!s || !*s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (*end == 'k' || *end == 'K')
		mult = 1000, end++;
	else if (*end == 'M')
		mult = 1000000, end++;
	else if (*end == 'G')
		mult = 1000000000, end++;
	if (*end)
		return -EINVAL;
	if (v > UINT64_MAX / mult)
		return -ERANGE;
	v *= mult;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int pcost_parse_double(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	if (!s || !*s || isspace((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (*end || !isfinite(v))
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int pcost_parse_cpulist(const char *s, uint64_t *mask)
{
	uint64_t m = 0;
	const char *p = s;

	if (!s || !*s)
		return -EINVAL;
	while (*p) {
		char *end;
		unsigned long a, b;

		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		a = strtoul(p, &end, 10);
		b = a;
		if (*end == '-') {
			if (!isdigit((unsigned char)end[1]))
				return -EINVAL;
			b = strtoul(end + 1, &end, 10);
		}
		if (a > b || b >= 64)
			return -EINVAL;
		for (unsigned long c = a; c <= b; c++)
			m |= 1ULL << c;
		if (*end == ',')
			end++;
		else if (*end)
			return -EINVAL;
		p = end;
	}
	*mask = m;
	return 0;
}

pcost_ns pcost_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (pcost_ns)ts.tv_sec * 1000000000ULL + (pcost_ns)ts.tv_nsec;
}

ssize_t pcost_read_file(const char *path, char *buf, size_t len)
{
	ssize_t n, total = 0;
	int fd;

	if (!len)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while ((size_t)total < len - 1) {
		n = read(fd, buf + total, len - 1 - total);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			n = -errno;
			close(fd);
			return n;
		}
		if (n == 0)
			break;
		total += n;
	}
	close(fd);
	buf[total] = '\0';
	while (total > 0 && (buf[total - 1] == '\n' || buf[total - 1] == ' '))
		buf[--total] = '\0';
	return total;
}

bool pcost_which(const char *name, char *path, size_t len)
{
	const char *env = getenv("PATH");
	char buf[PATH_MAX];
	const char *p;

	if (strchr(name, '/')) {
		if (access(name, X_OK) == 0) {
			if (path)
				snprintf(path, len, "%s", name);
			return true;
		}
		return false;
	}
	if (!env || !*env)
		env = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
	for (p = env; p && *p;) {
		const char *colon = strchr(p, ':');
		size_t n = colon ? (size_t)(colon - p) : strlen(p);
		struct stat st;

		snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, p, name);
		if (n && stat(buf, &st) == 0 && S_ISREG(st.st_mode) && access(buf, X_OK) == 0) {
			if (path)
				snprintf(path, len, "%s", buf);
			return true;
		}
		p = colon ? colon + 1 : NULL;
	}
	return false;
}

void pcost_format_cpumask(uint64_t mask, char *buf, size_t len)
{
	size_t at = 0;

	if (len)
		buf[0] = 0;
	for (int c = 0; c < 64 && at < len; c++)
		if (mask & (1ULL << c))
			at += (size_t)snprintf(buf + at, len - at, "%s%d", at ? "," : "", c);
}

int pcost_pin_mask(uint64_t mask)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	for (int c = 0; c < 64; c++)
		if (mask & (1ULL << c))
			CPU_SET(c, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0)
		return -errno;
	return 0;
}
