// SPDX-License-Identifier: MIT
/*
 * probes: `probecost probes` -- what a static user probe (SDT/USDT) costs,
 * dormant and armed, per hit.  Builds one configuration per (variant, arming
 * method) of the stanford workload (or of a user's command and probe), hands
 * them to the runner, and prints pcost_report_probes() of the session.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cmd/options.h"
#include "core/cleanup.h"
#include "core/env.h"
#include "probes/arm.h"
#include "probes/sdt.h"
#include "probes/site_safety.h"
#include "report/emit.h"
#include "report/report.h"
#include "run/runner.h"
#include "store/store.h"
#include "workloads/stanford.h"
#include "workloads/uprobe.h"

#define MAX_SITES 256
#define MAX_MONITORS 128
#define MAX_SCALES 8
#define MAX_THREADS 8
/* The uprobe and sdtargs workloads: calls per thread in one unit of --scale. */
#define LOOPS_UNIT 100000

static const char usage_text[] =
	"usage: probecost probes [options]                 the stanford SDT benchmark\n"
	"       probecost probes --list BIN                list the SDT probes of an ELF file\n"
	"       probecost probes --binary BIN --probe PROV:NAME [--hits N] -- CMD [ARGS]\n"
	"\n"
	"  --via LIST        arming methods (default: every one available here):\n"
	"                    dormant,uprobe,ftrace,perf-probe,bpftrace,stap\n"
	"  --workload W      stanford (default), uprobe (a loop calling a probed nop, push or\n"
	"                    ret), sdtargs (probes of 0/1/3/6 arguments or an expensive one)\n"
	"  --variants LIST   the workload's builds (default all): stanford none,plain,volatile,\n"
	"                    plain-sem,volatile-sem; uprobe nop,push,ret; sdtargs none,a0,a1,\n"
	"                    a3,a6,expensive,expensive-sem\n"
	"  --sites LIST      probe-site encodings (default nop): nop,nop5,nop10, and nop5-nrz\n"
	"                    (nop5 in code built with -mno-red-zone; stanford and sdtargs)\n"
	"  --threads LIST    threads each making the hits at once, for each count (default 1)\n"
	"  --scale N[,N..]   stanford repetitions (default 10; 289,264 hits each), or 100,000\n"
	"                    calls per thread for uprobe and sdtargs; several sizes fit\n"
	"                    time = fixed + per hit x hits (start-up apart)\n"
	"  --kernel NAME     only this stanford kernel (perm, towers, ..., fft)\n"
	"  --layouts LIST    code layouts of each stanford build: default,a32,a64 (functions,\n"
	"                    loops and jumps aligned to 32 or 64 bytes); default: all three\n"
	"                    with --via dormant alone, else default\n"
	"  --precision NS    --via dormant alone: add blocks until every dormant cost per\n"
	"                    hit is known to +- NS (default 0.3), at least 5 blocks, at\n"
	"                    most --max-time S (default 270); --runs N fixes the count;\n"
	"                    the kernels are timed on their thread's CPU clock (clock=cpu)\n"
	"  --binary BIN      a user's USDT-instrumented executable (with --probe and -- CMD)\n"
	"  --probe PROV:NAME the probe to arm in BIN (every site of it)\n"
	"  --hits N          hits CMD is expected to make (checked against each method's count)\n"
	"  -r, --runs N      measured blocks (default 5, adaptive with --via dormant alone);\n"
	"                    --warmup N (default 1)\n"
	"  --cpu LIST        pin the workload to these CPUs (e.g. 0)\n"
	"  --timeout S       per-run limit in seconds (default 600)\n"
	"  --format F        text, json, csv, markdown (default text)\n"
	"  --db PATH|URL     the store: an SQLite file or a postgresql:// URL (default\n"
	"                    $PROBECOST_DB, else $XDG_DATA_HOME/probecost/probecost.db)\n"
	"  --no-store        do not store the session\n";

struct opts {
	const char *list, *binary, *probe, *via, *variants, *kernel, *db, *cpu, *workload, *sites;
	const char *layouts;
	double precision_ns, max_time;
	bool runs_given;
	uint64_t scales[MAX_SCALES], threads[MAX_THREADS], hits, runs, warmup;
	size_t nscales, nthreads;
	double timeout;
	bool have_hits, no_store;
	enum pcost_format fmt;
	int cmd_argc;
	char **cmd_argv;
};

/* ---- --list ---- */

static int probe_file_error(const char *bin, int rc)
{
	return usage_error("'%s': %s", bin, pcost_sdt_strerror(rc));
}

/* "true", "false" or NULL (unknown) for a fact. */
static const char *fact_word(int v)
{
	return v > 0 ? "true" : v == 0 ? "false" : NULL;
}

/* "fft+0x159", or "-" when no function holds the site. */
static const char *fact_where(const struct pcost_site_facts *sf, char *buf, size_t len)
{
	if (!sf->function[0])
		return "-";
	snprintf(buf, len, "%s+0x%llx", sf->function, (unsigned long long)sf->fn_offset);
	return buf;
}

static void list_row(const struct pcost_sdt_probe *p, const struct pcost_site_facts *sf,
		     enum pcost_format f, size_t i)
{
	unsigned long long pc = p->pc, po = p->pc_offset, sm = p->sem, so = p->sem_offset;
	const char *enc = pcost_site_encoding_name(sf->encoding), *rz = fact_word(sf->red_zone_live),
		   *op = fact_word(sf->optimizable);
	char where[96];

