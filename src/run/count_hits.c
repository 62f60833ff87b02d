// SPDX-License-Identifier: MIT
/* run/count_hits: run --count's events and probe hits, counted apart (see count_hits.h). */
#include "run/count_hits.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "core/journal.h"
#include "core/util.h"
#include "probes/sdt.h"
#include "probes/site_safety.h"
#include "run/runner.h"

/* Warn, as probes does, about each site of l that arming may change. */
static void warn_sites(const char *path, const struct pcost_sdt_list *l)
{
	struct pcost_site_file *sf;
	char line[768];

	if (pcost_site_file_open(path, &sf) < 0)
		return;
	for (size_t i = 0; i < l->n; i++) {
		const struct pcost_sdt_probe *p = &l->probes[i];
		struct pcost_site_facts f;

		pcost_site_facts_at(sf, p->pc, &f);
		if (pcost_site_armed_warning(line, sizeof(line), p->provider, p->name, &f,
					     pcost_sdt_args_below_rsp(p->args),
					     "built with -mno-red-zone it would be safe"))
			warning("%s", line);
	}
	pcost_site_file_free(sf);
}

/* Its SDT probes' hits (c2's) into c, which counted none. */
static void take_hits(struct pcost_evcount *c, struct pcost_evcount *c2)
{
	static char source[320];
	struct pcost_evc_probe *probes = c->probes;

	snprintf(source, sizeof(source),
		 "%s; in a second run of their own, none armed in the first",
		 c2->probes_source ? c2->probes_source : "");
	c->probes_counted = c2->probes_counted;
	c->probes = c2->probes;
	c->nprobes = c2->nprobes;
	c->probes_source = c2->probes_counted ? source : NULL;
	snprintf(c->probes_why, sizeof(c->probes_why), "%s", c2->probes_why);
	c2->probes = probes;
	c2->nprobes = 0;
}

int pcost_count_hits(char *const *argv, const struct pcost_evcount_opts *o, struct pcost_evcount *c,
		     char *changed, size_t clen, char *err, size_t len)
{
	struct pcost_evcount_opts plain = *o, armed = *o;
	struct pcost_sdt_list l = { 0 };
	struct pcost_evcount c2;
	char path[PATH_MAX], jerr[256];
	int rc;

	changed[0] = '\0';
	if (o->no_probes || !pcost_which(argv[0], path, sizeof(path)) ||
	    pcost_sdt_read(path, &l) < 0 || !l.n) {
		pcost_sdt_list_release(&l);
		return pcost_evcount_run(argv, o, c, err, len);
	}
	/* Before both runs: another session's armed probes would fire in the plain one too. */
	if (!pcost_journal_is_open() && pcost_journal_open(NULL, jerr, sizeof(jerr)) < 0)
		warning("%s", jerr);
	if ((rc = pcost_session_lock("probes", false, err, len)) == -EINTR) {
		pcost_evcount_init(c);
		pcost_sdt_list_release(&l);
		return rc;
	}
	/* No state directory (not root, no $XDG_RUNTIME_DIR): nor can it arm, most likely. */
	if (rc < 0)
		warning("%s: counting all the same", err);
	plain.no_probes = true;
	rc = pcost_evcount_run(argv, &plain, c, err, len);
	if (rc < 0) {
		pcost_sdt_list_release(&l);
		return rc;
	}
	warn_sites(path, &l);
	pcost_sdt_list_release(&l);
	/* The hits alone: syscalls by number are not needed again. */
	armed.no_by_nr = true;
	rc = pcost_evcount_run(argv, &armed, &c2, err, len);
	if (rc == 0 || rc == -EINTR)
		take_hits(c, &c2);
	if (rc == 0 && (c2.wait_status != c->wait_status || c2.timed_out != c->timed_out))
		snprintf(changed, clen, "%s", c2.fail[0] ? c2.fail : "exit 0");
	pcost_evcount_release(&c2);
	return rc;
}
