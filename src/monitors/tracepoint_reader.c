// SPDX-License-Identifier: MIT
/* tracepoint_reader: drain a trace instance's raw_syscalls events during the run and count them per
 * thread. */
#include "monitors/tracepoint_reader.h"

#include <errno.h>
#include <kbuffer.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <tracefs.h>
#include <unistd.h>

#include "core/tracefs.h"
#include "core/util.h"

/* One thread's count of one syscall: open addressing, key (tid, nr); nr EXEC_TS
 * holds the time of the thread's last execve instead. */
struct tp_slot {
	int32_t tid; /* 0: empty */
	long nr;
	int64_t n;
	/* The times of its EARLY_MAX earliest calls (a max-heap), so an execve read
	 * after calls that came later can take off exactly the calls made before it. */
	unsigned long long *early;
	int nearly;
};

#define EARLY_MAX 32

#define EXEC_TS LONG_MIN

struct pcost_tp_reader {
	struct tep_handle *tep;
	struct kbuffer *kbuf;
	struct tracefs_cpu **cpus;
	int ncpu, page;
	void *buf;
	int enter_type;
	int id_off, id_size;
	struct tp_slot *slots;
	size_t cap, used;
	int64_t total, lost;
	pthread_t thread;
	bool running;
	atomic_bool done;
};

static size_t slot_hash(int32_t tid, long nr, size_t cap)
{
	uint64_t h = ((uint64_t)(uint32_t)tid << 32) ^ (uint64_t)nr;

	h *= 0x9e3779b97f4a7c15ULL;
	return (size_t)(h >> 17) & (cap - 1);
}

static struct tp_slot *slot_find(struct tp_slot *s, size_t cap, int32_t tid, long nr)
{
	size_t i = slot_hash(tid, nr, cap);

	while (s[i].tid && (s[i].tid != tid || s[i].nr != nr))
		i = (i + 1) & (cap - 1);
	return &s[i];
}

static struct tp_slot *slot_get_or_add(struct pcost_tp_reader *r, int32_t tid, long nr)
{
	struct tp_slot *s;

	if (2 * (r->used + 1) > r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 1024;
		struct tp_slot *v = xcalloc(cap, sizeof(*v));

		for (size_t i = 0; i < r->cap; i++)
			if (r->slots[i].tid)
				*slot_find(v, cap, r->slots[i].tid, r->slots[i].nr) = r->slots[i];
		free(r->slots);
		r->slots = v;
		r->cap = cap;
	}
	s = slot_find(r->slots, r->cap, tid, nr);
	if (!s->tid) {
		s->tid = tid;
		s->nr = nr;
		r->used++;
	}
	return s;
}

static void heap_swap(unsigned long long *h, int a, int b)
{
	unsigned long long t = h[a];

	h[a] = h[b];
	h[b] = t;
}

static void heap_down(unsigned long long *h, int n, int i)
{
	for (;;) {
		int l = 2 * i + 1, m = i;

		if (l < n && h[l] > h[m])
			m = l;
		if (l + 1 < n && h[l + 1] > h[m])
			m = l + 1;
		if (m == i)
			return;
		heap_swap(h, i, m);
		i = m;
	}
}

/* Keep ts if it is among the slot's EARLY_MAX earliest. */
static void early_add(struct tp_slot *s, unsigned long long ts)
{
	if (!s->early)
		s->early = xcalloc(EARLY_MAX, sizeof(*s->early));
	if (s->nearly < EARLY_MAX) {
		int i = s->nearly++;

		s->early[i] = ts;
		for (; i > 0 && s->early[(i - 1) / 2] < s->early[i]; i = (i - 1) / 2)
			heap_swap(s->early, i, (i - 1) / 2);
	} else if (ts < s->early[0]) {
		s->early[0] = ts;
		heap_down(s->early, s->nearly, 0);
	}
}