	fact_where(sf, where, sizeof(where));
	if (f == PCOST_FMT_CSV) {
		printf("%s,%s,0x%llx,0x%llx,0x%llx,0x%llx,\"%s\",%s,%s,%s,%s,\"%s\",%s\n", p->provider,
		       p->name, pc, po, sm, so, p->args, enc, rz ? rz : "", op ? op : "",
		       sf->function[0] ? where : "", sf->why,
		       pcost_sdt_args_below_rsp(p->args) ? "true" : "false");
	} else if (f == PCOST_FMT_TEXT) {
		char smb[24] = "-", sob[24] = "-";

		if (sm)
			snprintf(smb, sizeof(smb), "0x%llx", sm);
		if (so)
			snprintf(sob, sizeof(sob), "0x%llx", so);
		printf("%-24s %-14s 0x%-10llx 0x%-8llx %-12s %-10s %-8s %-8s %-11s %-28s %s\n",
		       p->provider, p->name, pc, po, smb, sob, enc, rz ? rz : "n/a",
		       op ? op : "n/a", where, p->args);
	} else if (f == PCOST_FMT_MARKDOWN) {
		printf("| %s | %s | 0x%llx | 0x%llx | 0x%llx | 0x%llx | `%s` | %s | %s | %s | %s |\n",
		       p->provider, p->name, pc, po, sm, so, p->args, enc, rz ? rz : "n/a",
		       op ? op : "n/a", where);
	} else {
		cJSON *o = cJSON_CreateObject(), *fo = pcost_site_facts_json(sf), *it;
		char *txt;

		cJSON_AddStringToObject(o, "provider", p->provider);
		cJSON_AddStringToObject(o, "name", p->name);
		cJSON_AddNumberToObject(o, "pc", (double)pc);
		cJSON_AddNumberToObject(o, "pc_offset", (double)po);
		cJSON_AddNumberToObject(o, "semaphore", (double)sm);
		cJSON_AddNumberToObject(o, "semaphore_offset", (double)so);
		cJSON_AddStringToObject(o, "args", p->args);
		while ((it = fo->child)) /* encoding, red_zone_live, optimizable */
			cJSON_AddItemToObject(o, it->string, cJSON_DetachItemViaPointer(fo, it));
		cJSON_Delete(fo);
		cJSON_AddItemToObject(o, "function", sf->function[0]
						     ? cJSON_CreateString(sf->function)
						     : cJSON_CreateNull());
		pcost_json_count(o, "function_offset", (double)sf->fn_offset, sf->function[0]);
		cJSON_AddStringToObject(o, "red_zone_why", sf->why);
		cJSON_AddBoolToObject(o, "args_below_rsp", pcost_sdt_args_below_rsp(p->args));
		txt = cJSON_PrintUnformatted(o);
		printf("%s\n  %s", i ? "," : "", txt);
		free(txt);
		cJSON_Delete(o);
	}
}

static int list_probes(const char *bin, enum pcost_format f)
{
	struct pcost_sdt_list l;
	struct pcost_site_file *sf = NULL;
	int rc = pcost_sdt_read(bin, &l);

	if (!rc && l.n)
		rc = pcost_site_file_open(bin, &sf);
	if (rc) {
		pcost_sdt_list_release(&l);
		return probe_file_error(bin, rc);
	}
	if (!l.n) {
		pcost_sdt_list_release(&l);
		return usage_error("'%s' has no SDT notes (.note.stapsdt)", bin);
	}
	if (f == PCOST_FMT_CSV)
		printf("provider,name,pc,pc_offset,semaphore,semaphore_offset,args,encoding,"
		       "red_zone_live,optimizable,function,red_zone_why,args_below_rsp\n");
	else if (f == PCOST_FMT_TEXT)
		printf("%-24s %-14s %-12s %-10s %-12s %-10s %-8s %-8s %-11s %-28s %s\n", "provider",
		       "name", "pc", "offset", "semaphore", "sem-off", "encoding", "red-zone",
		       "optimizable", "function", "arguments");
	else if (f == PCOST_FMT_MARKDOWN)
		printf("| provider | name | pc | offset | semaphore | sem-off | arguments | encoding | "
		       "red zone live | optimizable | function |\n"
		       "|---|---|---|---|---|---|---|---|---|---|---|\n");
	else
		printf("[");
	for (size_t i = 0; i < l.n; i++) {
		struct pcost_site_facts facts;

		pcost_site_facts_at(sf, l.probes[i].pc, &facts);
		list_row(&l.probes[i], &facts, f, i);
	}
	if (f == PCOST_FMT_JSON)
		printf("\n]\n");
	pcost_site_file_free(sf);
	pcost_sdt_list_release(&l);
	return 0;
}

/* ---- the measurement ---- */

/* Split a comma list into at most max words of buf; the count. */
static size_t split_list(const char *s, char *buf, size_t blen, char **words, size_t max)
{
	size_t n = 0;

	snprintf(buf, blen, "%s", s);
	for (char *save = NULL, *w = strtok_r(buf, ",", &save); w && n < max;
	     w = strtok_r(NULL, ",", &save))
		words[n++] = w;
	return n;
}

/* The sites of provider:name (name NULL: every probe of provider) in l. */
static size_t collect_sites(const struct pcost_sdt_list *l, const char *provider, const char *name,
			    struct pcost_probe_site *sites, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < l->n && n < max; i++) {
		const struct pcost_sdt_probe *p = &l->probes[i];

		if (strcmp(p->provider, provider) || (name && strcmp(p->name, name)))
			continue;
		memset(&sites[n], 0, sizeof(sites[n]));
		snprintf(sites[n].provider, sizeof(sites[n].provider), "%s", p->provider);
		snprintf(sites[n].name, sizeof(sites[n].name), "%s", p->name);
		sites[n].pc_offset = p->pc_offset;
		sites[n].sem_offset = p->sem_offset;
		sites[n].vaddr = p->pc;
		sites[n].args_below_rsp = pcost_sdt_args_below_rsp(p->args);
		n++;
	}
	return n;
}

/*
 * One configuration group to build: a variant of the workload in one site
 * encoding at one thread count, its sites, and the hits of one unit of --scale.
 */
struct group {
	const char *variant;	/* as recorded and shown */
	int site;		/* stanford site encoding index */
	int layout;		/* stanford code layout index (set per configuration) */
	unsigned threads;
	struct pcost_probe_site *sites;
	size_t nsites;
	int64_t unit_hits;	/* hits per unit of --scale */
	bool baseline_only;	/* a build without probes: its dormant row only */
	bool lttng;		/* the LTTng-UST build: armed by the lttng method only */
};

