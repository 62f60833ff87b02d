// SPDX-License-Identifier: MIT
/*
 * wrap: monitors that prefix the workload's argv (perf stat/record/trace,
 * strace, ltrace, valgrind, and a user's own wrapper command).  Output a tool
 * writes ("{TMP}") goes to the file "out" in a private 0700 directory made
 * by mkdtemp (nobody else can plant a link at that name), created 0600 before
 * each run, parsed by stop() where it holds a count (perf record's: its
 * samples), and removed with its directory by cleanup, by the undo stack, or
 * by the next sweep.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/cleanup.h"
#include "core/journal.h"
#include "core/proc.h"
#include "core/tracefs.h"
#include "monitors/monitor.h"
#include "monitors/monitor_table.h"
#include "monitors/perf_data.h"
#include "workloads/workload.h"

enum wrap_parse { PARSE_NONE, PARSE_STRACE_COUNT, PARSE_PERF_TRACE, PARSE_PERF_RECORD };

struct wrap_monitor {
	struct pcost_monitor m;
	char **words; /* prefix words; "{TMP}" is replaced by the temp file */
	size_t nwords;
	size_t at; /* custom: index of "{}" in words, or nwords (at the end) */
	enum wrap_parse parse;
	bool uses_tmp;
	bool needs_tracefs;	/* perf trace: mounted by us (and put back) rather than by perf */
	char dir[PATH_MAX];	/* private 0700 directory, "" when none */
	char tmp[PATH_MAX + 8]; /* dir/out: the tool's output file */
	char tmp_old[PATH_MAX + 16]; /* perf record renames an old output to FILE.old */
	int undo;		     /* cleanup handle, -1 */
};

static void unlink_tmp(void *arg)
{
	struct wrap_monitor *w = arg;

	/* async-signal-safe: unlink and rmdir only */
	if (w->dir[0]) {
		unlink(w->tmp);
		unlink(w->tmp_old);
		rmdir(w->dir);
	}
}

static int wrap_prepare(struct pcost_monitor *m, char *err, size_t len)
{
	struct wrap_monitor *w = container_of(m, struct wrap_monitor, m);
	int rc;

	if (w->needs_tracefs && (rc = pcost_tracefs_mount(err, len)) < 0)
		return rc;
	if (!w->uses_tmp || w->dir[0])
		return 0;
	if ((rc = pcost_private_dir_make(w->dir, sizeof(w->dir), err, len)) < 0)
		return rc;
	snprintf(w->tmp, sizeof(w->tmp), "%s/out", w->dir);
	snprintf(w->tmp_old, sizeof(w->tmp_old), "%s.old", w->tmp);
	w->undo = pcost_cleanup_push(unlink_tmp, w);
	return 0;
}

static int wrap_wrap(struct pcost_monitor *m, struct pcost_launch *l)
{
	struct wrap_monitor *w = container_of(m, struct wrap_monitor, m);
	size_t nwork = l->argc;

	/* Replace the workload: words[0..at) + workload + words[at+1..] (or words + workload). */
	for (size_t i = 0; i < w->nwords; i++) {
		if (i == w->at)
			continue;
		const char *word = !strcmp(w->words[i], "{TMP}") ? w->tmp : w->words[i];
		size_t pos = i < w->at ? i : i - 1 + nwork;
		char pid[24], *with_pid = NULL;

		if (m->service_pid > 0) {
			snprintf(pid, sizeof(pid), "%d", (int)m->service_pid);
			word = with_pid = pcost_replace_all(word, "{pid}", pid);
		}
		pcost_launch_insert(l, pos, (char *const *)&word, 1);
		free(with_pid);
	}
	if (w->dir[0]) {
		/* A fresh empty file per run, 0600 (perf would rename an old one away). */
		int fd;

		unlink(w->tmp);
		fd = open(w->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0)
			return -errno;
		close(fd);
	}
	return 0;
}

/*
 * strace -c: the calls (4th column) of the row named want ("getppid"), or of
 * the "total" row when want is NULL: "100.00 0.0123 1 4567 12 total".  A
 * syscall strace never saw has no row: 0 when the table is there.
 */