/* An execve at ts: the slot's calls made before it are not the new program's. */
static void drop_before(struct tp_slot *s, unsigned long long ts)
{
	int kept = 0, before;

	for (int i = 0; i < s->nearly; i++)
		if (s->early[i] >= ts)
			s->early[kept++] = s->early[i];
	before = s->nearly - kept;
	/* Every call it kept came before: more may have, which it cannot tell apart;
	 * the count is then what an execve read in order leaves, nothing. */
	s->n = before == s->nearly && s->n > s->nearly ? 0 : s->n - before;
	s->nearly = kept;
	for (int i = kept / 2 - 1; i >= 0; i--)
		heap_down(s->early, kept, i);
}

/*
 * A syscall of thread tid at ts.  An execve: what the thread did before is not
 * the program's that it now runs.  The CPUs' buffers are read one after the
 * other, not merged by time, and a partly filled page only when it fills or at
 * the end, so an execve can be read after calls that came later (the thread
 * moved to another CPU), and a call made before it after it: both are told by
 * their times.
 */
static void count_call(struct pcost_tp_reader *r, int32_t tid, long nr, unsigned long long ts)
{
	struct tp_slot *exec = slot_get_or_add(r, tid, EXEC_TS), *s;

	if (nr == SYS_execve || nr == SYS_execveat) {
		if ((int64_t)ts <= exec->n)
			return;
		exec->n = (int64_t)ts;
		for (size_t i = 0; i < r->cap; i++)
			if (r->slots[i].tid == tid && r->slots[i].nr != EXEC_TS)
				drop_before(&r->slots[i], ts);
	} else if ((int64_t)ts >= exec->n) {
		s = slot_get_or_add(r, tid, nr);
		s->n++;
		early_add(s, ts);
	}
}

/* Count the events of one sub-buffer page. */
static void parse_page(struct pcost_tp_reader *r, void *page)
{
	struct tep_record rec = { 0 };
	unsigned long long ts;
	bool first = true;

	if (kbuffer_load_subbuffer(r->kbuf, page) < 0)
		return;
	while ((rec.data = kbuffer_read_event(r->kbuf, &ts))) {
		int missed = first ? kbuffer_missed_events(r->kbuf) : 0;

		first = false;
		if (missed > 0)
			r->lost += missed;
		rec.size = kbuffer_event_size(r->kbuf);
		r->total++;
		if (tep_data_type(r->tep, &rec) == r->enter_type) {
			int32_t tid = tep_data_pid(r->tep, &rec);
			long nr = (long)tep_read_number(r->tep, (char *)rec.data + r->id_off,
							r->id_size);

			if (tid > 0)
				count_call(r, tid, nr, ts);
		}
		kbuffer_next_event(r->kbuf, NULL);
	}
}

/* Read what each CPU has; flush: the partly filled pages too (at the end). */
static bool read_all(struct pcost_tp_reader *r, bool flush)
{
	bool got = false;

	for (int c = 0; c < r->ncpu; c++) {
		if (!r->cpus[c])
			continue;
		while ((flush ? tracefs_cpu_flush(r->cpus[c], r->buf)
			      : tracefs_cpu_buffered_read(r->cpus[c], r->buf, true)) > 0) {
			parse_page(r, r->buf);
			got = true;
		}
	}
	return got;
}

static void *reader_main(void *arg)
{
	struct pcost_tp_reader *r = arg;
	/* 1 ms idle: 8 MiB per CPU fill in ~40 ms at 1M syscalls/s (~100 B a syscall). */
	const struct timespec idle = { 0, 1000 * 1000 };

	while (!atomic_load(&r->done))
		if (!read_all(r, false))
			nanosleep(&idle, NULL);
	return NULL;
}

