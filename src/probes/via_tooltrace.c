// SPDX-License-Identifier: MIT
/*
 * probes/via_tooltrace: arm SDT probes through a tracer that runs beside the
 * workload and counts the hits itself: bpftrace (usdt: probes, a BPF map
 * count) and SystemTap (process().mark(), a kernel module).  The tracer is
 * started before each run, known ready when its BEGIN prints a marker (BEGIN
 * runs after every probe is attached), stopped with SIGINT (bpftrace: SIGTERM,
 * sent again while it polls, see monitor.h) after the run, and
 * its count parsed from what its END printed.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "core/cleanup.h"
#include "core/proc.h"
#include "probes/arm.h"

#define READY "pcost-ready"
#define MAX_PROBES 64
#define GRACE_NS (10ull * 1000 * 1000 * 1000)

struct tool_state {
	char *script;
	struct pcost_proc proc;
	bool running;
	char tree[PATH_MAX]; /* stap-bpf: the kernel build tree (-r), "" for the others */
	int undo;	     /* stap-bpf: cleanup.h handle of a synthesized tree, -1 none */
};

struct tool_desc {
	const char *exe;
	/* Append the script for probes first[0..n) to *buf. */
	void (*script)(const struct pcost_probe_arm *a, const size_t *first, size_t n, char *buf,
		       size_t len);
	/* argv: exe, options..., script, NULL. */
	const char *opts[4];
	const char *count_key; /* "@hits: " / "hits=" */
};

static size_t add(char *buf, size_t len, size_t off, const char *fmt, const char *a, const char *b,
		  const char *c)
{
	int n;

	if (off >= len)
		return off;
	n = snprintf(buf + off, len - off, fmt, a, b, c);
	return n < 0 ? off : off + (size_t)n;
}

/* bpftrace: "usdt:PATH:PROV:NAME,... { @hits = count(); }" */
static void bpftrace_script(const struct pcost_probe_arm *a, const size_t *first, size_t n,
			    char *buf, size_t len)
{
	size_t off = add(buf, len, 0, "BEGIN { printf(\"%s\\n\"); }\n%s%s", READY, "", "");

	for (size_t i = 0; i < n; i++) {
		const struct pcost_probe_site *s = &a->sites[first[i]];

		if (i)
			off = add(buf, len, off, ",\n%s%s%s", "", "", "");
		if (s->symbol[0])
			off = add(buf, len, off, "%s:%s:%s", s->retprobe ? "uretprobe" : "uprobe",
				  a->path, s->symbol);
		else
			off = add(buf, len, off, "usdt:%s:%s:%s", a->path, s->provider, s->name);
	}
	add(buf, len, off,
	    " { @hits = count(); }\nEND { printf(\"hits=\"); print(@hits); "
	    "clear(@hits); }\n%s%s%s",
	    "", "", "");
}

/* SystemTap: process("PATH").provider("PROV").mark("NAME") */
static void stap_script(const struct pcost_probe_arm *a, const size_t *first, size_t n, char *buf,
			size_t len)
{
	size_t off = add(buf, len, 0, "global hits\nprobe begin { printf(\"%s\\n\") }\n%s%s", READY,
			 "", "");

	for (size_t i = 0; i < n; i++) {
		const struct pcost_probe_site *s = &a->sites[first[i]];

		off = add(buf, len, off, "%s%s%s", i ? ",\n  " : "probe ", "", "");
		if (s->symbol[0])
			off = add(buf, len, off, "process(\"%s\").function(\"%s\")%s", a->path,
				  s->symbol, s->retprobe ? ".return" : "");
		else
			off = add(buf, len, off, "process(\"%s\").provider(\"%s\").mark(\"%s\")",
				  a->path, s->provider, s->name);
	}
	add(buf, len, off, " { hits++ }\nprobe end { printf(\"hits=%%d\\n\", hits) }\n%s%s%s", "",
	    "", "");
}

static const struct tool_desc bpftrace_desc = {
	.exe = "bpftrace",
	.script = bpftrace_script,
	.opts = { "-e" },
	.count_key = "hits=@hits: ",
};
/* -DSTP_NO_OVERLOAD: seed 002's runs needed it to finish at all. */
static const struct tool_desc stap_desc = {
	.exe = "stap",
	.script = stap_script,
	.opts = { "-DSTP_NO_OVERLOAD", "-e" },
	.count_key = "hits=",
};

/* SystemTap's BPF back end (stapbpf): no kernel module, no STP_NO_OVERLOAD. */
static const struct tool_desc stap_bpf_desc = {
	.exe = "stap",
	.script = stap_script,
	.opts = { "--runtime=bpf", "-e" },
	.count_key = "hits=",
};

static const struct tool_desc *desc_of(const struct pcost_probe_arm *a)
{
	if (a->method == &pcost_probe_stap_bpf)
		return &stap_bpf_desc;
	return a->method == &pcost_probe_stap ? &stap_desc : &bpftrace_desc;
}

static int tool_prepare(struct pcost_monitor *m, char *err, size_t len)
{
	struct pcost_probe_arm *a = PCOST_PROBE_ARM(m);
	struct tool_state *st;
	size_t first[MAX_PROBES], n;

	if (a->priv)
		return 0;
	if (!pcost_probe_method_available(a->method, err, len))
		return -ENODEV;
	st = xcalloc(1, sizeof(*st));
	st->undo = -1;
	st->script = xcalloc(1, 16384);
	n = pcost_probe_arm_distinct(a, first, MAX_PROBES);
	desc_of(a)->script(a, first, n, st->script, 16384);
	a->priv = st;
	if (a->method == &pcost_probe_stap_bpf)
		return pcost_stap_bpf_tree(st->tree, sizeof(st->tree), &st->undo, err, len);
	return 0;
}

