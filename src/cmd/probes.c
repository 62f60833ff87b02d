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

#include "core/cleanup.h"
#include "core/env.h"
#include "probes/arm.h"
#include "probes/sdt.h"
#include "report/report.h"
#include "run/runner.h"
#include "store/store.h"
#include "workloads/stanford.h"

/* The lead's env lands in the same tree; without it cycles are not reported. */
#pragma weak pcost_tsc_hz
#pragma weak pcost_env_self
#pragma weak pcost_env_to_json_text

#define MAX_SITES 256
#define MAX_MONITORS 128
#define MAX_SCALES 8

static const char usage_text[] =
	"usage: probecost probes [options]                 the stanford SDT benchmark\n"
	"       probecost probes --list BIN                list the SDT probes of an ELF file\n"
	"       probecost probes --binary BIN --probe PROV:NAME [--hits N] -- CMD [ARGS]\n"
	"\n"
	"  --via LIST        arming methods (default: every one available here):\n"
	"                    dormant,uprobe,ftrace,perf-probe,bpftrace,stap\n"
	"  --variants LIST   stanford builds (default all): none,plain,volatile,plain-sem,volatile-sem\n"
	"  --scale N[,N..]   stanford repetitions (default 10; 289,264 hits each); several\n"
	"                    sizes fit time = fixed + per hit x hits (start-up apart)\n"
	"  --kernel NAME     only this stanford kernel (perm, towers, ..., fft)\n"
	"  --layouts LIST    code layouts of each build: default,a32,a64 (functions, loops\n"
	"                    and jumps aligned to 32 or 64 bytes); default: all three with\n"
	"                    --via dormant alone, else default\n"
	"  --precision NS    --via dormant alone: add blocks until every dormant cost per\n"
	"                    hit is known to +- NS (default 0.3), at least 5 blocks, at\n"
	"                    most --max-time S (default 270); --runs N fixes the count\n"
	"  --binary BIN      a user's USDT-instrumented executable (with --probe and -- CMD)\n"
	"  --probe PROV:NAME the probe to arm in BIN (every site of it)\n"
	"  --hits N          hits CMD is expected to make (checked against each method's count)\n"
	"  -r, --runs N      measured blocks (default 5, adaptive with --via dormant alone);\n"
	"                    --warmup N (default 1)\n"
	"  --cpu LIST        pin the workload to these CPUs (e.g. 0)\n"
	"  --timeout S       per-run limit in seconds (default 600)\n"
	"  --format F        text, json, csv, markdown (default text)\n"
	"  --db PATH         the store (default $XDG_DATA_HOME/probecost/probecost.db)\n"
	"  --no-store        do not store the session\n";

