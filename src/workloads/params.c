// SPDX-License-Identifier: MIT
/* workloads/params: key=value parameters of the built-in workloads, and their report line. */
#include "workloads/workload.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The syscalls the syscall workload may make by name (the table below). */
#define HARMLESS_NAMES "getppid, getpid, gettid, getuid, geteuid, getgid, getegid, sched_yield"

/* A name of the table below: its number, 0; -ENOENT when it has none. */
static int syscall_lookup(const char *name, long *nr);

int pcost_param_index(const struct pcost_workload *wl, const char *key)
{
	for (int i = 0; wl->params && wl->params[i].key; i++)
		if (!strcmp(wl->params[i].key, key))
			return i;
	return -1;
}

static int param_must(const struct pcost_params *p, const char *key)
{
	int i = pcost_param_index(p->wl, key);

	if (i < 0) {
		fprintf(stderr, "probecost: BUG: workload '%s' has no parameter '%s'\n",
			p->wl->name, key);
		abort();
	}
	return i;
}

uint64_t pcost_param_get(const struct pcost_params *p, const char *key)
{
	return p->v[param_must(p, key)];
}

const char *pcost_param_text(const struct pcost_params *p, const char *key)
{
	const char *t = p->text[param_must(p, key)];

	return t ? t : "";
}

/* A TEXT value passes through argv words and a k=v list split at blanks: none of those in it. */
static bool text_ok(const char *val)
{
	size_t n = strlen(val);

	if (!n || n > PCOST_PARAM_TEXT_MAX)
		return false;
	for (const char *c = val; *c; c++)
		if (*c <= ' ' || *c > '~' || *c == '"' || *c == '\'' || *c == '\\')
			return false;
	return true;
}

/* Index of word in "a|b|c", or -1. */
static int choice_index(const char *choices, const char *word)
{
	size_t wlen = strlen(word);
	int i = 0;

	for (const char *c = choices; c && *c; i++) {
		const char *bar = strchr(c, '|');
		size_t n = bar ? (size_t)(bar - c) : strlen(c);

		if (n == wlen && !strncmp(c, word, n))
			return i;
		c = bar ? bar + 1 : NULL;
	}
	return -1;
}

static void param_range(const struct pcost_param_desc *d, char *buf, size_t len)
{
	switch (d->type) {
	case PCOST_PARAM_ENUM:
		snprintf(buf, len, "one of %s", d->choices);
		break;
	case PCOST_PARAM_SYSCALL:
		snprintf(buf, len, "a syscall name (getppid) or a number 0-%llu",
			 (unsigned long long)d->max);
		break;
	case PCOST_PARAM_TEXT:
		snprintf(buf, len,
			 "a word of up to %d printable characters, without blanks, quotes or "
			 "backslashes",
			 PCOST_PARAM_TEXT_MAX);
		break;
	default:
		snprintf(buf, len, "an integer %llu-%llu", (unsigned long long)d->min,
			 (unsigned long long)d->max);
	}
}

static int known_keys(const struct pcost_workload *wl, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; wl->params && wl->params[i].key && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", i ? ", " : "", wl->params[i].key);
	return (int)off;
}

int pcost_params_parse(const struct pcost_workload *wl, int argc, char **argv,
		       struct pcost_params *p, char *err, size_t errlen)
{
	char range[160], keys[200], why[200];

	memset(p, 0, sizeof(*p));
	p->wl = wl;
	for (int i = 0; wl->params && wl->params[i].key; i++)
		p->v[i] = wl->params[i].def;