static int setup(struct pcost_tp_reader *r, struct tracefs_instance *inst, char *err, size_t len)
{
	const char *systems[] = { "raw_syscalls", NULL };
	struct tep_format_field *f;
	struct tep_event *ev;
	int opened = 0;

	r->tep = pcost_tracefs_formats(NULL, systems);
	if (!r->tep || !(ev = tep_find_event_by_name(r->tep, "raw_syscalls", "sys_enter")) ||
	    !(f = tep_find_field(ev, "id"))) {
		snprintf(err, len, "cannot read the format of raw_syscalls:sys_enter in %s",
			 tracefs_tracing_dir());
		return -ENOENT;
	}
	r->enter_type = ev->id;
	r->id_off = f->offset;
	r->id_size = f->size;
	r->kbuf = kbuffer_alloc(tep_get_long_size(r->tep) == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
				tep_is_file_bigendian(r->tep) ? KBUFFER_ENDIAN_BIG
							      : KBUFFER_ENDIAN_LITTLE);
	r->ncpu = (int)sysconf(_SC_NPROCESSORS_CONF);
	if (!r->kbuf || r->ncpu <= 0)
		return -ENOMEM;
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): r->cpus is an array of pointers */
	r->cpus = xcalloc((size_t)r->ncpu, sizeof(*r->cpus));
	for (int c = 0; c < r->ncpu; c++) {
		/* An offline CPU has no buffer to read: skipped. */
		if ((r->cpus[c] = tracefs_cpu_open(inst, c, true))) {
			opened++;
			if (tracefs_cpu_read_size(r->cpus[c]) > r->page)
				r->page = tracefs_cpu_read_size(r->cpus[c]);
		}
	}
	if (!opened || r->page <= 0) {
		snprintf(err, len, "cannot open the trace instance's trace_pipe_raw files: %s",
			 strerror(errno));
		return -EIO;
	}
	r->buf = xmalloc((size_t)r->page);
	return 0;
}

struct pcost_tp_reader *pcost_tp_reader_start(struct tracefs_instance *inst, char *err, size_t len)
{
	struct pcost_tp_reader *r = xcalloc(1, sizeof(*r));
	sigset_t all, old;
	int rc;

	if (setup(r, inst, err, len) < 0) {
		pcost_tp_reader_free(r);
		return NULL;
	}
	/* Signals stay the main thread's (cleanup.h). */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	rc = pthread_create(&r->thread, NULL, reader_main, r);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		snprintf(err, len, "cannot start the trace reader thread: %s", strerror(rc));
		pcost_tp_reader_free(r);
		return NULL;
	}
	r->running = true;
	return r;
}

void pcost_tp_reader_stop(struct pcost_tp_reader *r)
{
	if (!r || !r->running)
		return;
	atomic_store(&r->done, true);
	pthread_join(r->thread, NULL);
	r->running = false;
	read_all(r, true);
}

static int64_t slot_get(const struct pcost_tp_reader *r, int32_t tid, long nr)
{
	return r->cap ? slot_find(r->slots, r->cap, tid, nr)->n : 0;
}

int64_t pcost_tp_reader_count(const struct pcost_tp_reader *r, pid_t tgid, long nr)
{
	char line[64], path[4096];
	int64_t n;
	FILE *f;

	/* The process's own thread, then each thread the kernel saw in it (saved_tgids). */
	n = slot_get(r, tgid, nr);
	snprintf(path, sizeof(path), "%s/saved_tgids", tracefs_tracing_dir());
	if (!(f = fopen(path, "re")))
		return n;
	while (fgets(line, sizeof(line), f)) {
		int tid, tg;

		if (sscanf(line, "%d %d", &tid, &tg) == 2 && tg == tgid && tid != tgid)
			n += slot_get(r, tid, nr);
	}
	fclose(f);
	return n;
}

int64_t pcost_tp_reader_total(const struct pcost_tp_reader *r)
{
	return r->total + r->lost;
}

int64_t pcost_tp_reader_lost(const struct pcost_tp_reader *r)
{
	return r->lost;
}

void pcost_tp_reader_free(struct pcost_tp_reader *r)
{
	if (!r)
		return;
	pcost_tp_reader_stop(r);
	for (int c = 0; r->cpus && c < r->ncpu; c++)
		if (r->cpus[c])
			tracefs_cpu_close(r->cpus[c]);
	free(r->cpus);
	free(r->buf);
	for (size_t i = 0; i < r->cap; i++)
		free(r->slots[i].early);
	free(r->slots);
	if (r->kbuf)
		kbuffer_free(r->kbuf);
	if (r->tep)
		tep_free(r->tep);
	free(r);
}
