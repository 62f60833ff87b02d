// SPDX-License-Identifier: MIT
/* probes/plan: what `probecost probes` measures: builds, methods, configurations (see plan.h). */
#include "probes/plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/proc.h"
#include "core/util.h"
#include "monitors/monitor.h"
#include "workloads/uprobe.h"

#define MAX_SITES 256
/* The uprobe and sdtargs workloads: calls per thread in one unit of --scale. */
#define LOOPS_UNIT 100000

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
	const char *variant; /* as recorded and shown */
	int site;	     /* stanford site encoding index */
	int layout;	     /* stanford code layout index (set per configuration) */
	unsigned threads;
	struct pcost_probe_site *sites;
	size_t nsites;
	int64_t unit_hits;  /* hits per unit of --scale */
	bool baseline_only; /* a build without probes: its dormant row only */
	bool lttng;	    /* the LTTng-UST build: armed by the lttng method only */
};

/* A workload `probecost probes` drives: its variants and how to find their sites. */
struct pcost_probe_wl {
	const char *name;
	const char *key;     /* the workload parameter that takes the variant */
	const char *choices; /* every variant, comma separated */
	const char *sites;   /* the site encodings it is built in, comma separated */
	/* Fill g (sites, hits, label) for variant v at site encoding site; 0 or exit code. */
	int (*group)(const struct pcost_probe_plan *pl, const struct pcost_sdt_list *l,
		     const char *path, const char *v, int site, struct group *g);
	/* The workload's arguments for g at scale (argv words into w, the count). */
	size_t (*args)(const struct pcost_probe_plan *pl, const struct group *g, uint64_t scale,
		       char w[][64]);
};

static int stanford_group(const struct pcost_probe_plan *pl, const struct pcost_sdt_list *l,
			  const char *path, const char *v, int site, struct group *g)
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

bool pcost_probe_plan_dormant_only(const struct pcost_probe_plan *pl)
{
	return pl->nmethods == 1 && pl->methods[0] == &pcost_probe_dormant;
}

static size_t stanford_args(const struct pcost_probe_plan *pl, const struct group *g,
			    uint64_t scale, char w[][64])
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
	if (pcost_probe_plan_dormant_only(pl))
		snprintf(w[n++], 64, "clock=cpu");
	return n;
}

/* The uprobe workload: variant nop at sites nop5/nop10 is the nop5/nop10 target. */
static int uprobe_group(const struct pcost_probe_plan *pl, const struct pcost_sdt_list *l,
			const char *path, const char *v, int site, struct group *g)
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
	if (!t || pcost_self_file_offset((const void *)t->site, &s->pc_offset) ||
	    pcost_self_vaddr((const void *)t->site, &s->vaddr))
		return error("uprobe: cannot locate the target '%s' in '%s'", g->variant, path);
	snprintf(s->provider, sizeof(s->provider), "pcost_uprobe");
	snprintf(s->name, sizeof(s->name), "%s", t->insn);
	snprintf(s->symbol, sizeof(s->symbol), "%s", t->symbol);
	s->retprobe = t->retprobe;
	g->nsites = 1;
	return 0;
}

static size_t loop_args(const struct pcost_probe_plan *pl, const struct group *g, uint64_t scale,
			char w[][64])
{
	size_t n = 0;

	snprintf(w[n++], 64, "%s=%s", pl->wl->key, g->variant);
	/* sdtargs' nop build alone keeps the arguments it always had. */
	if ((g->site || pl->nsites > 1) && !strcmp(pl->wl->name, "sdtargs"))
		snprintf(w[n++], 64, "site=%s", pcost_stanford_site_name(g->site));
	snprintf(w[n++], 64, "threads=%u", g->threads);
	snprintf(w[n++], 64, "loops=%llu", (unsigned long long)scale * LOOPS_UNIT);
	return n;
}

/*
 * sdtargs: provider pcost_args (pcost_args_nop5, ... in the other site
 * encodings), probe named after the variant (expensive-sem: expensive_sem).
 */
