/* SPDX-License-Identifier: MIT */
/*
 * options: what the store commands (history, show, report, compare, export,
 * import, costs) share: the rows of --db and --format, one parser of them with
 * the command's own rows, the session ids they name, and opening the store.
 */
#ifndef PCOST_CMD_OPTIONS_H
#define PCOST_CMD_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cmd/parse-options.h"
#include "core/format.h"
#include "store/store.h"

/* The longest --db path accepted (a path the store can open). */
#define PCOST_DB_PATH_MAX 4096

/* --db PATH|URL into *db (const char *), checked by pcost_db_opt_check. */
#define OPT_DB(db)                                                                                 \
	OPT_CALLBACK(0, "db", db, "PATH|URL",                                                      \
		     "the store: an SQLite file or a postgresql:// URL (default\n"                 \
		     "$PROBECOST_DB, else $XDG_DATA_HOME/probecost/probecost.db)",                 \
		     pcost_opt_db)
/* The callback of OPT_DB. */
int pcost_opt_db(const struct pcost_option *opt, const char *arg);

struct pcost_store_opts {
	/* Set by the command. */
	const char *args;	/* what the arguments are, for errors: "one session id" */
	int min_args, max_args; /* arguments after the options; max_args -1: any number */
	/* Results. */
	const char *db;	       /* --db, or NULL */
	enum pcost_format fmt; /* --format, PCOST_FMT_TEXT by default */
	bool fmt_given;
	char **argv; /* the arguments after the options */
	int argc;
};

/* The store group of a store command's table: --db, and --format of the formats in mask. */
#define OPT_STORE_DB(o) OPT_DB(&(o)->db)
#define OPT_STORE_FORMAT(o, mask, h) OPT_FORMAT(&(o)->fmt, &(o)->fmt_given, mask, h)

/*
 * Parse argc/argv (argv[0] is the command) by p's table into o and the rows'
 * values; options may follow the arguments ("show 3 --format json").  Returns 0,
 * PCOST_OPTS_HELP (help printed), or an exit code after printing one usage line
 * (an unknown option, a bad --format or --db, too few or too many arguments).
 */
int pcost_store_opts_parse(struct pcost_store_opts *o, struct pcost_parse *p, int argc,
			   char **argv);

/*
 * Check a --db value: not empty, not longer than PCOST_DB_PATH_MAX.  0, or
 * prints one usage line and returns 2.
 */
int pcost_db_opt_check(const char *db);

/*
 * Open the store named by --db (or NULL: $PROBECOST_DB, XDG) for a command.
 * Prints the error itself; returns 0, or the exit code to return (1, or 2
 * for a database that is not probecost's).
 */
int pcost_cli_open_db(const char *db_opt, enum pcost_db_mode mode, struct pcost_db **db);

/*
 * The exit status of a store error (-errno of pcost_db_*): 2 for a store that
 * is damaged or not probecost's (-EBADMSG, -EPROTO), wherever the damage is
 * found (opening, listing, loading), a bad URL or refused credentials
 * (-EINVAL, -EKEYREJECTED); 1 for the rest.
 */
int pcost_cli_db_exit(int rc);

/* Load session arg ("12", "last") into *s; 0 or an exit code (error printed). */
int pcost_cli_load(struct pcost_db *db, const char *arg, struct pcost_session *s);

/* pcost_db_list(); 0 or an exit code (error printed). */
int pcost_cli_list(struct pcost_db *db, const struct pcost_db_filter *f, struct pcost_db_row **rows,
		   size_t *n);

/* Open the store read-only, load session arg, close it; 0 or an exit code (error printed). */
int pcost_cli_load_from(const char *db_opt, const char *arg, struct pcost_session *s);

/*
 * show and report: parse by p into o (one session id), then load that session
 * from the store (read-only) with its level between sessions (pcost_cli_level):
 * 0, PCOST_OPTS_HELP (help printed), or an exit code (error printed).
 */
int pcost_cli_parse_load(struct pcost_store_opts *o, struct pcost_parse *p, int argc, char **argv,
			 struct pcost_session *s);

/*
 * The newest 64 other stored sessions of a's kind that share a workload with it (and
 * are not b, which may be NULL; with below > 0, stored before session below), for the
 * level between sessions (stats/compare.h); none where the store cannot list them
 * (the level is then not measured).  Free with pcost_cli_peers_free.
 */
struct pcost_session *pcost_cli_peers(struct pcost_db *db, const struct pcost_session *a,
				      const struct pcost_session *b, int64_t below, size_t *n);
void pcost_cli_peers_free(struct pcost_session *peers, size_t n);

/*
 * s->levels of a run session, from the store named by db_opt (--db, or NULL), read
 * only: its level between sessions (stats/compare.h pcost_session_level) over it and
 * the sessions stored before it (all, where s is not stored), so that show prints
 * what run printed.  Left NULL where the store cannot be opened (none yet, --no-store
 * without one): quietly, since the level is a note beside the session's own figures.
 */
void pcost_cli_level(const char *db_opt, struct pcost_session *s);

/* --plot FILE (value: const char **), for report and compare. */
int pcost_plot_opt(const struct pcost_option *opt, const char *arg);

/*
 * Read an export (a file, or "-" for stdin) whole, refusing what cannot be one
 * (a device, a file over PCOST_IMPORT_MAX_BYTES, a NUL byte) before parsing:
 * 0 with *buf (caller frees) and *len, or an exit code (error printed).
 * cmd-import.c; `costs --import` reads through it too.
 */
int pcost_cli_read_export(const char *path, char **buf, size_t *len);

/* Render s in fmt to stdout; 0 or -1 (error printed). */
int pcost_cli_render(const struct pcost_session *s, enum pcost_format fmt);

#endif