struct plan {
	const struct probe_wl *wl;
	const struct pcost_probe_method *methods[12];
	size_t nmethods;
	char vbuf[256], *variants[16];
	size_t nvariants;
	int sites[PCOST_STANFORD_NSITES];
	size_t nsites;
	unsigned threads[MAX_THREADS];
	size_t nthreads;
	bool threads_given;	/* --threads: rows say their thread count */
	int layouts[PCOST_STANFORD_NLAYOUTS];
	size_t nlayouts;
	int kernel;		/* stanford: one kernel's index, -1: all */
	int64_t stanford_hits;	/* stanford: hits of one repetition of the kernels run */
	struct pcost_monitor *mons[MAX_MONITORS];
	size_t nmons;
	/*
	 * Each method's monitor of each build, shared by the build's groups (its
	 * thread counts): one set of probe definitions per build, and one lttng
	 * session daemon (one per machine: a second would wait for the first).
	 */
	struct {
		const struct pcost_probe_method *m;
		const char *variant;
		int site;
		struct pcost_monitor *mon;
	} built[MAX_MONITORS];
	size_t nbuilt;
	struct pcost_site_file *sf;	/* the binary, for its sites' facts; NULL: none known */
	cJSON *site_facts;		/* each configuration's (null: none), for the options */
	uint64_t warned[MAX_SITES];	/* sites warned about already (their addresses) */
	size_t nwarned;
};

/* A workload `probecost probes` drives: its variants and how to find their sites. */
struct probe_wl {
	const char *name;
	const char *key;	/* the workload parameter that takes the variant */
	const char *choices;	/* every variant, comma separated */
	const char *sites;	/* the site encodings it is built in, comma separated */
	/* Fill g (sites, hits, label) for variant v at site encoding site; 0 or exit code. */
	int (*group)(const struct plan *pl, const struct pcost_sdt_list *l, const char *path,
		     const char *v, int site, struct group *g);
	/* The workload's arguments for g at scale (argv words into w, the count). */
	size_t (*args)(const struct plan *pl, const struct group *g, uint64_t scale, char w[][64]);
};

static int stanford_group(const struct plan *pl, const struct pcost_sdt_list *l, const char *path,
			  const char *v, int site, struct group *g)
{
	int vi = pcost_stanford_variant_find(v);
	char prov[96];

	g->unit_hits = pl->stanford_hits * g->threads; /* every thread runs the kernels */
	if (vi == PCOST_STANFORD_LTTNG) {
		g->lttng = !site; /* tracepoints have one form */
		return 0;
	}
	if (pcost_stanford_site_provider(vi, site, prov, sizeof(prov))) {
		g->baseline_only = true; /* the no-probe build */
		return 0;
	}
	for (int k = 0; k < PCOST_SK_N; k++)
		if (pl->kernel < 0 || pl->kernel == k)
			g->nsites += collect_sites(l, prov, pcost_stanford_kernel_name(k),
						   g->sites + g->nsites, MAX_SITES - g->nsites);
	if (!g->nsites)
		return error("'%s' lacks the %s probes (a build problem)", path, prov);
	return 0;
}

/* Only the dormant method: the dormant-cost study (every layout, adaptive blocks). */
static bool dormant_only(const struct plan *pl)
{
	return pl->nmethods == 1 && pl->methods[0] == &pcost_probe_dormant;
}

static size_t stanford_args(const struct plan *pl, const struct group *g, uint64_t scale,
			    char w[][64])
{
	size_t n = 0;

	snprintf(w[n++], 64, "variant=%s", g->variant);
	if (!g->lttng) /* a tracepoint is no probe-site encoding */
		snprintf(w[n++], 64, "site=%s", pcost_stanford_site_name(g->site));
	snprintf(w[n++], 64, "scale=%llu", (unsigned long long)scale);
	snprintf(w[n++], 64, "kernel=%s",
		 pl->kernel < 0 ? "all" : pcost_stanford_kernel_name(pl->kernel));
	/* The default layout, clock and thread count keep the arguments they always had. */
	if (pl->threads_given)
		snprintf(w[n++], 64, "threads=%u", g->threads);
	if (g->layout)
		snprintf(w[n++], 64, "layout=%s", pcost_stanford_layout_name(g->layout));
	/* The dormant study times the kernels on the thread's CPU clock. */
	if (dormant_only(pl))
		snprintf(w[n++], 64, "clock=cpu");
	return n;
}

/* The uprobe workload: variant nop at sites nop5/nop10 is the nop5/nop10 target. */
static int uprobe_group(const struct plan *pl, const struct pcost_sdt_list *l, const char *path,
			const char *v, int site, struct group *g)
{
	const struct pcost_uprobe_target *t;
	struct pcost_probe_site *s = g->sites;

	if (site && strcmp(v, "nop"))
		return 0; /* push, ret and lttng have one form */
	g->unit_hits = LOOPS_UNIT * g->threads;
	if (!strcmp(v, "lttng")) {
		g->lttng = true;
		return 0;
	}
	g->variant = site ? pcost_stanford_site_name(site) : v;
	t = pcost_uprobe_target_find(g->variant);
	memset(s, 0, sizeof(*s));
	if (!t || pcost_self_file_offset((const void *)t->fn, &s->pc_offset) ||
	    pcost_self_vaddr((const void *)t->fn, &s->vaddr))
		return error("uprobe: cannot locate the target '%s' in '%s'", g->variant, path);
	snprintf(s->provider, sizeof(s->provider), "pcost_uprobe");
	snprintf(s->name, sizeof(s->name), "%s", t->insn);
	snprintf(s->symbol, sizeof(s->symbol), "%s", t->symbol);
	s->retprobe = t->retprobe;
	g->nsites = 1;
	return 0;
}

static size_t loop_args(const struct plan *pl, const struct group *g, uint64_t scale,
			char w[][64])
{
	size_t n = 0;

	snprintf(w[n++], 64, "%s=%s", pl->wl->key, g->variant);
	/* sdtargs' nop build alone keeps the arguments it always had. */
	if ((g->site || pl->nsites > 1) && !strcmp(pl->wl->name, "sdtargs"))
		snprintf(w[n++], 64, "site=%s", pcost_stanford_site_name(g->site));
	snprintf(w[n++], 64, "threads=%u", g->threads);
	snprintf(w[n++], 64, "loops=%llu", (unsigned long long)(scale * LOOPS_UNIT));
	return n;
}

/*
 * sdtargs: provider pcost_args (pcost_args_nop5, ... in the other site
 * encodings), probe named after the variant (expensive-sem: expensive_sem).
 */
