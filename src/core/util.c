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
const char *pcost_command;

static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	char msg[4096];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	fprintf(stderr, "probecost%s%s: %s%s\n", pcost_command ? " " : "",
		pcost_command ? pcost_command : "", prefix, msg);
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
		if (*end == ',' && end[1])
			end++;
		else if (*end)
			return -EINVAL;
		p = end;
	}
	*mask = m;
	return 0;
}

bool pcost_list_well_formed(const char *s)
{
	size_t len = strlen(s);

	return len && s[0] != ',' && s[len - 1] != ',' && !strstr(s, ",,");
}

bool pcost_list_has(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *c = list; c; c = strchr(c, ','), c = c ? c + 1 : NULL)
		if (!strncmp(c, word, n) && (c[n] == ',' || !c[n]))
			return true;
	return false;
}

int pcost_cpus_usable(uint64_t mask, char *why, size_t len)
{
	cpu_set_t allowed;
	char list[256] = "";

	if (sched_getaffinity(0, sizeof(allowed), &allowed) < 0) {
		snprintf(why, len, "could not read the CPUs allowed here: %s", strerror(errno));
		return -errno;
	}
	for (int c = 0; c < CPU_SETSIZE && strlen(list) < sizeof(list) - 8; c++)
		if (CPU_ISSET(c, &allowed))
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%d",
				 *list ? "," : "", c);
	for (int c = 0; c < 64; c++) {
		if ((mask & (1ULL << c)) && !CPU_ISSET(c, &allowed)) {
			snprintf(why, len, "CPU %d is not one this process may run on here (%s)", c,
				 list);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * The length (1-4) of the printable UTF-8 character at s: valid, shortest
 * form, no C0/C1 control or DEL; 0 when the byte at s starts none.
 */
static size_t utf8_char(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned c = *p, n;
	uint32_t cp;

	if (c < 0x20 || c == 0x7f)
		return 0;
	if (c < 0x80)
		return 1;
	if ((c & 0xe0) == 0xc0)
		n = 1, cp = c & 0x1f;
	else if ((c & 0xf0) == 0xe0)
		n = 2, cp = c & 0x0f;
	else if ((c & 0xf8) == 0xf0)
		n = 3, cp = c & 0x07;
	else
		return 0;
	for (unsigned i = 1; i <= n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	/* Overlong forms, surrogates, beyond U+10FFFF, C1 controls. */
	if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff || (cp >= 0x80 && cp < 0xa0))
		return 0;
	return n + 1;
}

bool pcost_text_printable(const char *s)
{
	for (size_t k; *s; s += k)
		if (!(k = utf8_char(s)))
			return false;
	return true;
}

char *pcost_text_escape_to(char *o, const char *s, const char *quote)
{
	for (size_t k; *s; s += k) {
		if (quote && strchr(quote, *s)) {
			*o++ = '\\';
			*o++ = *s;
			k = 1;
		} else if ((k = utf8_char(s))) {
			memcpy(o, s, k);
			o += k;
		} else {
			o += sprintf(o, "\\x%02x", (unsigned char)*s);
			k = 1;
		}
	}
	*o = '\0';
	return o;
}

char *pcost_text_escape(const char *s)
{
	char *out = xmalloc(strlen(s) * 4 + 1);

	pcost_text_escape_to(out, s, NULL);
	return out;
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

int pcost_find_exe(const char *name, char *path, size_t len, char *err, size_t errlen)
{
	struct stat st;
	int e = 0;

	if (!strchr(name, '/')) {
		if (pcost_which(name, path, len))
			return 0;
		snprintf(err, errlen, "could not execute '%s': not found on $PATH", name);
		return -ENOENT;
	}
	if (stat(name, &st) < 0)
		e = errno;
	else if (S_ISDIR(st.st_mode))
		e = EISDIR;
	else if (access(name, X_OK) < 0)
		e = errno;
	if (e) {
		snprintf(err, errlen, "could not execute '%s': %s", name, strerror(e));
		return -e;
	}
	snprintf(path, len, "%s", name);
	return 0;
}

int pcost_refuse_unexecutable(const char *what, const char *name)
{
	char path[PATH_MAX], err[PATH_MAX + 64];

	if (pcost_find_exe(name, path, sizeof(path), err, sizeof(err)) == 0)
		return 0;
	return what ? usage_error("%s: %s", what, err) : usage_error("%s", err);
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

char *pcost_replace_all(const char *s, const char *from, const char *to)
{
	size_t fl = strlen(from), tl = strlen(to), n = 0, o = 0;
	const char *p, *q;
	char *out;

	for (p = s; (q = strstr(p, from)); p = q + fl)
		n++;
	out = xmalloc(strlen(s) + n * tl + 1);
	for (p = s; (q = strstr(p, from)); p = q + fl) {
		memcpy(out + o, p, (size_t)(q - p));
		o += (size_t)(q - p);
		/* The terminator comes from the strcpy after the loop. */
		memcpy(out + o, to, tl); // NOLINT(bugprone-not-null-terminated-result)
		o += tl;
	}
	strcpy(out + o, p);
	return out;
}
