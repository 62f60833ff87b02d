// SPDX-License-Identifier: MIT
/*
 * cmd/cmd-probes: `probecost probes` -- what a static user probe (SDT/USDT) costs,
 * dormant and armed, per hit.  Builds one configuration per (variant, arming
 * method) of the stanford workload (or of a user's command and probe), hands
 * them to the runner, and prints pcost_report_probes() of the session.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <signal.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/cmd-measure-opts.h"
#include "cmd/cmd-options.h"
#include "core/cleanup.h"
#include "core/env.h"
#include "core/proc.h"
#include "probes/arm.h"
#include "probes/plan.h"
#include "probes/sdt.h"
#include "probes/site_safety.h"
#include "report/emit.h"
#include "report/report.h"
#include "run/outcheck.h"
#include "run/runner.h"
#include "store/store.h"
#include "workloads/stanford.h"
#include "workloads/uprobe.h"

#define MAX_SCALES PCOST_PROBE_MAX_SCALES

static const char *const probes_usage[] = {
	"probes [options]                 the stanford SDT benchmark",
	"probes --list BIN                list the SDT probes of an ELF file",
	"probes --binary BIN --probe PROV:NAME [--hits N] -- CMD [ARGS]",
	NULL,
};

struct opts {
	const char *list;	      /* --list BIN */
	bool no_wait;		      /* --no-wait: refuse while another probes session runs */
	struct pcost_probe_request q; /* what to measure (probes/plan.h) */
	/* The shared options: runner options (ro: runs, warmup, timeout, cpu, max time),
	 * --precision (ns per hit), --threads, --format, --db, --no-store. */
	struct pcost_measure_opts m;
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
	const char *enc = pcost_site_encoding_name(sf->encoding),
		   *rz = fact_word(sf->red_zone_live), *op = fact_word(sf->optimizable);
	char where[96];

	fact_where(sf, where, sizeof(where));
	if (f == PCOST_FMT_CSV) {
		printf("%s,%s,0x%llx,0x%llx,0x%llx,0x%llx,\"%s\",%s,%s,%s,%s,\"%s\",%s\n",
		       p->provider, p->name, pc, po, sm, so, p->args, enc, rz ? rz : "",
		       op ? op : "", sf->function[0] ? where : "", sf->why,
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
		cJSON_AddItemToObject(o, "function",
				      sf->function[0] ? cJSON_CreateString(sf->function)
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

/*
 * --via dormant alone: after a pilot of 10 blocks, the blocks every build's
 * dormant cost per hit needs to be within +- precision_ns over its layouts are
 * planned once (run/runner.c, stats/twostage.c) and run, within max_time;
 * --runs fixes the count instead.
 */
static void dormant_study(const struct opts *o, const struct pcost_probe_plan *pl,
			  struct pcost_runner_opts *ro)
{
	if (!pcost_probe_plan_dormant_only(pl) || o->m.runs_given)
		return;
	ro->runs = 0;
	ro->min_runs = 10;
	ro->max_runs = 0;
	ro->precision_dormant_ns = o->m.precision_ns;
	ro->max_time_s = o->m.ro.max_time_s;
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
				   "[A-Za-z0-9/._+,=@~-]); copy or link the binary elsewhere",
				   abs);
	return 0;
}

/* What was asked, for `show` and `compare`. */
static char *options_json(const struct opts *o, const struct pcost_probe_plan *pl, const char *path,
			  const cJSON *site_facts)
{
	cJSON *j = cJSON_CreateObject();
	char via[160] = "", *txt;

	for (size_t i = 0; i < pl->nmethods; i++)
		snprintf(via + strlen(via), sizeof(via) - strlen(via), "%s%s", i ? "," : "",
			 pl->methods[i]->name);
	cJSON_AddStringToObject(j, "binary", path);
	cJSON_AddStringToObject(j, "via", via);
	pcost_outcheck_json(o->m.ro.check_output, o->m.ro.output_filter, j);
	if (o->q.binary) {
		cJSON_AddStringToObject(j, "probe", o->q.probe);
	} else {
		cJSON *sc = cJSON_AddArrayToObject(j, "scale"), *th, *si;

		cJSON_AddStringToObject(j, "workload", pl->wl_name);
		for (size_t i = 0; i < o->q.nscales; i++)
			cJSON_AddItemToArray(sc, cJSON_CreateNumber((double)o->q.scales[i]));
		cJSON_AddStringToObject(j, "kernel", o->q.kernel ? o->q.kernel : "all");
		si = cJSON_AddArrayToObject(j, "sites");
		for (size_t i = 0; i < pl->nsites; i++)
			cJSON_AddItemToArray(
				si, cJSON_CreateString(pcost_stanford_site_name(pl->sites[i])));
		th = cJSON_AddArrayToObject(j, "threads");
		for (size_t i = 0; i < pl->nthreads; i++)
			cJSON_AddItemToArray(th, cJSON_CreateNumber(pl->threads[i]));
	}
	/* The adaptive dormant study's target, for the warning when it was not reached. */
	if (pcost_probe_plan_dormant_only(pl) && !o->m.runs_given) {
		cJSON_AddNumberToObject(j, "precision_ns", o->m.precision_ns);
		cJSON_AddNumberToObject(j, "max_time_s", o->m.ro.max_time_s);
	}
	/* Each configuration's site facts (report/probes.c shows them; stored with the options). */
	if (site_facts)
		cJSON_AddItemToObject(j, "site_facts", cJSON_Duplicate(site_facts, 1));
	txt = cJSON_PrintUnformatted(j);
	cJSON_Delete(j);
	return txt;
}

/* Run the planned session, disarm everything, print it; the exit code. */
static int run_and_report(const struct opts *o, struct pcost_runner *r, struct pcost_probe_plan *pl,
			  struct pcost_session *s, const char *path)
{
	char err[256] = "";
	int rc, stale = pcost_probe_ftrace_reap_stale();

	if (stale > 0)
		warning("removed %d tracefs uprobe events left by a probecost that was killed",
			stale);
	/* Sweep what a killed probecost left; refuse while a foreign tracer is armed. */
	r->opts.probed_binary = path;
	if (pcost_runner_check(r, err, sizeof(err)) < 0) {
		pcost_runner_release(r);
		pcost_probe_plan_release(pl);
		return error("%s", err);
	}
	pcost_sink_begin(s, o->m.db, o->m.no_store);
	rc = pcost_runner_measure(r, err, sizeof(err));
	s->complete = rc == 0 && !pcost_interrupted;
	pcost_sink_end(s);
	/* Disarm everything before printing. */
	pcost_runner_release(r);
	pcost_probe_plan_release(pl);
	if (rc && rc != -EINTR)
		return error("%s", err[0] ? err : strerror(-rc));
	pcost_report_probes(s, o->m.fmt, stdout);
	/* 128 + signal, as a shell reports it (and as `run` does). */
	rc = rc == -EINTR || pcost_interrupted
		     ? 128 + (pcost_interrupted ? (int)pcost_interrupted : SIGINT)
		     : 0;
	if (rc)
		error("interrupted: the report covers the runs done so far");
	else if ((rc = pcost_changed_exit(s)) == 0 && pcost_sink_lost())
		rc = PCOST_EXIT_NOT_STORED;
	return rc;
}

static void runner_opts(const struct opts *o, const struct pcost_session *s,
			struct pcost_runner_opts *ro)
{
	*ro = o->m.ro;
	ro->seed = s->seed;
	ro->progress = isatty(2) && pcost_verbosity > 0;
	ro->exclusive = "probes";
	ro->no_wait = o->no_wait;
}

static int measure(const struct opts *o, struct pcost_session *s)
{
	struct pcost_probe_plan *pl = xcalloc(1, sizeof(*pl));
	struct pcost_runner_opts ro;
	struct pcost_runner r;
	struct pcost_sdt_list l = { 0 };
	cJSON *site_facts = NULL;
	char path[PATH_MAX];
	int rc;

	if (!o->q.binary && (rc = pcost_probe_plan_shape(&o->q, pl)))
		goto out_free;
	if ((rc = check_binary(o->q.binary ? o->q.binary : pcost_self_exe(), path, sizeof(path))))
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
	pcost_runner_init(&r, s, &ro);
	pcost_probe_uprobe_set_cpus(ro.cpu_mask);
	rc = pcost_probe_plan_build(&o->q, pl, &l, path);
	if (!rc && !o->q.binary)
		dormant_study(o, pl, &r.opts);
	for (size_t i = 0; i < pl->ncfg && !rc; i++) {
		const struct pcost_probe_config *c = &pl->cfg[i];
		int idx = pcost_runner_add_probe(&r, c);

		if (!site_facts)
			site_facts = cJSON_CreateArray();
		while (cJSON_GetArraySize(site_facts) <= idx)
			cJSON_AddItemToArray(site_facts, cJSON_CreateNull());
		if (c->facts_known)
			cJSON_ReplaceItemInArray(site_facts, idx, pcost_site_facts_json(&c->facts));
	}
	if (rc) {
		pcost_runner_release(&r);
		pcost_probe_plan_release(pl);
		goto out_list;
	}
	s->options_json = options_json(o, pl, path, site_facts);
	rc = run_and_report(o, &r, pl, s, path);
out_list:
	pcost_site_file_free(pl->sf);
	pcost_sdt_list_release(&l);
out_free:
	cJSON_Delete(site_facts);
	free(pl);
	return rc;
}

/* "10" or "1,2,4" into v[] (at most max numbers in lo..hi); the count, 0 when malformed. */
static size_t parse_numbers(const char *arg, uint64_t *v, size_t max, uint64_t lo, uint64_t hi)
{
	char buf[256], *save = NULL;
	size_t n = 0;

	snprintf(buf, sizeof(buf), "%s", arg);
	for (char *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save))
		if (n >= max || pcost_parse_u64(w, lo, hi, &v[n++]))
			return 0;
	return n;
}

/* Options that only go together (--binary with --probe and a command, ...); 0 or exit 2. */
static int check_combination(const struct opts *o)
{
	if (o->q.binary || o->q.probe) {
		if (!o->q.binary || !o->q.probe)
			return usage_error("--binary and --probe go together");
		if (!o->q.cmd_argc)
			return usage_error("--binary needs the command to run after '--'");
		if (pcost_refuse_unexecutable(NULL, o->q.cmd_argv[0]))
			return PCOST_EXIT_USAGE;
		if (o->q.variants || o->q.kernel || o->q.workload || o->q.sites || o->m.nthreads ||
		    o->q.layouts)
			return usage_error(
				"--variants, --kernel, --layouts, --workload, --sites and "
				"--threads are for the built-in workloads, not --binary");
	} else if (o->q.cmd_argc) {
		return usage_error("a command after '--' needs --binary and --probe");
	} else if (o->q.have_hits) {
		return usage_error("--hits goes with --binary (stanford knows its hits)");
	} else if (o->m.ro.check_output) {
		return usage_error("--check-output compares the output of --binary's command; the "
				   "built-in workloads check their own results");
	}
	return pcost_measure_opts_check(&o->m) ? PCOST_EXIT_USAGE : 0;
}

static int hits_opt(const struct pcost_option *opt, const char *arg)
{
	struct pcost_probe_request *q = opt->value;

	if (pcost_parse_u64(arg, 0, INT64_MAX, &q->hits))
		return usage_error("--hits: '%s' is not a count", arg);
	q->have_hits = true;
	return 0;
}

static int scale_opt(const struct pcost_option *opt, const char *arg)
{
	struct pcost_probe_request *q = opt->value;

	if (!(q->nscales = parse_numbers(arg, q->scales, MAX_SCALES, 1, 1000000)))
		return usage_error("--scale: '%s' is not a list of up to %d numbers in 1..1000000",
				   arg, MAX_SCALES);
	return 0;
}

/* 0, PCOST_OPTS_HELP after --help, or an exit code; o->q.cmd_argv/argc the command. */
static int parse_args(struct opts *o, int argc, char **argv)
{
	const struct pcost_option options[] = {
		OPT_STRING(0, "via", &o->q.via, "LIST",
			   "arming methods (default: every one available here):\n"
			   "dormant,uprobe,ftrace,perf-probe,bpftrace,stap"),
		OPT_STRING(0, "workload", &o->q.workload, "W",
			   "stanford (default), uprobe (a loop calling a probed nop, push or\n"
			   "ret), sdtargs (probes of 0/1/3/6 arguments or an expensive one)"),
		OPT_STRING(0, "variants", &o->q.variants, "LIST",
			   "the workload's builds (default all): stanford none,plain,volatile,\n"
			   "plain-sem,volatile-sem; uprobe nop,push,ret (and redzone, a leaf\n"
			   "keeping a value in its red zone across a nop5 site); sdtargs\n"
			   "none,a0,a1,a3,a6,expensive,expensive-sem"),
		OPT_STRING(0, "sites", &o->q.sites, "LIST",
			   "probe-site encodings (default nop): nop,nop5,nop10, and nop5-nrz\n"
			   "(nop5 in code built with -mno-red-zone; stanford and sdtargs)"),
		OPT_MEASURE_THREADS(
			&o->m, "threads each making the hits at once, for each count (default 1)"),
		OPT_CALLBACK(0, "scale", &o->q, "N[,N..]",
			     "stanford repetitions (default 10; 289,264 hits each), or 100,000\n"
			     "calls per thread for uprobe and sdtargs; several sizes fit\n"
			     "time = fixed + per hit x hits (start-up apart)",
			     scale_opt),
		OPT_STRING(0, "kernel", &o->q.kernel, "NAME",
			   "only this stanford kernel (perm, towers, ..., fft)"),
		OPT_STRING(0, "layouts", &o->q.layouts, "LIST",
			   "code layouts of each stanford build: default, a32, a64, a16, a8,\n"
			   "noalign (alignments), pad16, pad24, pad40 (functions pushed into\n"
			   "their cache line), bbsimple (block order); default: all ten with\n"
			   "--via dormant alone, else default"),
		OPT_MEASURE_PRECISION_NS(
			&o->m, "--via dormant alone: after a pilot of 10 blocks, run the blocks\n"
			       "every dormant cost per hit needs to be known to +- NS (default\n"
			       "0.3), at most --max-time S; --runs N fixes it; the kernels are\n"
			       "timed on their thread's CPU clock (clock=cpu)"),
		OPT_MEASURE_MAX_TIME(&o->m, "--via dormant alone: at most S seconds of blocks "
					    "(default 270)"),
		OPT_STRING(0, "binary", &o->q.binary, "BIN",
			   "a user's USDT-instrumented executable (with --probe and -- CMD)"),
		OPT_STRING(0, "probe", &o->q.probe, "PROV:NAME",
			   "the probe to arm in BIN (every site of it)"),
		OPT_CALLBACK(0, "hits", &o->q, "N",
			     "hits CMD is expected to make (checked against each method's count)",
			     hits_opt),
		OPT_MEASURE_CHECK_OUTPUT(&o->m,
					 "an armed run whose stdout differs from the dormant\n"
					 "runs' is changed-program (CMD's; built-in workloads\n"
					 "check their own)"),
		OPT_MEASURE_OUTPUT_FILTER(&o->m, "with --check-output (implied), lines of stdout\n"
						 "REGEX matches are not compared (timings, dates)"),
		OPT_STRING(0, "list", &o->list, "BIN",
			   "list the SDT probes of BIN and their sites"),
		OPT_MEASURE_RUNS(&o->m, "measured blocks (default 5, adaptive with --via dormant "
					"alone)"),
		OPT_MEASURE_WARMUP(&o->m, "warm-up blocks discarded (default 1)"),
		OPT_MEASURE_CPU(&o->m, "pin the workload to these CPUs (e.g. 0)"),
		OPT_MEASURE_TIMEOUT(&o->m, "per-run limit in seconds (default 600)"),
		OPT_MEASURE_FORMAT(&o->m, "text, json, csv, markdown (default text)"),
		OPT_MEASURE_DB(&o->m),
		OPT_MEASURE_NO_STORE(&o->m, "do not store the session"),
		OPT_BOOL(0, "no-wait", &o->no_wait,
			 "refuse (exit 1) while another probes session runs, instead of\n"
			 "waiting for it (one at a time: each would count the other's hits)"),
		OPT_END(),
	};
	struct pcost_parse p = {
		.cmd = "probes",
		.usage = probes_usage,
		.options = options,
		.epilog = "Each row ends with an outcome: ok, changed-program (the workload failed "
			  "armed and\nnot dormant), tool-failed, program-failed.\n"
			  "exit status: 0 measured; 1 a runtime failure (with --no-wait: another "
			  "probes session\nruns), or a row is changed-program; 2 bad\n"
			  "input; 3 measured and printed but not stored; 128+N interrupted by "
			  "signal N\n(130 Ctrl-C, 143 SIGTERM).",
		.bad_option = "unknown or incomplete option",
	};
	int rc = pcost_parse_options(&p, argc, argv);

	o->q.cmd_argc = p.argc;
	o->q.cmd_argv = p.argv;
	return rc;
}

int cmd_probes(int argc, char **argv)
{
	struct opts o = { .q = { .scales = { 10 }, .nscales = 1 } };
	struct pcost_session s;
	int rc;

	/* probes' defaults: 5 blocks and 1 warm-up, 600 s a run; dormant-only studies
	 * adapt to +-0.3 ns per hit within 270 s. */
	pcost_measure_opts_init(&o.m);
	o.m.ro.runs = 5;
	o.m.ro.warmup = 1;
	o.m.ro.timeout_s = 600;
	o.m.ro.max_time_s = 270;
	o.m.precision_ns = 0.3;
	if ((rc = parse_args(&o, argc, argv)))
		return rc == PCOST_OPTS_HELP ? 0 : rc;
	o.q.threads = o.m.threads;
	o.q.nthreads = o.m.nthreads;
	if (o.list) {
		if (o.q.binary || o.q.probe || o.q.cmd_argc)
			return usage_error("--list takes only a binary (and --format)");
		return list_probes(o.list, o.m.fmt);
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