static int64_t strace_calls(const char *text, const char *want)
{
	const char *line = text, *nl;
	int64_t calls = -1, total = -1;

	for (; line && *line; line = nl ? nl + 1 : NULL) {
		char f[6][32], one[256];
		int n;

		/* One line at a time: %s would read on into the next one. */
		nl = strchr(line, '\n');
		snprintf(one, sizeof(one), "%.*s", (int)(nl ? nl - line : (ptrdiff_t)strlen(line)),
			 line);
		n = sscanf(one, "%31s %31s %31s %31s %31s %31s", f[0], f[1], f[2], f[3], f[4],
			   f[5]);
		if (n >= 5 && !strcmp(f[n - 1], "total"))
			total = strtoll(f[3], NULL, 10);
		else if (n >= 5 && want && !strcmp(f[n - 1], want))
			calls = strtoll(f[3], NULL, 10);
	}
	if (!want || total < 0)
		return total;
	return calls < 0 ? 0 : calls;
}

/*
 * perf trace: one line per syscall, "7.137 ( 0.001 ms): pc-syscall/2428
 * getppid()  = 1"; a call cut by another line ends on a "... [continued]:"
 * line, counted once with its start.  want NULL: every syscall line.
 */
static int64_t perf_trace_calls(const char *text, const char *want, uint64_t *lost)
{
	const char *line = text, *nl;
	size_t wl = want ? strlen(want) : 0;
	int64_t calls = 0;

	*lost = 0;
	for (; line && *line; line = nl ? nl + 1 : NULL) {
		const char *end, *name;

		nl = strchr(line, '\n');
		end = nl ? nl : line + strlen(line);
		if (!strncmp(line, "LOST ", 5)) {
			*lost += strtoull(line + 5, NULL, 10);
			continue;
		}
		name = memmem(line, (size_t)(end - line), "): ", 3);
		if (!name || memmem(line, (size_t)(end - line), "[continued]:", 12))
			continue;
		/* The thread "comm/tid" then the call: skip to the word after it. */
		name = memchr(name + 3, ' ', (size_t)(end - name - 3));
		if (!name)
			continue;
		name++;
		if (!want || (!strncmp(name, want, wl) && name[wl] == '('))
			calls++;
	}
	return calls;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0;

	if (!f)
		return NULL;
	if (getdelim(&buf, &len, 0, f) < 0) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

static int wrap_stop(struct pcost_monitor *m, struct pcost_run_sample *smp)
{
	struct wrap_monitor *w = container_of(m, struct wrap_monitor, m);
	/* Count the workload's own syscall where its report names one. */
	const char *want = smp->event_syscall >= 0 ? pcost_syscall_name(smp->event_syscall) : NULL;
	char *text;

	if (!w->dir[0])
		return 0;
	if (w->parse == PARSE_PERF_RECORD && !smp->failed)
		smp->monitor_events = pcost_perf_data_samples(w->tmp);
	text = (w->parse == PARSE_STRACE_COUNT || w->parse == PARSE_PERF_TRACE) && !smp->failed
		       ? slurp(w->tmp)
		       : NULL;
	if (text && w->parse == PARSE_STRACE_COUNT) {
		smp->monitor_events = strace_calls(text, want);
	} else if (text && w->parse == PARSE_PERF_TRACE) {
		/* perf trace marks dropped events with "LOST N events!" lines. */
		uint64_t lost;

		smp->monitor_events = perf_trace_calls(text, want, &lost);
		if (lost)
			snprintf(m->note, sizeof(m->note), "perf trace lost %llu events",
				 (unsigned long long)lost);
	}
	free(text);
	unlink(w->tmp);
	unlink(w->tmp_old);
	return 0;
}

static void wrap_cleanup(struct pcost_monitor *m)
{
	struct wrap_monitor *w = container_of(m, struct wrap_monitor, m);

	if (w->undo >= 0) {
		pcost_cleanup_pop(w->undo, 1);
		w->undo = -1;
	}
	pcost_private_dir_remove(w->dir);
	w->dir[0] = 0;
}

static void wrap_free(struct pcost_monitor *m)
{
	struct wrap_monitor *w = container_of(m, struct wrap_monitor, m);

	wrap_cleanup(m);
	pcost_argv_free(w->words);
	free(w);
}

static bool wrap_available(const struct pcost_monitor *m, char *why, size_t len)
{
	const struct wrap_monitor *w = container_of(m, struct wrap_monitor, m);
	const struct pcost_monitor_def *d = pcost_monitor_def_find(m->name);

	/* A table row with a parameter: "strace-seccomp:trace=getppid". */
	if (!d && !strpbrk(m->name, " \t'\"/")) {
		char base[96];

		snprintf(base, sizeof(base), "%.*s", (int)strcspn(m->name, ":"), m->name);
		d = pcost_monitor_def_find(base);
	}

	if (d)
		return pcost_monitor_def_available(d, why, len);
	/* Custom: its command must exist. */
	if (w->words[0][0] != '{' && !strchr(w->words[0], '/') &&
	    !pcost_which(w->words[0], NULL, 0)) {
		snprintf(why, len, "'%s' is not on $PATH", w->words[0]);
		return false;
	}
	return true;
}

static const struct pcost_monitor_ops wrap_ops = {
	.kind = PCOST_MON_WRAP,
	.available = wrap_available,
	.prepare = wrap_prepare,
	.wrap = wrap_wrap,
	.stop = wrap_stop,
	.cleanup = wrap_cleanup,
	.free = wrap_free,
};

static struct pcost_monitor *wrap_new(const char *name, const char *const *words,
				      enum wrap_parse parse)
{
	struct wrap_monitor *w = xcalloc(1, sizeof(*w));
	size_t n = 0;

	while (words[n])
		n++;
	w->m.ops = &wrap_ops;
	snprintf(w->m.name, sizeof(w->m.name), "%s", name);
	w->words = xcalloc(n + 1, sizeof(*w->words));
	for (size_t i = 0; i < n; i++) {
		w->words[i] = xstrdup(words[i]);
		w->uses_tmp |= !strcmp(words[i], "{TMP}");
	}
	w->nwords = n;
	w->at = n;
	w->parse = parse;
	w->needs_tracefs = parse == PARSE_PERF_TRACE;
	w->undo = -1;
	return &w->m;
}

#define WRAP_FACTORY(fn, name, parse, ...)                                                         \
	static struct pcost_monitor *fn(const char *arg, char *err, size_t len)                    \
	{                                                                                          \
		static const char *const words[] = { __VA_ARGS__, NULL };                          \
		if (arg) {                                                                         \
			snprintf(err, len, "monitor '%s' takes no ':' arguments", name);           \
			return NULL;                                                               \
		}                                                                                  \
		return wrap_new(name, words, parse);                                               \
	}

/* perf stat's default event list: software events, plus hardware ones where a PMU exists. */
WRAP_FACTORY(perf_stat_new, "perf-stat", PARSE_NONE, "perf", "stat", "-o", "{TMP}", "--")
WRAP_FACTORY(perf_trace_new, "perf-trace", PARSE_PERF_TRACE, "perf", "trace", "-o", "{TMP}", "--")
WRAP_FACTORY(strace_new, "strace", PARSE_NONE, "strace", "-f", "-qq", "-o", "/dev/null", "--")
WRAP_FACTORY(strace_count_new, "strace-count", PARSE_STRACE_COUNT, "strace", "-f", "-c", "-o",
	     "{TMP}", "--")
WRAP_FACTORY(ltrace_new, "ltrace", PARSE_NONE, "ltrace", "-f", "-o", "/dev/null", "--")
WRAP_FACTORY(valgrind_new, "valgrind", PARSE_NONE, "valgrind", "--tool=none", "-q",
	     "--log-file=/dev/null")
WRAP_FACTORY(memcheck_new, "memcheck", PARSE_NONE, "valgrind", "--tool=memcheck", "-q",
	     "--log-file=/dev/null")

const struct pcost_monitor_def pcost_monitor_def_perf_stat = {
	"perf-stat",  PCOST_MON_WRAP, "perf stat (software events; hardware too with a PMU)",
	"perf",	      "linux-perf",   pcost_monitor_perf_ok,
	perf_stat_new
};
const struct pcost_param_desc pcost_monitor_perf_record_params[] = {
	{ "freq", PCOST_PARAM_U64, 0, 1, 100000, NULL,
	  "samples per second of CPU time (perf record -F; default perf's own, 4000)" },
	{ 0 },
};

/* perf-record, or perf-record:freq=N for perf record -F N (samples per CPU second). */
static struct pcost_monitor *perf_record_new(const char *arg, char *err, size_t len)
{
	const struct pcost_param_desc *d = &pcost_monitor_perf_record_params[0];
	char freq[24], name[48];
	uint64_t hz;

	if (!arg) {
		const char *const words[] = { "perf", "record", "-q",	 "-e", "cpu-clock",
					      "-g",   "-o",	"{TMP}", "--", NULL };

		return wrap_new("perf-record", words, PARSE_PERF_RECORD);
	}
	if (strncmp(arg, "freq=", 5) || pcost_parse_u64(arg + 5, d->min, d->max, &hz) < 0) {
		snprintf(err, len,
			 "monitor 'perf-record' takes ':freq=N' with N in %llu..%llu "
			 "samples a second, e.g. perf-record:freq=999",
			 (unsigned long long)d->min, (unsigned long long)d->max);
		return NULL;
	}
	snprintf(freq, sizeof(freq), "%llu", (unsigned long long)hz);
	snprintf(name, sizeof(name), "perf-record:freq=%s", freq);
	{
		const char *const words[] = { "perf", "record", "-q", "-e",    "cpu-clock", "-F",
					      freq,   "-g",	"-o", "{TMP}", "--",	    NULL };

		return wrap_new(name, words, PARSE_PERF_RECORD);
	}
}

const struct pcost_monitor_def pcost_monitor_def_perf_record = {
	"perf-record",
	PCOST_MON_WRAP,
	"perf record -e cpu-clock -g to a private temp file (perf-record:freq=N: -F N)",
	"perf",
	"linux-perf",
	pcost_monitor_perf_ok,
	perf_record_new
};
const struct pcost_monitor_def pcost_monitor_def_perf_trace = {
	"perf-trace",  PCOST_MON_WRAP, "perf trace (every syscall, output to a temp file)",
	"perf",	       "linux-perf",   pcost_monitor_perf_trace_ok,
	perf_trace_new
};
const struct pcost_monitor_def pcost_monitor_def_strace = {
	"strace", PCOST_MON_WRAP, "strace -f, output discarded", "strace", "strace",
	NULL,	  strace_new
};
const struct pcost_monitor_def pcost_monitor_def_strace_count = {
	"strace-count",	 PCOST_MON_WRAP, "strace -f -c (counts syscalls: its own event count)",
	"strace",	 "strace",	 NULL,
	strace_count_new
};
const struct pcost_monitor_def pcost_monitor_def_ltrace = {
	"ltrace", PCOST_MON_WRAP, "ltrace -f, output discarded", "ltrace", "ltrace",
	NULL,	  ltrace_new
};
const struct pcost_monitor_def pcost_monitor_def_valgrind = {
	"valgrind", PCOST_MON_WRAP, "valgrind --tool=none (the JIT alone)", "valgrind", "valgrind",
	NULL,	    valgrind_new
};
const struct pcost_monitor_def pcost_monitor_def_memcheck = {
	"memcheck", PCOST_MON_WRAP, "valgrind --tool=memcheck", "valgrind", "valgrind",
	NULL,	    memcheck_new
};

/*
 * strace-seccomp:trace=SET: strace stops the tracee only for the syscalls in
 * SET (a seccomp-bpf filter decides in the kernel); the others run at full
 * speed.  SET is strace's own -e trace= syntax, passed as one argv word.
 */
static struct pcost_monitor *strace_seccomp_new(const char *arg, char *err, size_t len)
{
	const char *set = arg && !strncmp(arg, "trace=", 6) ? arg + 6 : NULL;
	char expr[96], name[96];

	if (!set || !*set || strlen(set) > 64 ||
	    set[strspn(set, "abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_,%!?-")]) {
		snprintf(err, len,
			 "monitor 'strace-seccomp' needs ':trace=SET' with SET a list of "
			 "syscalls or %%classes (letters, digits, _ , %% ! ? -; at most 64), e.g. "
			 "strace-seccomp:trace=getppid");
		return NULL;
	}
	snprintf(expr, sizeof(expr), "trace=%s", set);
	snprintf(name, sizeof(name), "strace-seccomp:trace=%s", set);
	{
		const char *const words[] = { "strace", "-f", "--seccomp-bpf",
					      "-qq",	"-o", "/dev/null",
					      "-e",	expr, "--",
					      NULL };

		return wrap_new(name, words, PARSE_NONE);
	}
}

/* --seccomp-bpf came with strace 5.3. */
static bool strace_seccomp_ok(char *why, size_t len)
{
	char *const argv[] = { "strace", "-V", NULL };
	struct pcost_proc p;
	int major = 0, minor = 0;
	const char *v;

	if (pcost_proc_start(&p, argv) < 0 || pcost_proc_stop(&p, 0, 5000000000ULL) < 0) {
		pcost_proc_release(&p);
		snprintf(why, len, "could not run 'strace -V'");
		return false;
	}
	v = p.buf ? strstr(p.buf, "version ") : NULL;
	if (v)
		sscanf(v + 8, "%d.%d", &major, &minor);
	pcost_proc_release(&p);
	if (major < 5 || (major == 5 && minor < 3)) {
		snprintf(why, len,
			 "strace %d.%d has no --seccomp-bpf: install strace 5.3 or later "
			 "(Debian package strace)",
			 major, minor);
		return false;
	}
	return true;
}

const struct pcost_monitor_def pcost_monitor_def_strace_seccomp = {
	"strace-seccomp",
	PCOST_MON_WRAP,
	"strace -f --seccomp-bpf -e trace=SET: stops only for SET (strace-seccomp:trace=getppid)",
	"strace",
	"strace",
	strace_seccomp_ok,
	strace_seccomp_new
};

/* Does a word of words hold part (exactly "{}"; "{pid}" anywhere in a word)? */
static bool has_word_part(char **words, const char *part)
{
	for (size_t i = 0; words[i]; i++)
		if (!strcmp(part, "{}") ? !strcmp(words[i], part) : !!strstr(words[i], part))
			return true;
	return false;
}

/*
 * -m 'CMD ARGS': the user's wrapper, split into argv (no shell); "{}" marks the
 * workload.  With "{pid}" (run --service) and no "{}", it is pointed at the
 * service: an attach monitor, started beside each run, ready at once.
 */
static struct pcost_monitor *custom_new(const char *line, char *err, size_t len)
{
	struct pcost_monitor *m;
	struct wrap_monitor *w;
	char **words;
	int n = pcost_argv_split(line, &words);

	if (n < 0) {
		snprintf(err, len, "custom monitor '%s': unterminated quote or empty command",
			 line);
		return NULL;
	}
	for (int i = 0, seen = 0; i < n; i++)
		if (!strcmp(words[i], "{}") && seen++) {
			snprintf(err, len,
				 "custom monitor '%s': '{}' (where the workload goes) is "
				 "there twice; give it once, or leave it out for the end",
				 line);
			pcost_argv_free(words);
			return NULL;
		}
	if (has_word_part(words, "{pid}") && !has_word_part(words, "{}")) {
		/* Pointed at the service, not wrapping the load generator: it runs beside. */
		pcost_argv_free(words);
		m = pcost_monitor_attach_create(line, NULL, err, len);
		if (m)
			snprintf(m->name, sizeof(m->name), "%s", line);
		return m;
	}
	m = wrap_new("custom", (const char *const *)words, PARSE_NONE);
	w = container_of(m, struct wrap_monitor, m);
	for (size_t i = 0; i < w->nwords; i++)
		if (!strcmp(w->words[i], "{}"))
			w->at = i;
	snprintf(m->name, sizeof(m->name), "%s", line);
	pcost_argv_free(words);
	return m;
}

const struct pcost_monitor_def pcost_monitor_def_custom = {
	"'CMD ARGS'", PCOST_MON_WRAP, "your own wrapper command; {} marks where the workload goes",
	NULL,	      NULL,	      NULL,
	custom_new
};