static int sdtargs_group(const struct plan *pl, const struct pcost_sdt_list *l, const char *path,
			 const char *v, int site, struct group *g)
{
	char name[32], prov[48];

	if (!strcmp(v, "none")) {
		g->baseline_only = true;
		return 0;
	}
	snprintf(prov, sizeof(prov), "pcost_args%s%s", site ? "_" : "",
		 pcost_stanford_site_suffix(site));
	snprintf(name, sizeof(name), "%s", v);
	name[strcspn(name, "-")] = name[strcspn(name, "-")] ? '_' : '\0';
	g->nsites = collect_sites(l, prov, name, g->sites, MAX_SITES);
	if (!g->nsites)
		return error("'%s' lacks the %s:%s probe (a build problem)", path, prov, name);
	g->unit_hits = LOOPS_UNIT * g->threads;
	return 0;
}

static const struct probe_wl probe_wls[] = {
	{ "stanford", "variant", "none,plain,volatile,plain-sem,volatile-sem,lttng",
	  "nop,nop5,nop10,nop5-nrz", stanford_group, stanford_args },
	/* Its targets are assembly (uprobe.c): no red zone to keep nop5-nrz apart from nop5. */
	{ "uprobe", "insn", "nop,push,ret,lttng", "nop,nop5,nop10", uprobe_group, loop_args },
	{ "sdtargs", "variant", "none,a0,a1,a3,a6,expensive,expensive-sem",
	  "nop,nop5,nop10,nop5-nrz", sdtargs_group, loop_args },
};

static int parse_methods(const struct opts *o, struct plan *pl)
{
	char buf[256], *w[16], why[256];
	size_t n;

	if (!o->via) {
		/* Every available method; the unavailable ones say why on stderr. */
		for (size_t i = 0; pcost_probe_methods[i]; i++) {
			if (pcost_probe_method_available(pcost_probe_methods[i], why, sizeof(why)))
				pl->methods[pl->nmethods++] = pcost_probe_methods[i];
			else
				warning("probe method '%s' skipped: %s", pcost_probe_methods[i]->name,
					why);
		}
		return 0;
	}
	if (!pcost_list_well_formed(o->via))
		return usage_error("--via '%s': expected a comma list of methods (see 'probecost list "
				   "probes')", o->via);
	n = split_list(o->via, buf, sizeof(buf), w, ARRAY_SIZE(w));
	/* dormant is the baseline of every overhead: always first. */
	pl->methods[pl->nmethods++] = &pcost_probe_dormant;
	for (size_t i = 0; i < n; i++) {
		const struct pcost_probe_method *m = pcost_probe_method_find(w[i]);
		bool dup = false;

		if (!m)
			return usage_error("unknown probe method '%s' (see 'probecost list')", w[i]);
		for (size_t j = 0; j < pl->nmethods; j++)
			dup |= pl->methods[j] == m;
		if (dup)
			continue;
		if (!pcost_probe_method_available(m, why, sizeof(why)))
			return usage_error("probe method '%s' is not available here: %s", m->name, why);
		if (pl->nmethods < ARRAY_SIZE(pl->methods))
			pl->methods[pl->nmethods++] = m;
	}
	return 0;
}

/* Is word one of the comma-separated choices? */
static bool in_choices(const char *choices, const char *word)
{
	size_t n = strlen(word);

	for (const char *c = choices; c; c = strchr(c, ','), c = c ? c + 1 : NULL)
		if (!strncmp(c, word, n) && (c[n] == ',' || !c[n]))
			return true;
	return false;
}

static int parse_variants(const struct opts *o, struct plan *pl)
{
	char dflt[128];
	const char *list = o->variants ? o->variants : dflt;

	/* By default every build but lttng's, which plan_builtin adds for the lttng method. */
	snprintf(dflt, sizeof(dflt), "%s", pl->wl->choices);
	if (strstr(dflt, ",lttng"))
		*strstr(dflt, ",lttng") = '\0';

	pl->nvariants = split_list(list, pl->vbuf, sizeof(pl->vbuf), pl->variants,
				   ARRAY_SIZE(pl->variants));
	for (size_t i = 0; i < pl->nvariants; i++)
		if (!in_choices(pl->wl->choices, pl->variants[i]))
			return usage_error("unknown variant '%s' of the %s workload (%s)",
					   pl->variants[i], pl->wl->name, pl->wl->choices);
	if (!pl->nvariants)
		return usage_error("--variants: give at least one variant");
	return 0;
}

/* --workload, --sites, --threads, --kernel: what to build, checked before anything runs. */
static int parse_shape(const struct opts *o, struct plan *pl)
{
	char buf[128], *w[8];
	size_t n;
	int rc;

	pl->wl = &probe_wls[0];
	for (size_t i = 0; o->workload && i < ARRAY_SIZE(probe_wls); i++)
		pl->wl = !strcmp(probe_wls[i].name, o->workload) ? &probe_wls[i] : pl->wl;
	if (o->workload && strcmp(pl->wl->name, o->workload))
		return usage_error("--workload: '%s' is not stanford, uprobe or sdtargs", o->workload);
	if ((rc = parse_variants(o, pl)))
		return rc;
	n = split_list(o->sites ? o->sites : "nop", buf, sizeof(buf), w, ARRAY_SIZE(w));
	for (size_t i = 0; i < n; i++) {
		int s = pcost_stanford_site_find(w[i]);

		if (s < 0)
			return usage_error("--sites: '%s' is not nop, nop5, nop10 or nop5-nrz", w[i]);
		if (!in_choices(pl->wl->sites, w[i]))
			return usage_error("--sites: the %s workload is built with %s only",
					   pl->wl->name, pl->wl->sites);
		if (pl->nsites < ARRAY_SIZE(pl->sites))
			pl->sites[pl->nsites++] = s;
	}
	if (!pl->nsites)
		return usage_error("--sites: give at least one of %s", pl->wl->sites);
	for (size_t i = 0; i < o->nthreads; i++)
		pl->threads[pl->nthreads++] = (unsigned)o->threads[i];
	pl->threads_given = pl->nthreads > 0;
	if (!pl->nthreads)
		pl->threads[pl->nthreads++] = 1;
	pl->kernel = -1;
	if (o->kernel && strcmp(pl->wl->name, "stanford"))
		return usage_error("--kernel is for the stanford workload");
	if (o->kernel) {
		for (pl->kernel = 0; pl->kernel < PCOST_SK_N &&
				     strcmp(pcost_stanford_kernel_name(pl->kernel), o->kernel);
		     pl->kernel++)
			;
		if (pl->kernel == PCOST_SK_N)
			return usage_error("unknown stanford kernel '%s'", o->kernel);
	}
	return 0;
}