static int sdtargs_group(const struct pcost_probe_plan *pl, const struct pcost_sdt_list *l,
			 const char *path, const char *v, int site, struct group *g)
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

static const struct pcost_probe_wl probe_wls[] = {
	{ "stanford", "variant", "none,plain,volatile,plain-sem,volatile-sem,lttng",
	  "nop,nop5,nop10,nop5-nrz", stanford_group, stanford_args },
	/* Its targets are assembly (uprobe.c): no red zone to keep nop5-nrz apart from nop5. */
	{ "uprobe", "insn", "nop,push,ret,lttng,redzone", "nop,nop5,nop10", uprobe_group,
	  loop_args },
	{ "sdtargs", "variant", "none,a0,a1,a3,a6,expensive,expensive-sem",
	  "nop,nop5,nop10,nop5-nrz", sdtargs_group, loop_args },
};

static int parse_methods(const struct pcost_probe_request *q, struct pcost_probe_plan *pl)
{
	char buf[256], *w[16], why[256];
	size_t n;

	if (!q->via) {
		/* Every available method; the unavailable ones say why on stderr. */
		for (size_t i = 0; pcost_probe_methods[i]; i++) {
			if (pcost_probe_method_available(pcost_probe_methods[i], why, sizeof(why)))
				pl->methods[pl->nmethods++] = pcost_probe_methods[i];
			else
				warning("probe method '%s' skipped: %s",
					pcost_probe_methods[i]->name, why);
		}
		return 0;
	}
	if (!pcost_list_well_formed(q->via))
		return usage_error(
			"--via '%s': expected a comma list of methods (see 'probecost list "
			"probes')",
			q->via);
	n = split_list(q->via, buf, sizeof(buf), w, ARRAY_SIZE(w));
	/* dormant is the baseline of every overhead: always first. */
	pl->methods[pl->nmethods++] = &pcost_probe_dormant;
	for (size_t i = 0; i < n; i++) {
		const struct pcost_probe_method *m = pcost_probe_method_find(w[i]);
		bool dup = false;

		if (!m)
			return usage_error("unknown probe method '%s' (see 'probecost list')",
					   w[i]);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(w[j], w[i]))
				return usage_error("--via '%s': '%s' is named twice", q->via, w[i]);
		for (size_t j = 0; j < pl->nmethods; j++)
			dup |= pl->methods[j] == m;
		if (dup)
			continue;
		if (!pcost_probe_method_available(m, why, sizeof(why)))
			return usage_error("probe method '%s' is not available here: %s", m->name,
					   why);
		if (pl->nmethods < ARRAY_SIZE(pl->methods))
			pl->methods[pl->nmethods++] = m;
	}
	return 0;
}

static int parse_variants(const struct pcost_probe_request *q, struct pcost_probe_plan *pl)
{
	char dflt[128];
	const char *list = q->variants ? q->variants : dflt;

	/*
	 * By default every build but lttng's, which plan_builtin adds for the lttng
	 * method, and the uprobe workload's redzone, a fixture asked for by name.
	 */
	snprintf(dflt, sizeof(dflt), "%s", pl->wl->choices);
	if (strstr(dflt, ",lttng"))
		*strstr(dflt, ",lttng") = '\0';

	pl->nvariants = split_list(list, pl->vbuf, sizeof(pl->vbuf), pl->variants,
				   ARRAY_SIZE(pl->variants));
	for (size_t i = 0; i < pl->nvariants; i++)
		if (!pcost_list_has(pl->wl->choices, pl->variants[i]))
			return usage_error("unknown variant '%s' of the %s workload (%s)",
					   pl->variants[i], pl->wl->name, pl->wl->choices);
	if (!pl->nvariants)
		return usage_error("--variants: give at least one variant");
	return 0;
}