struct opts {
	const char *list, *binary, *probe, *via, *variants, *kernel, *db, *cpu, *layouts;
	double precision_ns, max_time;
	bool runs_given;
	uint64_t scales[MAX_SCALES], hits, runs, warmup;
	size_t nscales;
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

static int list_probes(const char *bin, enum pcost_format f)
{
	struct pcost_sdt_list l;
	int rc = pcost_sdt_read(bin, &l);

	if (rc) {
		pcost_sdt_list_release(&l);
		return probe_file_error(bin, rc);
	}
	if (!l.n) {
		pcost_sdt_list_release(&l);
		return usage_error("'%s' has no SDT notes (.note.stapsdt)", bin);
	}
	if (f == PCOST_FMT_CSV)
		printf("provider,name,pc,pc_offset,semaphore,semaphore_offset,args\n");
	else if (f == PCOST_FMT_TEXT)
		printf("%-24s %-14s %-12s %-10s %-12s %-10s %s\n", "provider", "name", "pc",
		       "offset", "semaphore", "sem-off", "arguments");
	else if (f == PCOST_FMT_MARKDOWN)
		printf("| provider | name | pc | offset | semaphore | sem-off | arguments |\n"
		       "|---|---|---|---|---|---|---|\n");
	else
		printf("[");
	for (size_t i = 0; i < l.n; i++) {
		const struct pcost_sdt_probe *p = &l.probes[i];
		unsigned long long pc = p->pc, po = p->pc_offset, sm = p->sem, so = p->sem_offset;

		if (f == PCOST_FMT_CSV)
			printf("%s,%s,0x%llx,0x%llx,0x%llx,0x%llx,\"%s\"\n", p->provider, p->name, pc,
			       po, sm, so, p->args);
		else if (f == PCOST_FMT_TEXT) {
			char smb[24] = "-", sob[24] = "-";

			if (sm)
				snprintf(smb, sizeof(smb), "0x%llx", sm);
			if (so)
				snprintf(sob, sizeof(sob), "0x%llx", so);
			printf("%-24s %-14s 0x%-10llx 0x%-8llx %-12s %-10s %s\n", p->provider, p->name,
			       pc, po, smb, sob, p->args);
		}
		else if (f == PCOST_FMT_MARKDOWN)
			printf("| %s | %s | 0x%llx | 0x%llx | 0x%llx | 0x%llx | `%s` |\n", p->provider,
			       p->name, pc, po, sm, so, p->args);
		else {
			cJSON *o = cJSON_CreateObject();
			char *txt;

			cJSON_AddStringToObject(o, "provider", p->provider);
			cJSON_AddStringToObject(o, "name", p->name);
			cJSON_AddNumberToObject(o, "pc", (double)pc);
			cJSON_AddNumberToObject(o, "pc_offset", (double)po);
			cJSON_AddNumberToObject(o, "semaphore", (double)sm);
			cJSON_AddNumberToObject(o, "semaphore_offset", (double)so);
			cJSON_AddStringToObject(o, "args", p->args);
			txt = cJSON_PrintUnformatted(o);
			printf("%s\n  %s", i ? "," : "", txt);
			free(txt);
			cJSON_Delete(o);
		}
	}
	if (f == PCOST_FMT_JSON)
		printf("\n]\n");
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
		snprintf(sites[n].provider, sizeof(sites[n].provider), "%s", p->provider);
		snprintf(sites[n].name, sizeof(sites[n].name), "%s", p->name);
		sites[n].pc_offset = p->pc_offset;
		sites[n].sem_offset = p->sem_offset;
		n++;
	}
	return n;
}