static int tool_start(struct pcost_monitor *m, pcost_ns timeout_ns, char *err, size_t len)
{
	struct pcost_probe_arm *a = PCOST_PROBE_ARM(m);
	const struct tool_desc *d = desc_of(a);
	struct tool_state *st = a->priv;
	char *argv[10];
	size_t n = 0;
	int rc;

	if (!st)
		return -EINVAL;
	argv[n++] = (char *)d->exe;
	if (st->tree[0]) {
		argv[n++] = "-r";
		argv[n++] = st->tree;
	}
	for (size_t i = 0; i < ARRAY_SIZE(d->opts) && d->opts[i]; i++)
		argv[n++] = (char *)d->opts[i];
	argv[n++] = st->script;
	argv[n] = NULL;
	memset(&st->proc, 0, sizeof(st->proc));
	rc = pcost_proc_start(&st->proc, argv);
	if (rc) {
		snprintf(err, len, "%s: cannot start: %s", d->exe, strerror(-rc));
		return rc;
	}
	st->running = true;
	if (!strcmp(d->exe, "bpftrace"))
		pcost_proc_stop_as_bpftrace(&st->proc);
	rc = pcost_proc_wait_ready(&st->proc, "^" READY, timeout_ns);
	if (rc) {
		char line[200];

		/* Its own first error line (bpftrace's RLIMIT_MEMLOCK notice is harmless). */
		pcost_proc_error_line(&st->proc, line, sizeof(line));
		snprintf(err, len, "%s not ready (%s)%s%s", d->exe,
			 rc == -ETIMEDOUT ? "timed out"
			 : rc == -EPIPE	  ? "it exited"
					  : strerror(-rc),
			 line[0] ? ": " : "", line);
		pcost_proc_stop(&st->proc, SIGKILL, GRACE_NS);
		pcost_proc_release(&st->proc);
		st->running = false;
		return rc;
	}
	return 0;
}

/* The count after "hits=" (bpftrace: "hits=@hits: N"; nothing counted: no number). */
static int64_t parse_count(const char *out, const char *key)
{
	const char *p = strstr(out, key);
	char *end;
	long long v;

	if (!p) {
		/* bpftrace prints "hits=" then nothing for a map never written: zero hits. */
		p = strstr(out, "hits=");
		return p ? 0 : -1;
	}
	v = strtoll(p + strlen(key), &end, 10);
	return end == p + strlen(key) ? -1 : v;
}

static int tool_stop(struct pcost_monitor *m, struct pcost_run_sample *sample)
{
	struct pcost_probe_arm *a = PCOST_PROBE_ARM(m);
	const struct tool_desc *d = desc_of(a);
	struct tool_state *st = a->priv;
	char why[200];

	sample->monitor_events = -1;
	if (!st || !st->running)
		return 0;
	if (!pcost_proc_stop_checked(&st->proc, GRACE_NS, why, sizeof(why)))
		why[0] = 0;
	st->running = false;
	if (why[0]) {
		/* A run that failed already keeps its reason (the program's comes first). */
		if (!sample->failed)
			pcost_sample_fail(sample, "%s %s", d->exe, why);
		snprintf(m->note, sizeof(m->note), "%s %s", d->exe, why);
		pcost_proc_release(&st->proc);
		return 0;
	}
	sample->monitor_events = parse_count(st->proc.buf ? st->proc.buf : "", d->count_key);
	if (sample->monitor_events < 0)
		snprintf(m->note, sizeof(m->note), "%s printed no count", d->exe);
	pcost_proc_release(&st->proc);
	return 0;
}

static void tool_cleanup(struct pcost_monitor *m)
{
	struct pcost_probe_arm *a = PCOST_PROBE_ARM(m);
	struct tool_state *st = a->priv;

	if (!st)
		return;
	if (st->running) {
		pcost_proc_stop(&st->proc, SIGKILL, GRACE_NS);
		pcost_proc_release(&st->proc);
	}
	if (st->undo >= 0)
		pcost_cleanup_pop(st->undo, 1); /* removes a synthesized build tree */
	free(st->script);
	free(st);
	a->priv = NULL;
}

const struct pcost_monitor_ops pcost_tool_ops = {
	.kind = PCOST_MON_ATTACH,
	.prepare = tool_prepare,
	.start = tool_start,
	.stop = tool_stop,
	.cleanup = tool_cleanup,
};

const struct pcost_probe_method pcost_probe_bpftrace = {
	.name = "bpftrace",
	.summary = "bpftrace usdt:BIN:PROV:NAME { @hits = count(); }",
	.tool = "bpftrace",
	.package = "bpftrace",
	.ops = &pcost_tool_ops,
};

/* SystemTap builds a kernel module: it needs the running kernel's build tree. */
static bool stap_available(char *why, size_t len)
{
	struct utsname u;
	char dir[400];

	uname(&u);
	snprintf(dir, sizeof(dir), "/lib/modules/%s/build", u.release);
	if (access(dir, R_OK)) {
		snprintf(why, len,
			 "SystemTap cannot build modules for Linux %s: no %s "
			 "(install the kernel's headers/build tree)",
			 u.release, dir);
		return false;
	}
	return true;
}

const struct pcost_probe_method pcost_probe_stap = {
	.name = "stap",
	.summary = "SystemTap process(BIN).mark(NAME), a kernel module (needs kernel headers)",
	.tool = "stap",
	.package = "systemtap",
	.ops = &pcost_tool_ops,
	.available = stap_available,
};