/* --workload, --sites, --threads, --kernel: what to build, checked before anything runs. */
int pcost_probe_plan_shape(const struct pcost_probe_request *q, struct pcost_probe_plan *pl)
{
	char buf[128], *w[8];
	size_t n;
	int rc;

	pl->wl = &probe_wls[0];
	for (size_t i = 0; q->workload && i < ARRAY_SIZE(probe_wls); i++)
		pl->wl = !strcmp(probe_wls[i].name, q->workload) ? &probe_wls[i] : pl->wl;
	if (q->workload && strcmp(pl->wl->name, q->workload))
		return usage_error("--workload: '%s' is not stanford, uprobe or sdtargs",
				   q->workload);
	pl->wl_name = pl->wl->name;
	if ((rc = parse_variants(q, pl)))
		return rc;
	n = split_list(q->sites ? q->sites : "nop", buf, sizeof(buf), w, ARRAY_SIZE(w));
	for (size_t i = 0; i < n; i++) {
		int s = pcost_stanford_site_find(w[i]);

		if (s < 0)
			return usage_error("--sites: '%s' is not nop, nop5, nop10 or nop5-nrz",
					   w[i]);
		if (!pcost_list_has(pl->wl->sites, w[i]))
			return usage_error("--sites: the %s workload is built with %s only",
					   pl->wl->name, pl->wl->sites);
		if (pl->nsites < ARRAY_SIZE(pl->sites))
			pl->sites[pl->nsites++] = s;
	}
	if (!pl->nsites)
		return usage_error("--sites: give at least one of %s", pl->wl->sites);
	for (size_t i = 0; i < q->nthreads; i++)
		pl->threads[pl->nthreads++] = q->threads[i];
	pl->threads_given = pl->nthreads > 0;
	if (!pl->nthreads)
		pl->threads[pl->nthreads++] = 1;
	pl->kernel = -1;
	if (q->kernel && strcmp(pl->wl->name, "stanford"))
		return usage_error("--kernel is for the stanford workload");
	if (q->kernel) {
		for (pl->kernel = 0; pl->kernel < PCOST_SK_N &&
				     strcmp(pcost_stanford_kernel_name(pl->kernel), q->kernel);
		     pl->kernel++)
			;
		if (pl->kernel == PCOST_SK_N)
			return usage_error("unknown stanford kernel '%s'", q->kernel);
	}
	return 0;
}

/* Without --layouts: all of stanford's with --via dormant alone, else its default one. */
static void default_layouts(struct pcost_probe_plan *pl)
{
	bool all = pcost_probe_plan_dormant_only(pl) && !strcmp(pl->wl->name, "stanford");

	for (int l = 0; l < (all ? PCOST_STANFORD_NLAYOUTS : 1); l++)
		pl->layouts[pl->nlayouts++] = l;
}

static int parse_layouts(const struct pcost_probe_request *q, struct pcost_probe_plan *pl)
{
	char buf[256], *w[PCOST_STANFORD_NLAYOUTS + 1];
	size_t n;
	bool stanford = !strcmp(pl->wl->name, "stanford");

	if (!q->layouts)
		return 0; /* default_layouts(), once the methods are known */
	if (!stanford)
		return usage_error("--layouts: the %s workload has one code layout", pl->wl->name);
	n = split_list(q->layouts, buf, sizeof(buf), w, ARRAY_SIZE(w));
	for (size_t i = 0; i < n; i++) {
		int l = pcost_stanford_layout_find(w[i]);

		if (l < 0)
			return usage_error(
				"--layouts: unknown layout '%s' (default, a32, a64, a16, a8, "
				"noalign, pad16, pad24, pad40, bbsimple)",
				w[i]);
		if (pl->nlayouts < ARRAY_SIZE(pl->layouts))
			pl->layouts[pl->nlayouts++] = l;
	}
	if (!pl->nlayouts)
		return usage_error("--layouts: give at least one layout");
	return 0;
}