struct plan {
	const struct pcost_probe_method *methods[8];
	size_t nmethods;
	int variants[PCOST_STANFORD_NVARIANTS];
	size_t nvariants;
	int layouts[PCOST_STANFORD_NLAYOUTS];
	size_t nlayouts;
	struct pcost_monitor *mons[MAX_MONITORS];
	size_t nmons;
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

static int parse_variants(const struct opts *o, struct plan *pl)
{
	char buf[256], *w[16];
	size_t n;

	if (!o->variants) {
		for (int v = 0; v < PCOST_STANFORD_NVARIANTS; v++)
			pl->variants[pl->nvariants++] = v;
		return 0;
	}
	n = split_list(o->variants, buf, sizeof(buf), w, ARRAY_SIZE(w));
	for (size_t i = 0; i < n; i++) {
		int v = pcost_stanford_variant_find(w[i]);

		if (v < 0)
			return usage_error("unknown variant '%s' (none, plain, volatile, plain-sem, "
					   "volatile-sem)", w[i]);
		if (pl->nvariants < ARRAY_SIZE(pl->variants))
			pl->variants[pl->nvariants++] = v;
	}
	if (!pl->nvariants)
		return usage_error("--variants: give at least one variant");
	return 0;
}

/* Only the dormant method: the dormant-cost study (every layout, adaptive blocks). */
static bool dormant_only(const struct plan *pl)
{
	return pl->nmethods == 1 && pl->methods[0] == &pcost_probe_dormant;
}

static int parse_layouts(const struct opts *o, struct plan *pl)
{
	char buf[128], *w[8];
	size_t n;

	if (!o->layouts) {
		for (int l = 0; l < (dormant_only(pl) ? PCOST_STANFORD_NLAYOUTS : 1); l++)
			pl->layouts[pl->nlayouts++] = l;
		return 0;
	}
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

static int add_config(struct pcost_runner *r, struct plan *pl, struct pcost_session *s,
		      const struct pcost_probe_method *m, const char *path,
		      const struct pcost_probe_site *sites, size_t nsites,
		      const struct pcost_target *t, int64_t expected, struct pcost_monitor **shared)
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
	return 0;
}

static int measure(const struct opts *o, struct pcost_session *s)
{
	struct plan pl = { .nmethods = 0 };
	struct pcost_runner_opts ro;
	struct pcost_runner r;
	struct pcost_sdt_list l;
	struct pcost_probe_site *sites = xcalloc(MAX_SITES, sizeof(*sites));
	char path[PATH_MAX], err[256] = "";
	int rc, k = -1;

	if ((rc = parse_variants(o, &pl)))
		goto out_free;
	if (o->kernel) {
		for (k = 0; k < PCOST_SK_N && strcmp(pcost_stanford_kernel_name(k), o->kernel); k++)
			;
		if (k == PCOST_SK_N) {
			rc = usage_error("unknown stanford kernel '%s'", o->kernel);
			goto out_free;
		}
	}
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

	pcost_runner_opts_default(&ro);
	ro.runs = (unsigned)o->runs;
	ro.warmup = (unsigned)o->warmup;
	ro.timeout_s = o->timeout;
	ro.seed = s->seed;
	ro.progress = isatty(2) && pcost_verbosity > 0;
	if (o->cpu && pcost_parse_cpulist(o->cpu, &ro.cpu_mask)) {
		rc = usage_error("--cpu: '%s' is not a CPU list (e.g. 0 or 0-1)", o->cpu);
		goto out_list;
	}
	pcost_runner_init(&r, s, &ro);
	pcost_probe_uprobe_set_cpus(ro.cpu_mask);

	if (o->binary) {
		char prov[64], name[64], **cmd = o->cmd_argv;
		char *joined = pcost_join_argv(o->cmd_argc, o->cmd_argv);
		size_t n;
		struct pcost_target t = { .workload = "command", .workload_args = joined,
					  .unit = "hit", .argv = cmd, .scale = 1,
					  .events = o->have_hits ? (int64_t)o->hits : -1 };

		if (pcost_sdt_parse_spec(o->probe, prov, sizeof(prov), name, sizeof(name))) {
			free(joined);
			rc = usage_error("--probe '%s': expected PROVIDER:NAME", o->probe);
			goto out_runner;
		}
		n = collect_sites(&l, prov, name, sites, MAX_SITES);
		if (!n) {
			free(joined);
			rc = usage_error("'%s' has no probe %s:%s (see 'probecost probes --list %s')",
					 path, prov, name, path);
			goto out_runner;
		}
		/* Methods last: bad input is reported before any note about them. */
		if ((rc = parse_methods(o, &pl))) {
			free(joined);
			goto out_runner;
		}
		for (size_t i = 0; i < pl.nmethods && !rc; i++)
			rc = add_config(&r, &pl, s, pl.methods[i], path, sites, n, &t,
					o->have_hits ? (int64_t)o->hits : -1, NULL);
		free(joined);
	} else {
		unsigned mask = k < 0 ? (1u << PCOST_SK_N) - 1 : 1u << k;
		uint64_t hits[PCOST_SK_N];
		int64_t expected = 0;

		/* The hits are known exactly: the no-probe build counts its probe sites. */
		if (pcost_stanford_run(0, mask, 1, hits) >= 0) {
			rc = error("stanford: a kernel computed a wrong result; not measuring");
			goto out_runner;
		}
		for (int i = 0; i < PCOST_SK_N; i++)
			expected += (int64_t)hits[i];
		if ((rc = parse_methods(o, &pl)) || (rc = parse_layouts(o, &pl)))
			goto out_runner;
		dormant_study(o, &pl, &r.opts);
		for (size_t vi = 0; vi < pl.nvariants && !rc; vi++) {
			int v = pl.variants[vi];
			const char *vname = pcost_stanford_variant_name(v);
			const char *prov = pcost_stanford_provider(v);
			char a_var[64], a_scale[64], a_kernel[64], a_layout[64], args[256];
			char *wargv[] = { (char *)pcost_self_exe(), "workload", "stanford", a_var,
					  a_scale, a_kernel, a_layout, NULL };
			struct pcost_target t = { .workload = "stanford", .workload_args = args,
						  .variant = vname, .unit = "hit", .argv = wargv,
						  .scale = 1, .events = -1, .report_fd = true };
			size_t n = 0;

			if (prov) {
				for (int kk = 0; kk < PCOST_SK_N; kk++)
					if (mask & (1u << kk))
						n += collect_sites(&l, prov, pcost_stanford_kernel_name(kk),
								   sites + n, MAX_SITES - n);
				if (!n) {
					rc = error("'%s' lacks the %s probes (a build problem)", path,
						   prov);
					break;
				}
			}
			for (size_t i = 0; i < pl.nmethods && !rc; i++) {
				struct pcost_monitor *mon = NULL;

				/* The no-probe build has nothing to arm: its dormant row only. */
				if (!prov && pl.methods[i] != &pcost_probe_dormant)
					continue;
				/* One monitor per build and method, shared by every scale and layout. */
				for (size_t si = 0; si < o->nscales * pl.nlayouts && !rc; si++) {
					int lay = pl.layouts[si % pl.nlayouts];

					snprintf(a_var, sizeof(a_var), "variant=%s", vname);
					snprintf(a_scale, sizeof(a_scale), "scale=%llu",
						 (unsigned long long)o->scales[si / pl.nlayouts]);
					snprintf(a_kernel, sizeof(a_kernel), "kernel=%s",
						 k < 0 ? "all" : pcost_stanford_kernel_name(k));
					snprintf(a_layout, sizeof(a_layout), "layout=%s",
						 pcost_stanford_layout_name(lay));
					snprintf(args, sizeof(args), "%s %s %s%s%s", a_var, a_scale, a_kernel,
						 lay ? " " : "", lay ? a_layout : "");
					/* The default layout keeps the arguments it always had. */
					wargv[6] = lay ? a_layout : NULL;
					t.scale = (double)o->scales[si / pl.nlayouts];
					/* Every repetition is the same work: hits scale exactly. */
					rc = add_config(&r, &pl, s, pl.methods[i], path, sites, n, &t,
							expected * (int64_t)o->scales[si / pl.nlayouts],
							&mon);
				}
			}
		}
	}
	if (rc)
		goto out_runner;

	{
		/* What was asked, for `show` and `compare`. */
		cJSON *j = cJSON_CreateObject();
		char via[128] = "";

		for (size_t i = 0; i < pl.nmethods; i++)
			snprintf(via + strlen(via), sizeof(via) - strlen(via), "%s%s", i ? "," : "",
				 pl.methods[i]->name);
		cJSON_AddStringToObject(j, "binary", path);
		cJSON_AddStringToObject(j, "via", via);
		if (o->binary) {
			cJSON_AddStringToObject(j, "probe", o->probe);
		} else {
			cJSON *sc = cJSON_AddArrayToObject(j, "scale");

			for (size_t si = 0; si < o->nscales; si++)
				cJSON_AddItemToArray(sc, cJSON_CreateNumber((double)o->scales[si]));
			cJSON_AddStringToObject(j, "kernel", o->kernel ? o->kernel : "all");
		}
		s->options_json = cJSON_PrintUnformatted(j);
		cJSON_Delete(j);
	}
	{
		int stale = pcost_probe_ftrace_reap_stale();

		if (stale > 0)
			warning("removed %d tracefs uprobe events left by a probecost that was killed",
				stale);
	}
	/* Sweep what a killed probecost left; refuse while a foreign tracer is armed. */
	ro.probed_binary = path;
	r.opts.probed_binary = path;
	if ((rc = pcost_runner_check(&r, err, sizeof(err))) < 0) {
		rc = error("probes: %s", err);
		goto out_runner;
	}
	PCOST_SINK(begin, s, o->db, o->no_store);
	rc = pcost_runner_measure(&r, err, sizeof(err));
	s->complete = rc == 0 && !pcost_interrupted;
	PCOST_SINK(end, s);
	/* Disarm everything before printing. */
	pcost_runner_release(&r);
	for (size_t i = 0; i < pl.nmons; i++)
		pcost_monitor_free(pl.mons[i]);
	pl.nmons = 0;
	if (rc && rc != -EINTR) {
		rc = error("probes: %s", err[0] ? err : strerror(-rc));
	} else {
		if (pcost_report_probes)
			pcost_report_probes(s, o->fmt, stdout);
		/* 128 + signal, as a shell reports it (and as `run` does). */
		rc = rc == -EINTR || pcost_interrupted
			     ? 128 + (pcost_interrupted ? (int)pcost_interrupted : SIGINT)
			     : 0;
		if (rc)
			error("interrupted: the report covers the runs done so far");
	}
	pcost_sdt_list_release(&l);
	free(sites);
	return rc;

out_runner:
	pcost_runner_release(&r);
	for (size_t i = 0; i < pl.nmons; i++)
		pcost_monitor_free(pl.mons[i]);
out_list:
	pcost_sdt_list_release(&l);
out_free:
	free(sites);
	return rc;
}

/* "10" or "1,2,4": stanford sizes (several: a fit separates fixed from per-hit cost). */
static int parse_scales(const char *arg, struct opts *o)
{
	char buf[256], *w[MAX_SCALES + 1];
	size_t n = split_list(arg, buf, sizeof(buf), w, ARRAY_SIZE(w));

	if (!n || n > MAX_SCALES)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (pcost_parse_u64(w[i], 1, 1000000, &o->scales[i]))
			return -EINVAL;
	o->nscales = n;
	return 0;
}

int cmd_probes(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "list", required_argument, NULL, 'L' },
		{ "binary", required_argument, NULL, 'b' },
		{ "probe", required_argument, NULL, 'p' },
		{ "hits", required_argument, NULL, 'H' },
		{ "via", required_argument, NULL, 'V' },
		{ "variants", required_argument, NULL, 'a' },
		{ "scale", required_argument, NULL, 's' },
		{ "kernel", required_argument, NULL, 'k' },
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
		case 'l': o.layouts = optarg; break;
		case 'P':
			if (pcost_parse_double(optarg, 0.001, 1e6, &o.precision_ns))
				return usage_error("--precision: '%s' is not in ns (0.001..1000000)", optarg);
			break;
		case 'T':
			if (pcost_parse_double(optarg, 1, 86400, &o.max_time))
				return usage_error("--max-time: '%s' is not in seconds (1..86400)", optarg);
			break;
		case 'c': o.cpu = optarg; break;
		case 'd': o.db = optarg; break;
		case 'N': o.no_store = true; break;
		case 'H':
			if (pcost_parse_u64(optarg, 0, INT64_MAX, &o.hits))
				return usage_error("--hits: '%s' is not a count", optarg);
			o.have_hits = true;
			break;
		case 's':
			if (parse_scales(optarg, &o))
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
			if (pcost_format_parse(optarg, &o.fmt))
				return pcost_format_refuse("probes", optarg);
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		default:
			return usage_error("probes: unknown or incomplete option '%s'; see 'probecost "
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
	if (o.binary || o.probe) {
		if (!o.binary || !o.probe)
			return usage_error("--binary and --probe go together");
		if (!o.cmd_argc)
			return usage_error("--binary needs the command to run after '--'");
		if (o.variants || o.kernel || o.layouts)
			return usage_error("--variants, --kernel and --layouts are for the stanford workload");
	} else if (o.cmd_argc) {
		return usage_error("a command after '--' needs --binary and --probe");
	} else if (o.have_hits) {
		return usage_error("--hits goes with --binary (stanford knows its hits)");
	}

	pcost_session_init(&s, PCOST_SESSION_PROBES);
	s.started = (int64_t)time(NULL);
	s.cmdline = pcost_join_argv(argc, argv);
	s.version = xstrdup(PCOST_VERSION);
	s.seed = (uint64_t)pcost_now_ns();
	s.tsc_hz = pcost_tsc_hz ? pcost_tsc_hz() : 0;
	if (pcost_env_self && pcost_env_to_json_text)
		s.env_json = pcost_env_to_json_text(pcost_env_self());
	rc = measure(&o, &s);
	pcost_session_release(&s);
	return rc;
}