static int parse_layouts(const struct opts *o, struct plan *pl)
{
	char buf[128], *w[8];
	size_t n;
	bool stanford = !strcmp(pl->wl->name, "stanford");

	if (!o->layouts) {
		for (int l = 0; l < (dormant_only(pl) && stanford ? PCOST_STANFORD_NLAYOUTS : 1); l++)
			pl->layouts[pl->nlayouts++] = l;
		return 0;
	}
	if (!stanford)
		return usage_error("--layouts: the %s workload has one code layout", pl->wl->name);
	n = split_list(o->layouts, buf, sizeof(buf), w, ARRAY_SIZE(w));
	for (size_t i = 0; i < n; i++) {
		int l = pcost_stanford_layout_find(w[i]);

		if (l < 0)
			return usage_error("--layouts: unknown layout '%s' (default, a32, a64)", w[i]);
		if (pl->nlayouts < ARRAY_SIZE(pl->layouts))
			pl->layouts[pl->nlayouts++] = l;
	}
	if (!pl->nlayouts)
		return usage_error("--layouts: give at least one layout");
	return 0;
}

/*
 * --via dormant alone: blocks are added until every build's dormant cost per
 * hit is within +- precision_ns (at least 5 blocks, the calibrated minimum),
 * or max_time is spent; --runs fixes the count instead.
 */
static void dormant_study(const struct opts *o, const struct plan *pl, struct pcost_runner_opts *ro)
{
	if (!dormant_only(pl) || o->runs_given)
		return;
	ro->runs = 0;
	ro->min_runs = 5;
	ro->max_runs = 0;
	ro->precision_dormant_ns = o->precision_ns;
	ro->max_time_s = o->max_time;
}