	for (int a = 0; a < argc; a++) {
		const char *eq = strchr(argv[a], '=');
		const struct pcost_param_desc *d;
		char key[64];
		const char *val;
		int i, rc;

		if (!eq || eq == argv[a] || (size_t)(eq - argv[a]) >= sizeof(key)) {
			snprintf(err, errlen, "workload %s: '%s' is not key=value", wl->name,
				 argv[a]);
			return -EINVAL;
		}
		snprintf(key, sizeof(key), "%.*s", (int)(eq - argv[a]), argv[a]);
		val = eq + 1;
		i = pcost_param_index(wl, key);
		if (i < 0) {
			known_keys(wl, keys, sizeof(keys));
			snprintf(err, errlen, "workload %s: unknown parameter '%s' (known: %s)",
				 wl->name, key, *keys ? keys : "none");
			return -EINVAL;
		}
		d = &wl->params[i];
		param_range(d, range, sizeof(range));
		switch (d->type) {
		case PCOST_PARAM_ENUM:
			rc = choice_index(d->choices, val);
			if (rc < 0) {
				snprintf(err, errlen, "workload %s: %s='%s' is not valid: %s",
					 wl->name, key, val, range);
				return -EINVAL;
			}
			p->v[i] = (uint64_t)rc;
			break;
		case PCOST_PARAM_TEXT:
			if (!text_ok(val)) {
				snprintf(err, errlen, "workload %s: %s='%s' is not valid: %s",
					 wl->name, key, val, range);
				return -EINVAL;
			}
			p->text[i] = val;
			p->v[i] = 1;
			break;
		case PCOST_PARAM_SYSCALL: {
			long nr;

			if (syscall_lookup(val, &nr) == 0) {
				p->v[i] = (uint64_t)nr;
				break;
			}
			if (pcost_parse_u64(val, d->min, d->max, &p->v[i]) < 0) {
				snprintf(err, errlen, "workload %s: %s='%s' is not valid: %s",
					 wl->name, key, val, range);
				return -EINVAL;
			}
			if (p->v[i] < PCOST_SYSCALL_NONE_MIN &&
			    !pcost_syscall_name((long)p->v[i])) {
				snprintf(
					err, errlen,
					"workload %s: %s=%s is refused: the call would run "
					"with whatever its registers hold; give one that only reads "
					"(%s) or a number from %d up, which no kernel has (ENOSYS)",
					wl->name, key, val, HARMLESS_NAMES, PCOST_SYSCALL_NONE_MIN);
				return -EINVAL;
			}
			break;
		}
		default:
			rc = pcost_parse_u64(val, d->min, d->max, &p->v[i]);
			if (rc < 0) {
				snprintf(err, errlen, "workload %s: %s='%s' %s: %s", wl->name, key,
					 val, rc == -ERANGE ? "is out of range" : "is not a number",
					 range);
				return -EINVAL;
			}
		}
		if (p->given[i]) {
			snprintf(err, errlen, "workload %s: %s is given twice; give it once",
				 wl->name, key);
			return -EINVAL;
		}
		p->given[i] = true;
	}
	if (wl->check_params && wl->check_params(p, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "workload %s: %s", wl->name, why);
		return -EINVAL;
	}
	return 0;
}

void pcost_param_value_format(const struct pcost_param_desc *d, uint64_t v, char *buf, size_t len)
{
	if (d->type == PCOST_PARAM_ENUM) {
		const char *c = d->choices;

		for (uint64_t k = 0; k < v && c; k++) {
			c = strchr(c, '|');
			c = c ? c + 1 : NULL;
		}
		if (!c)
			c = "?";
		snprintf(buf, len, "%.*s", (int)strcspn(c, "|"), c);
	} else if (d->type == PCOST_PARAM_TEXT) {
		if (len)
			buf[0] =
				'\0'; /* a TEXT parameter has no default: v only says it was given */
	} else if (d->type == PCOST_PARAM_SYSCALL && pcost_syscall_name((long)v)) {
		snprintf(buf, len, "%s", pcost_syscall_name((long)v));
	} else {
		snprintf(buf, len, "%llu", (unsigned long long)v);
	}
}

void pcost_params_format(const struct pcost_params *p, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; p->wl->params && p->wl->params[i].key && off < len; i++) {
		const struct pcost_param_desc *d = &p->wl->params[i];
		char val[PCOST_PARAM_TEXT_MAX + 1];

		/* A TEXT parameter has no default to write back. */
		if (!p->given[i] &&
		    (d->type == PCOST_PARAM_TEXT || pcost_list_has(p->wl->quiet, d->key)))
			continue;
		if (d->type == PCOST_PARAM_TEXT)
			snprintf(val, sizeof(val), "%s", p->text[i] ? p->text[i] : "");
		else
			pcost_param_value_format(d, p->v[i], val, sizeof(val));
		off += snprintf(buf + off, len - off, "%s%s=%s", off ? " " : "", d->key, val);
	}
}

/*
 * The calls the syscall workload may make: no arguments are set up, so only
 * calls that take none and change nothing (they read an id, or yield).  Any
 * other number must be one no kernel has (>= PCOST_SYSCALL_NONE_MIN): the
 * kernel's entry and exit alone, ENOSYS.
 */
