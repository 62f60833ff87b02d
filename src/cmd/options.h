/* SPDX-License-Identifier: MIT */
/* store_cli: what the store commands (history, show, report, compare, export, import) share. */
#ifndef PCOST_CMD_STORE_CLI_H
#define PCOST_CMD_STORE_CLI_H

#include <stdint.h>

#include "report/format.h"
#include "store/db.h"

/*
 * Open the store named by --db (or NULL: $PROBECOST_DB, XDG) for a command.
 * Prints the error itself; returns 0, or the exit code to return (1, or 2
 * for a database that is not probecost's).
 */
int pcost_cli_open_db(const char *db_opt, enum pcost_db_mode mode, struct pcost_db **db);

/* "12" or "last"; 0, or prints a usage error and returns 2. */
int pcost_cli_session_id(struct pcost_db *db, const char *arg, int64_t *id);

/* Load session arg ("12", "last") into *s; 0 or an exit code (error printed). */
int pcost_cli_load(struct pcost_db *db, const char *arg, struct pcost_session *s);

/* Open the store read-only, load session arg, close it; 0 or an exit code (error printed). */
int pcost_cli_load_from(const char *db_opt, const char *arg, struct pcost_session *s);

/* Render s in fmt to stdout, or say which renderer this build lacks; 0 or -1 (printed). */
int pcost_cli_render(const struct pcost_session *s, enum pcost_format fmt);

#endif