/* Check BIN the way the issue lists the bad inputs; fills an absolute path. */
static int check_binary(const char *bin, char *abs, size_t len)
{
	struct stat st;

	if (stat(bin, &st))
		return usage_error("'%s': %s", bin, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return usage_error("'%s' is not a regular file", bin);
	if (access(bin, X_OK))
		return usage_error("'%s' is not executable", bin);
	if (!realpath(bin, abs) || strlen(abs) >= len)
		return usage_error("'%s': cannot resolve its absolute path", bin);
	if (!pcost_sdt_path_ok(abs))
		return usage_error("'%s': tracefs and perf probe cannot take this path (only "
				   "[A-Za-z0-9/._+,=@~-]); copy or link the binary elsewhere", abs);
	return 0;
}

/* Will a method of the plan put a uprobe on the sites (not dormant, not lttng's tracepoints)? */
static bool plan_arms(const struct plan *pl)
{
	for (size_t i = 0; i < pl->nmethods; i++)
		if (pl->methods[i] != &pcost_probe_dormant && pl->methods[i] != &pcost_probe_lttng)
			return true;
	return false;
}

/*
 * The facts of n sites as one row (false: none known), and, when they will be
 * armed, a warning for each site that is both optimizable and red-zone live.
 */
static bool sites_facts(struct plan *pl, const struct pcost_probe_site *sites, size_t n,
			struct pcost_site_facts *row)
{
	for (size_t i = 0; pl->sf && i < n; i++) {
		struct pcost_site_facts f;
		bool seen = false;

		pcost_site_facts_at(pl->sf, sites[i].vaddr, &f);
		if (i)
			pcost_site_facts_merge(row, &f);
		else
			*row = f;
		if (f.optimizable <= 0 || (f.red_zone_live <= 0 && !sites[i].args_below_rsp) ||
		    !plan_arms(pl))
			continue;
		for (size_t k = 0; k < pl->nwarned; k++)
			seen |= pl->warned[k] == sites[i].vaddr;
		if (seen || pl->nwarned == ARRAY_SIZE(pl->warned))
			continue;
		pl->warned[pl->nwarned++] = sites[i].vaddr;
		warning("%s:%s at %s+0x%llx %s once armed: the kernel optimizes its nop5 into a CALL, "
			"which pushes into the red zone%s%s%s; %s",
			sites[i].provider, sites[i].name, f.function, (unsigned long long)f.fn_offset,
			f.red_zone_live > 0 ? "may change the program" : "will report wrong arguments",
			f.red_zone_live > 0 ? ", and the function " : "",
			f.red_zone_live > 0 ? f.why : "",
			!sites[i].args_below_rsp     ? ""
			: f.red_zone_live > 0 ? "; the tracer reads its arguments from there too"
					      : ", where the tracer reads its arguments from",
			pl->wl ? "its -mno-red-zone build is safe (--sites nop5-nrz)"
			       : "built with -mno-red-zone it would be safe");
	}
	return pl->sf && n;
}

static int add_config(struct pcost_runner *r, struct plan *pl, struct pcost_session *s,
		      const struct pcost_probe_method *m, const char *path,
		      const struct pcost_probe_site *sites, size_t nsites,
		      const struct pcost_target *t, int64_t expected, struct pcost_monitor **shared,
		      const struct pcost_site_facts *facts)
{
	char err[256];
	struct pcost_monitor *mon = shared ? *shared : NULL;
	int idx;

	if (!mon) {
		if (pl->nmons >= MAX_MONITORS)
			return error("too many configurations");
		mon = pcost_probe_arm_create(m, path, sites, nsites, err, sizeof(err));
		if (!mon)
			return usage_error("%s", err);
		pl->mons[pl->nmons++] = mon;
		if (shared)
			*shared = mon;
	}
	idx = pcost_runner_add(r, mon, t);
	s->configs[idx].expected_events = expected;
	if (!pl->site_facts)
		pl->site_facts = cJSON_CreateArray();
	while (cJSON_GetArraySize(pl->site_facts) <= idx)
		cJSON_AddItemToArray(pl->site_facts, cJSON_CreateNull());
	if (facts)
		cJSON_ReplaceItemInArray(pl->site_facts, idx, pcost_site_facts_json(facts));
	return 0;
}

/* Does method m arm the probes of group g? */
static bool method_fits(const struct pcost_probe_method *m, const struct group *g)
{
	if (m == &pcost_probe_dormant)
		return true;
	if (g->lttng || m == &pcost_probe_lttng)
		return g->lttng && m == &pcost_probe_lttng;
	return !g->baseline_only;
}

/* Method m's monitor slot for g's build (NULL inside until add_config makes it). */
static struct pcost_monitor **build_monitor(struct plan *pl, const struct pcost_probe_method *m,
					    const struct group *g)
{
	size_t i;

	for (i = 0; i < pl->nbuilt; i++)
		if (pl->built[i].m == m && pl->built[i].site == g->site &&
		    !strcmp(pl->built[i].variant, g->variant))
			return &pl->built[i].mon;
	if (i == ARRAY_SIZE(pl->built))
		return NULL; /* add_config refuses: too many configurations */
	pl->built[pl->nbuilt++] = (typeof(pl->built[0])){ m, g->variant, g->site, NULL };
	return &pl->built[i].mon;
}

/* Every method x scale of one group; one monitor per method and build (build_monitor). */
static int add_group(const struct opts *o, struct pcost_runner *r, struct plan *pl,
		     struct pcost_session *s, const char *path, const struct group *g)
{
	char w[8][64], args[512];
	char *wargv[12] = { (char *)pcost_self_exe(), "workload", (char *)pl->wl->name };
	struct pcost_target t = { .workload = pl->wl->name, .workload_args = args,
				  .variant = g->variant, .unit = "hit", .argv = wargv, .scale = 1,
				  .events = -1, .report_fd = true };
	struct pcost_site_facts facts;
	bool known = sites_facts(pl, g->sites, g->nsites, &facts);
	int rc = 0;

	for (size_t i = 0; i < pl->nmethods && !rc; i++) {
		struct pcost_monitor **mon;

		if (!method_fits(pl->methods[i], g))
			continue;
		if (!(mon = build_monitor(pl, pl->methods[i], g)))
			return error("too many configurations");
		/* Every scale and layout; the layout copies exist for the SDT builds' nop sites. */
		for (size_t si = 0; si < o->nscales * pl->nlayouts && !rc; si++) {
			struct group gl = *g;
			uint64_t scale = o->scales[si / pl->nlayouts];
			size_t n, off = 0;

			gl.layout = pl->layouts[si % pl->nlayouts];
			if (gl.layout && (gl.site || gl.lttng))
				continue;
			n = pl->wl->args(pl, &gl, scale, w);

			for (size_t k = 0; k < n; k++) {
				wargv[3 + k] = w[k];
				off += (size_t)snprintf(args + off, sizeof(args) - off, "%s%s",
							k ? " " : "", w[k]);
			}
			wargv[3 + n] = NULL;
			t.scale = (double)scale;
			/* Every unit of scale is the same work: hits scale exactly. */
			rc = add_config(r, pl, s, pl->methods[i], path, g->sites, g->nsites, &t,
					g->baseline_only ? 0 : g->unit_hits * (int64_t)scale, mon,
					known ? &facts : NULL);
		}
	}
	return rc;
}

/* The built-in workload's configurations: site x variant x threads x method x scale. */
static int plan_builtin(const struct opts *o, struct pcost_runner *r, struct plan *pl,
			struct pcost_session *s, const struct pcost_sdt_list *l, const char *path)
{
	struct pcost_probe_site *sites = xcalloc(MAX_SITES, sizeof(*sites));
	int rc = 0;

	if (!strcmp(pl->wl->name, "stanford")) {
		unsigned mask = pl->kernel < 0 ? (1u << PCOST_SK_N) - 1 : 1u << pl->kernel;
		uint64_t hits[PCOST_SK_N];

		/* The hits are known exactly: the no-probe build counts its probe sites. */
		if (pcost_stanford_run(0, mask, 1, hits) != -1)
			rc = error("stanford: a kernel computed a wrong result; not measuring");
		for (int i = 0; i < PCOST_SK_N; i++)
			pl->stanford_hits += (int64_t)hits[i];
	}
	if (!rc)
		rc = parse_methods(o, pl);
	if (!rc)
		rc = parse_layouts(o, pl);
	if (!rc)
		dormant_study(o, pl, &r->opts);
	for (size_t i = 0; i < pl->nmethods && !o->variants && in_choices(pl->wl->choices, "lttng");
	     i++)
		if (pl->methods[i] == &pcost_probe_lttng && pl->nvariants < ARRAY_SIZE(pl->variants))
			pl->variants[pl->nvariants++] = "lttng";
	for (size_t si = 0; si < pl->nsites && !rc; si++)
		for (size_t vi = 0; vi < pl->nvariants && !rc; vi++)
			for (size_t ti = 0; ti < pl->nthreads && !rc; ti++) {
				struct group g = { .variant = pl->variants[vi], .site = pl->sites[si],
						   .threads = pl->threads[ti], .sites = sites };

				/* The no-probe build is the same in every encoding: once. */
				if (si && !strcmp(g.variant, "none"))
					continue;
				rc = pl->wl->group(pl, l, path, g.variant, g.site, &g);
				if (!rc && (g.nsites || g.baseline_only || g.lttng))
					rc = add_group(o, r, pl, s, path, &g);
			}
	free(sites);
	return rc;
}

/* A user's command and probe: every method once, hits checked against --hits. */
static int plan_binary(const struct opts *o, struct pcost_runner *r, struct plan *pl,
		       struct pcost_session *s, const struct pcost_sdt_list *l, const char *path)
{
	struct pcost_probe_site *sites = xcalloc(MAX_SITES, sizeof(*sites));
	char prov[64], name[64];
	char *joined = pcost_join_argv(o->cmd_argc, o->cmd_argv);
	struct pcost_target t = { .workload = "command", .workload_args = joined, .unit = "hit",
				  .argv = o->cmd_argv, .scale = 1,
				  .events = o->have_hits ? (int64_t)o->hits : -1 };
	struct pcost_site_facts facts;
	bool known = false;
	size_t n = 0;
	int rc;

	if (pcost_sdt_parse_spec(o->probe, prov, sizeof(prov), name, sizeof(name)))
		rc = usage_error("--probe '%s': expected PROVIDER:NAME", o->probe);
	else if (!(n = collect_sites(l, prov, name, sites, MAX_SITES)))
		rc = usage_error("'%s' has no probe %s:%s (see 'probecost probes --list %s')", path,
				 prov, name, path);
	else /* Methods last: bad input is reported before any note about them. */
		rc = parse_methods(o, pl);
	if (!rc)
		known = sites_facts(pl, sites, n, &facts);
	for (size_t i = 0; i < pl->nmethods && !rc; i++)
		rc = add_config(r, pl, s, pl->methods[i], path, sites, n, &t,
				o->have_hits ? (int64_t)o->hits : -1, NULL, known ? &facts : NULL);
	free(joined);
	free(sites);
	return rc;
}

/* What was asked, for `show` and `compare`. */
static char *options_json(const struct opts *o, const struct plan *pl, const char *path)
{
	cJSON *j = cJSON_CreateObject();
	char via[160] = "", *txt;

	for (size_t i = 0; i < pl->nmethods; i++)
		snprintf(via + strlen(via), sizeof(via) - strlen(via), "%s%s", i ? "," : "",
			 pl->methods[i]->name);
	cJSON_AddStringToObject(j, "binary", path);
	cJSON_AddStringToObject(j, "via", via);
	if (o->binary) {
		cJSON_AddStringToObject(j, "probe", o->probe);
	} else {
		cJSON *sc = cJSON_AddArrayToObject(j, "scale"), *th, *si;

		cJSON_AddStringToObject(j, "workload", pl->wl->name);
		for (size_t i = 0; i < o->nscales; i++)
			cJSON_AddItemToArray(sc, cJSON_CreateNumber((double)o->scales[i]));
		cJSON_AddStringToObject(j, "kernel", o->kernel ? o->kernel : "all");
		si = cJSON_AddArrayToObject(j, "sites");
		for (size_t i = 0; i < pl->nsites; i++)
			cJSON_AddItemToArray(si, cJSON_CreateString(
							 pcost_stanford_site_name(pl->sites[i])));
		th = cJSON_AddArrayToObject(j, "threads");
		for (size_t i = 0; i < pl->nthreads; i++)
			cJSON_AddItemToArray(th, cJSON_CreateNumber(pl->threads[i]));
	}
	/* Each configuration's site facts (report/probes.c shows them; stored with the options). */
	if (pl->site_facts)
		cJSON_AddItemToObject(j, "site_facts", cJSON_Duplicate(pl->site_facts, 1));
	txt = cJSON_PrintUnformatted(j);
	cJSON_Delete(j);
	return txt;
}

static void free_monitors(struct plan *pl)
{
	for (size_t i = 0; i < pl->nmons; i++)
		pcost_monitor_free(pl->mons[i]);
	pl->nmons = 0;
}

/* Run the planned session, disarm everything, print it; the exit code. */
static int run_and_report(const struct opts *o, struct pcost_runner *r, struct plan *pl,
			  struct pcost_session *s, const char *path)
{
	char err[256] = "";
	int rc, stale = pcost_probe_ftrace_reap_stale();

	if (stale > 0)
		warning("removed %d tracefs uprobe events left by a probecost that was killed",
			stale);
	/* Sweep what a killed probecost left; refuse while a foreign tracer is armed. */
	r->opts.probed_binary = path;
	if ((rc = pcost_runner_check(r, err, sizeof(err))) < 0) {
		pcost_runner_release(r);
		free_monitors(pl);
		return error("%s", err);
	}
	pcost_sink_begin(s, o->db, o->no_store);
	rc = pcost_runner_measure(r, err, sizeof(err));
	s->complete = rc == 0 && !pcost_interrupted;
	pcost_sink_end(s);
	/* Disarm everything before printing. */
	pcost_runner_release(r);
	free_monitors(pl);
	if (rc && rc != -EINTR)
		return error("%s", err[0] ? err : strerror(-rc));
	pcost_report_probes(s, o->fmt, stdout);
	/* 128 + signal, as a shell reports it (and as `run` does). */
	rc = rc == -EINTR || pcost_interrupted
		     ? 128 + (pcost_interrupted ? (int)pcost_interrupted : SIGINT)
		     : 0;
	if (rc)
		error("interrupted: the report covers the runs done so far");
	else if (pcost_sink_lost())
		rc = PCOST_EXIT_NOT_STORED;
	return rc;
}

static void runner_opts(const struct opts *o, const struct pcost_session *s,
			struct pcost_runner_opts *ro)
{
	pcost_runner_opts_default(ro);
	ro->runs = (unsigned)o->runs;
	ro->warmup = (unsigned)o->warmup;
	ro->timeout_s = o->timeout;
	ro->seed = s->seed;
	ro->progress = isatty(2) && pcost_verbosity > 0;
}

static int measure(const struct opts *o, struct pcost_session *s)
{
	struct plan *pl = xcalloc(1, sizeof(*pl));
	struct pcost_runner_opts ro;
	struct pcost_runner r;
	struct pcost_sdt_list l = { 0 };
	char path[PATH_MAX];
	int rc;

	if (!o->binary && (rc = parse_shape(o, pl)))
		goto out_free;
	if (pcost_probe_lttng_reap_stale() > 0)
		warning("removed an lttng session daemon or traces left by a probecost that was killed");
	if ((rc = check_binary(o->binary ? o->binary : pcost_self_exe(), path, sizeof(path))))
		goto out_free;
	rc = pcost_sdt_read(path, &l);
	if (rc) {
		rc = probe_file_error(path, rc);
		goto out_list;
	}
	if (!l.n) {
		rc = usage_error("'%s' has no SDT notes (.note.stapsdt)", path);
		goto out_list;
	}
	if (pcost_site_file_open(path, &pl->sf))
		pl->sf = NULL; /* the facts stay unknown */
	runner_opts(o, s, &ro);
	if (o->cpu && pcost_parse_cpulist(o->cpu, &ro.cpu_mask)) {
		rc = usage_error("--cpu: '%s' is not a CPU list (e.g. 0 or 0-1)", o->cpu);
		goto out_list;
	}
	pcost_runner_init(&r, s, &ro);
	pcost_probe_uprobe_set_cpus(ro.cpu_mask);
	rc = o->binary ? plan_binary(o, &r, pl, s, &l, path) : plan_builtin(o, &r, pl, s, &l, path);
	if (rc) {
		pcost_runner_release(&r);
		free_monitors(pl);
		goto out_list;
	}
	s->options_json = options_json(o, pl, path);
	rc = run_and_report(o, &r, pl, s, path);
out_list:
	pcost_site_file_free(pl->sf);
	pcost_sdt_list_release(&l);
out_free:
	cJSON_Delete(pl->site_facts);
	free(pl);
	return rc;
}

/* "10" or "1,2,4" into v[] (at most max numbers in lo..hi); the count, 0 when malformed. */
static size_t parse_numbers(const char *arg, uint64_t *v, size_t max, uint64_t lo, uint64_t hi)
{
	char buf[256], *w[MAX_SCALES + 1];
	size_t n = split_list(arg, buf, sizeof(buf), w, ARRAY_SIZE(w));

	if (!n || n > max)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (pcost_parse_u64(w[i], lo, hi, &v[i]))
			return 0;
	return n;
}

static const struct option longopts[] = {
	{ "list", required_argument, NULL, 'L' },
	{ "binary", required_argument, NULL, 'b' },
	{ "probe", required_argument, NULL, 'p' },
	{ "hits", required_argument, NULL, 'H' },
	{ "via", required_argument, NULL, 'V' },
	{ "variants", required_argument, NULL, 'a' },
	{ "scale", required_argument, NULL, 's' },
	{ "kernel", required_argument, NULL, 'k' },
	{ "workload", required_argument, NULL, 'W' },
	{ "sites", required_argument, NULL, 'S' },
	{ "threads", required_argument, NULL, 'x' },
	{ "layouts", required_argument, NULL, 'l' },
	{ "precision", required_argument, NULL, 'P' },
	{ "max-time", required_argument, NULL, 'T' },
	{ "runs", required_argument, NULL, 'r' },
	{ "warmup", required_argument, NULL, 'w' },
	{ "cpu", required_argument, NULL, 'c' },
	{ "timeout", required_argument, NULL, 't' },
	{ "format", required_argument, NULL, 'f' },
	{ "db", required_argument, NULL, 'd' },
	{ "no-store", no_argument, NULL, 'N' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* Options that only go together (--binary with --probe and a command, ...); 0 or exit 2. */
static int check_combination(const struct opts *o)
{
	if (o->binary || o->probe) {
		if (!o->binary || !o->probe)
			return usage_error("--binary and --probe go together");
		if (!o->cmd_argc)
			return usage_error("--binary needs the command to run after '--'");
		if (o->variants || o->kernel || o->workload || o->sites || o->nthreads || o->layouts)
			return usage_error("--variants, --kernel, --layouts, --workload, --sites and "
					   "--threads are for the built-in workloads, not --binary");
	} else if (o->cmd_argc) {
		return usage_error("a command after '--' needs --binary and --probe");
	} else if (o->have_hits) {
		return usage_error("--hits goes with --binary (stanford knows its hits)");
	}
	return 0;
}

int cmd_probes(int argc, char **argv)
{
	struct opts o = { .scales = { 10 }, .nscales = 1, .runs = 5, .warmup = 1, .timeout = 600,
			  .fmt = PCOST_FMT_TEXT, .precision_ns = 0.3, .max_time = 270 };
	struct pcost_session s;
	int c, rc;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+r:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'L': o.list = optarg; break;
		case 'b': o.binary = optarg; break;
		case 'p': o.probe = optarg; break;
		case 'V': o.via = optarg; break;
		case 'a': o.variants = optarg; break;
		case 'k': o.kernel = optarg; break;
		case 'W': o.workload = optarg; break;
		case 'S': o.sites = optarg; break;
		case 'l': o.layouts = optarg; break;
		case 'P':
			if (pcost_parse_double(optarg, 0.001, 1e6, &o.precision_ns))
				return usage_error("--precision: '%s' is not in ns (0.001..1000000)", optarg);
			break;
		case 'T':
			if (pcost_parse_double(optarg, 1, 86400, &o.max_time))
				return usage_error("--max-time: '%s' is not in seconds (1..86400)", optarg);
			break;
		case 'x':
			if (!(o.nthreads = parse_numbers(optarg, o.threads, MAX_THREADS, 1, 1024)))
				return usage_error("--threads: '%s' is not a list of up to %d numbers in "
						   "1..1024", optarg, MAX_THREADS);
			break;
		case 'c': o.cpu = optarg; break;
		case 'd':
			if (pcost_db_opt_check(optarg))
				return PCOST_EXIT_USAGE;
			o.db = optarg;
			break;
		case 'N': o.no_store = true; break;
		case 'H':
			if (pcost_parse_u64(optarg, 0, INT64_MAX, &o.hits))
				return usage_error("--hits: '%s' is not a count", optarg);
			o.have_hits = true;
			break;
		case 's':
			if (!(o.nscales = parse_numbers(optarg, o.scales, MAX_SCALES, 1, 1000000)))
				return usage_error("--scale: '%s' is not a list of up to %d numbers in "
						   "1..1000000", optarg, MAX_SCALES);
			break;
		case 'r':
			if (pcost_parse_u64(optarg, 1, 100000, &o.runs))
				return usage_error("--runs: '%s' is not in 1..100000", optarg);
			o.runs_given = true;
			break;
		case 'w':
			if (pcost_parse_u64(optarg, 0, 1000, &o.warmup))
				return usage_error("--warmup: '%s' is not in 0..1000", optarg);
			break;
		case 't':
			if (pcost_parse_double(optarg, 0.001, 86400, &o.timeout))
				return usage_error("--timeout: '%s' is not in seconds (0.001..86400)",
						   optarg);
			break;
		case 'f':
			if (pcost_format_opt(optarg, PCOST_FMT_ROWS, &o.fmt))
				return PCOST_EXIT_USAGE;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		default:
			return usage_error("unknown or incomplete option '%s'; see 'probecost "
					   "probes --help'", argv[optind - 1]);
		}
	}
	o.cmd_argc = argc - optind;
	o.cmd_argv = argv + optind;
	if (o.list) {
		if (o.binary || o.probe || o.cmd_argc)
			return usage_error("--list takes only a binary (and --format)");
		return list_probes(o.list, o.fmt);
	}
	if ((rc = check_combination(&o)))
		return rc;

	pcost_session_init(&s, PCOST_SESSION_PROBES);
	s.started = (int64_t)time(NULL);
	s.cmdline = pcost_join_argv(argc, argv);
	s.version = xstrdup(PCOST_VERSION);
	s.seed = (uint64_t)pcost_now_ns();
	s.tsc_hz = pcost_tsc_hz();
	s.env_json = pcost_env_to_json_text(pcost_env_self());
	rc = measure(&o, &s);
	pcost_session_release(&s);
	return rc;
}
