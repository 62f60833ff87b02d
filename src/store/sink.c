// SPDX-License-Identifier: MIT
/*
 * sink: the pcost_sink_* part of store.h, what measuring commands call.  A store that cannot be
 * opened or written costs one warning line, and the measurement goes on.
 */
#include "store/store.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "store/backend.h"
#include "core/util.h"

static struct {
	struct pcost_db *db;
	size_t *stored; /* samples of configuration i already in the store */
	size_t nstored;
	bool active;
	bool lost; /* asked to store, and could not */
} sink;

/* Close the store and forget what this session stored. */
static void sink_close(void)
{
	pcost_db_close(sink.db);
	sink.db = NULL;
	free(sink.stored);
	sink.stored = NULL;
	sink.nstored = 0;
	sink.active = false;
}

static void sink_disable(const char *msg)
{
	warning("not storing this session: %s", msg);
	sink.lost = true;
	sink_close();
}

void pcost_sink_begin(struct pcost_session *s, const char *db, bool no_store)
{
	char path[PATH_MAX], err[512], *masked;

	sink.active = false;
	sink.lost = false;
	/* A server's password given in --db is neither stored nor printed with the session. */
	if ((masked = pcost_pg_mask_password(s->cmdline, db))) {
		free(s->cmdline);
		s->cmdline = masked;
	}
	if (no_store)
		return;
	if (pcost_db_path(db, path, sizeof(path))) {
		sink_disable("no --db, $PROBECOST_DB, $XDG_DATA_HOME or $HOME");
		return;
	}
	if (pcost_db_open(path, PCOST_DB_WRITE, &sink.db, err, sizeof(err))) {
		sink_disable(err);
		return;
	}
	sink.active = true;
	if (pcost_db_begin_session(sink.db, s))
		sink_disable(pcost_db_error(sink.db));
}

void pcost_sink_config(struct pcost_session *s, size_t i)
{
	size_t from;

	if (!sink.active || i >= s->nconfigs)
		return;
	if (i >= sink.nstored) {
		sink.stored = xrealloc(sink.stored, s->nconfigs * sizeof(*sink.stored));
		for (size_t k = sink.nstored; k < s->nconfigs; k++)
			sink.stored[k] = SIZE_MAX; /* configuration row not written yet */
		sink.nstored = s->nconfigs;
	}
	from = sink.stored[i] == SIZE_MAX ? 0 : sink.stored[i];
	if (sink.stored[i] != SIZE_MAX && from >= s->configs[i].nsamples)
		return;
	if (pcost_db_store_config(sink.db, s, i, from)) {
		sink_disable(pcost_db_error(sink.db));
		return;
	}
	sink.stored[i] = s->configs[i].nsamples;
}

void pcost_sink_series(struct pcost_session *s, size_t i)
{
	if (!sink.active || i >= s->nseries)
		return;
	if (pcost_db_store_series(sink.db, s, i))
		sink_disable(pcost_db_error(sink.db));
}

bool pcost_sink_lost(void)
{
	return sink.lost;
}

void pcost_sink_end(struct pcost_session *s)
{
	if (!sink.active)
		return;
	/* Configurations the command never flushed itself. */
	for (size_t i = 0; i < s->nconfigs && sink.active; i++)
		pcost_sink_config(s, i);
	if (!sink.active)
		return;
	if (pcost_db_finish_session(sink.db, s)) {
		sink_disable(pcost_db_error(sink.db));
		return;
	}
	info("stored as session %lld%s; see 'probecost show %lld'", (long long)s->id,
	     s->complete ? "" : " (incomplete)", (long long)s->id);
	sink_close();
}