static const struct {
	const char *name;
	long nr;
} syscalls[] = {
	{ "getppid", SYS_getppid }, { "getpid", SYS_getpid },		{ "gettid", SYS_gettid },
	{ "getuid", SYS_getuid },   { "geteuid", SYS_geteuid },		{ "getgid", SYS_getgid },
	{ "getegid", SYS_getegid }, { "sched_yield", SYS_sched_yield },
};

static int syscall_lookup(const char *name, long *nr)
{
	for (size_t i = 0; i < ARRAY_SIZE(syscalls); i++) {
		if (!strcmp(syscalls[i].name, name)) {
			*nr = syscalls[i].nr;
			return 0;
		}
	}
	return -ENOENT;
}

const char *pcost_syscall_name(long nr)
{
	for (size_t i = 0; i < ARRAY_SIZE(syscalls); i++)
		if (syscalls[i].nr == nr)
			return syscalls[i].name;
	return NULL;
}

/* " check=ok", or " check=bad why=\"...\"" (a quote or line break in the reason becomes '). */
static void format_check(const struct pcost_wl_result *r, char *buf, size_t len)
{
	size_t n;

	buf[0] = '\0';
	if (!r->check)
		return;
	n = (size_t)snprintf(buf, len, " check=%s", r->check > 0 ? "ok" : "bad");
	if (r->check > 0 || n >= len)
		return;
	snprintf(buf + n, len - n, " why=\"%s\"", r->check_why[0] ? r->check_why : "unsaid");
	for (char *p = buf + n + 6; *p && p[1]; p++)
		if (*p == '"' || *p == '\n' || *p == '\r')
			*p = '\'';
}

int pcost_workload_report(const struct pcost_workload *wl, const struct pcost_wl_result *r)
{
	const char *env = getenv("PROBECOST_REPORT_FD");
	uint64_t fd;
	char line[1024], check[sizeof(r->check_why) + 32];
	int n;

	if (!env || !*env)
		return 1;
	if (pcost_parse_u64(env, 0, 1 << 20, &fd) < 0)
		return -EBADF;
	if (fcntl((int)fd, F_GETFD) < 0)
		return -EBADF;
	format_check(r, check, sizeof(check));
	n = snprintf(line, sizeof(line), "events=%llu unit=%s timed_ns=%llu%s%s\n",
		     (unsigned long long)r->events, wl->unit, (unsigned long long)r->timed_ns,
		     r->extra, check);
	if (n < 0 || (size_t)n >= sizeof(line))
		return -EOVERFLOW;
	if (write((int)fd, line, (size_t)n) != n)
		return -errno;
	return 0;
}

/* The next KEY=VALUE word of *p (VALUE may be "quoted", spaces and all): 0, 1 at the end, -EINVAL. */
static int next_fact(char **p, char **key, char **val)
{
	char *s = *p + strspn(*p, " \t\n"), *eq;

	if (!*s)
		return 1;
	*key = s;
	eq = s + strcspn(s, "= \t\n");
	if (*eq != '=' || eq == s)
		return -EINVAL;
	*eq = '\0';
	*val = eq + 1;
	if (**val == '"') {
		char *end = strchr(++*val, '"');

		if (!end)
			return -EINVAL;
		*end = '\0';
		*p = end + 1;
		return 0;
	}
	s = *val + strcspn(*val, " \t\n");
	*p = s + (*s != '\0');
	*s = '\0';
	return 0;
}

int pcost_report_parse(const char *line, uint64_t *events, char *unit, size_t unitlen,
		       pcost_ns *timed_ns,
		       void (*other)(const char *key, const char *val, void *ctx), void *ctx)
{
	char buf[2048], *p = buf, *key, *val;
	bool have_events = false;
	int rc;

	snprintf(buf, sizeof(buf), "%s", line);
	*events = 0;
	*timed_ns = 0;
	if (unit && unitlen)
		unit[0] = '\0';
	while ((rc = next_fact(&p, &key, &val)) == 0) {
		uint64_t v;

		if (!strcmp(key, "events")) {
			if (pcost_parse_u64(val, 0, UINT64_MAX, &v) < 0)
				return -EINVAL;
			*events = v;
			have_events = true;
		} else if (!strcmp(key, "timed_ns")) {
			if (pcost_parse_u64(val, 0, UINT64_MAX, &v) < 0)
				return -EINVAL;
			*timed_ns = v;
		} else if (!strcmp(key, "unit")) {
			if (unit && unitlen)
				snprintf(unit, unitlen, "%s", val);
		} else if (other) {
			other(key, val, ctx);
		}
	}
	return rc < 0 || !have_events ? -EINVAL : 0;
}