/* Will a method of the plan put a uprobe on the sites (not dormant, not lttng's tracepoints)? */
static bool plan_arms(const struct pcost_probe_plan *pl)
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
static bool sites_facts(struct pcost_probe_plan *pl, const struct pcost_probe_site *sites, size_t n,
			struct pcost_site_facts *row)
{
	for (size_t i = 0; pl->sf && i < n; i++) {
		struct pcost_site_facts f;
		bool seen = false;
		char line[768];

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
		if (pcost_site_armed_warning(
			    line, sizeof(line), sites[i].provider, sites[i].name, &f,
			    sites[i].args_below_rsp,
			    pl->wl ? "its -mno-red-zone build is safe (--sites nop5-nrz)"
				   : "built with -mno-red-zone it would be safe"))
			warning("%s", line);
	}
	return pl->sf && n;
}

/* One configuration into the plan: method m's monitor (made, or shared) and the run's target. */
static int add_config(struct pcost_probe_plan *pl, const struct pcost_probe_method *m,
		      const char *path, const struct pcost_probe_site *sites, size_t nsites,
		      const struct pcost_probe_config *t, struct pcost_monitor **shared,
		      const struct pcost_site_facts *facts)
{
	char err[256];
	struct pcost_monitor *mon = shared ? *shared : NULL;
	struct pcost_probe_config *c;

	if (!mon) {
		if (pl->nmons >= PCOST_PROBE_MAX_MONITORS)
			return error("too many configurations");
		mon = pcost_probe_arm_create(m, path, sites, nsites, err, sizeof(err));
		if (!mon)
			return usage_error("%s", err);
		pl->mons[pl->nmons++] = mon;
		if (shared)
			*shared = mon;
	}
	xgrow((void **)&pl->cfg, &pl->cap, pl->ncfg + 1, sizeof(*pl->cfg));
	c = &pl->cfg[pl->ncfg++];
	*c = *t;
	c->mon = mon;
	c->workload = xstrdup(t->workload);
	c->args = xstrdup(t->args);
	c->variant = t->variant ? xstrdup(t->variant) : NULL;
	c->argv = pcost_argv_dup(t->argv);
	c->facts_known = facts != NULL;
	if (facts)
		c->facts = *facts;
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
static struct pcost_monitor **build_monitor(struct pcost_probe_plan *pl,
					    const struct pcost_probe_method *m,
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
static int add_group(const struct pcost_probe_request *q, struct pcost_probe_plan *pl,
		     const char *path, const struct group *g)
{
	char w[8][64], args[512];
	char *wargv[12] = { (char *)pcost_self_exe(), "workload", (char *)pl->wl->name };
	struct pcost_probe_config t = { .workload = (char *)pl->wl->name,
					.args = args,
					.variant = (char *)g->variant,
					.argv = wargv,
					.scale = 1,
					.events = -1,
					.report_fd = true };
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
		for (size_t si = 0; si < q->nscales * pl->nlayouts && !rc; si++) {
			struct group gl = *g;
			uint64_t scale = q->scales[si / pl->nlayouts];
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
			t.expected = g->baseline_only ? 0 : g->unit_hits * (int64_t)scale;
			rc = add_config(pl, pl->methods[i], path, g->sites, g->nsites, &t, mon,
					known ? &facts : NULL);
		}
	}
	return rc;
}

/* A method asked for (--via) that arms none of the builds would measure nothing: exit 2. */
static int check_every_method_built(const struct pcost_probe_request *q,
				    const struct pcost_probe_plan *pl)
{
	for (size_t i = 0; q->via && i < pl->nmethods; i++) {
		bool built = false;

		for (size_t j = 0; j < pl->nbuilt; j++)
			built |= pl->built[j].m == pl->methods[i];
		if (!built)
			return usage_error(
				"--via %s arms none of --variants %s: %s", pl->methods[i]->name,
				q->variants ? q->variants : "(the default builds)",
				pl->methods[i] == &pcost_probe_lttng
					? "it arms the lttng build only; add lttng to --variants"
					: "add a build with probes (not none or lttng) to --variants");
	}
	return 0;
}

/* The built-in workload's configurations: site x variant x threads x method x scale. */
static int plan_builtin(const struct pcost_probe_request *q, struct pcost_probe_plan *pl,
			const struct pcost_sdt_list *l, const char *path)
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
	/* The layouts first: a bad one is refused before the methods' warnings. */
	if (!rc)
		rc = parse_layouts(q, pl);
	if (!rc)
		rc = parse_methods(q, pl);
	if (!rc && !pl->nlayouts)
		default_layouts(pl);
	for (size_t i = 0;
	     i < pl->nmethods && !q->variants && pcost_list_has(pl->wl->choices, "lttng"); i++)
		if (pl->methods[i] == &pcost_probe_lttng &&
		    pl->nvariants < ARRAY_SIZE(pl->variants))
			pl->variants[pl->nvariants++] = "lttng";
	for (size_t si = 0; si < pl->nsites && !rc; si++)
		for (size_t vi = 0; vi < pl->nvariants && !rc; vi++)
			for (size_t ti = 0; ti < pl->nthreads && !rc; ti++) {
				struct group g = { .variant = pl->variants[vi],
						   .site = pl->sites[si],
						   .threads = pl->threads[ti],
						   .sites = sites };

				/* The no-probe build is the same in every encoding: once. */
				if (si && !strcmp(g.variant, "none"))
					continue;
				rc = pl->wl->group(pl, l, path, g.variant, g.site, &g);
				if (!rc && (g.nsites || g.baseline_only || g.lttng))
					rc = add_group(q, pl, path, &g);
			}
	free(sites);
	return rc ? rc : check_every_method_built(q, pl);
}

