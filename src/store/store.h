/* SPDX-License-Identifier: MIT */
/*
 * src/store/: where sessions last.  The SQLite store (db.c, read.c, write.c),
 * the sink measuring commands write through (sink.c), the session <-> JSON
 * form of export and import (session_json.c, import.c).
 *
 * store: SQLite persistence of sessions and their raw samples.
 *
 * Measuring commands use the sink below, in this order:
 *   pcost_sink_begin(s, db, no_store)   after options are parsed, before measuring
 *   pcost_sink_config(s, i)             each time configuration i has new samples
 *   pcost_sink_series(s, i)             each time counter series i is complete
 *   pcost_sink_end(s)                   at the end (s->complete says if interrupted)
 * A store that cannot be opened or written is a warning: the measurement goes
 * on and is printed.
 */
#ifndef PCOST_STORE_H
#define PCOST_STORE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/result.h"

/* db: --db PATH or NULL ($PROBECOST_DB, then $XDG_DATA_HOME/probecost/probecost.db). */
void pcost_sink_begin(struct pcost_session *s, const char *db, bool no_store);
void pcost_sink_config(struct pcost_session *s, size_t config_index);
void pcost_sink_series(struct pcost_session *s, size_t series_index);
void pcost_sink_end(struct pcost_session *s);

#endif