/* A user's command and probe: every method once, hits checked against --hits. */
static int plan_binary(const struct pcost_probe_request *q, struct pcost_probe_plan *pl,
		       const struct pcost_sdt_list *l, const char *path)
{
	struct pcost_probe_site *sites = xcalloc(MAX_SITES, sizeof(*sites));
	char prov[64], name[64];
	char *joined = pcost_join_argv(q->cmd_argc, q->cmd_argv);
	struct pcost_probe_config t = { .workload = "command",
					.args = joined,
					.argv = q->cmd_argv,
					.scale = 1,
					.events = q->have_hits ? (int64_t)q->hits : -1,
					.expected = q->have_hits ? (int64_t)q->hits : -1 };
	struct pcost_site_facts facts;
	bool known = false;
	size_t n = 0;
	int rc;

	if (pcost_sdt_parse_spec(q->probe, prov, sizeof(prov), name, sizeof(name)))
		rc = usage_error("--probe '%s': expected PROVIDER:NAME", q->probe);
	else if (!(n = collect_sites(l, prov, name, sites, MAX_SITES)))
		rc = usage_error("'%s' has no probe %s:%s (see 'probecost probes --list %s')", path,
				 prov, name, path);
	else /* Methods last: bad input is reported before any note about them. */
		rc = parse_methods(q, pl);
	if (!rc)
		known = sites_facts(pl, sites, n, &facts);
	for (size_t i = 0; i < pl->nmethods && !rc; i++)
		rc = add_config(pl, pl->methods[i], path, sites, n, &t, NULL,
				known ? &facts : NULL);
	free(joined);
	free(sites);
	return rc;
}

int pcost_probe_plan_build(const struct pcost_probe_request *q, struct pcost_probe_plan *pl,
			   const struct pcost_sdt_list *l, const char *path)
{
	return q->binary ? plan_binary(q, pl, l, path) : plan_builtin(q, pl, l, path);
}

void pcost_probe_plan_release(struct pcost_probe_plan *pl)
{
	for (size_t i = 0; i < pl->ncfg; i++) {
		free(pl->cfg[i].workload);
		free(pl->cfg[i].args);
		free(pl->cfg[i].variant);
		pcost_argv_free(pl->cfg[i].argv);
	}
	free(pl->cfg);
	pl->cfg = NULL;
	pl->ncfg = pl->cap = 0;
	for (size_t i = 0; i < pl->nmons; i++)
		pcost_monitor_free(pl->mons[i]);
	pl->nmons = 0;
}
