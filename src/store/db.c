// SPDX-License-Identifier: MIT
/*
 * db: open the SQLite store safely, recognise it, migrate old schemas and
 * refuse newer ones.  WAL lets readers and one writer at a time work at once;
 * the busy timeout lets two probecost processes that store together both win.
 */
#include "store/db_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/safepath.h"
#include "core/util.h"

/* PRAGMA application_id: "pcst", so `file` and we can tell our databases apart. */
#define PCOST_DB_APP_ID 0x70637374
/* A writer holds the lock for one small transaction; 15 s covers a slow disk. */
#define PCOST_DB_BUSY_MS 15000

/*
 * migrations[v] takes a database from schema v to v + 1.  Never edit a
 * released step: add one.  v1 kept every raw sample; v2 added the kernel
 * release (for history --kernel) and the indexes history filters use; v3 how
 * busy the machine was; v4 run --threads and --placement; v5 whether the
 * kernel optimized a probes run's uprobe; v6 how each run ended (whose
 * failure, the workload's own check, the monitor's note); v7 a run session's
 * figures (--metric, a workload's facts: their definitions and each run's values)
 * and the CPU time of its --service per run; v8 the cost tables of calibrate;
 * v9 the placement each cost entry was measured under.
 */
static const char *const migrations[] = {
	/* 0 -> 1 */
	"CREATE TABLE session ("
	"  id INTEGER PRIMARY KEY,"
	"  kind TEXT NOT NULL,"
	"  started INTEGER NOT NULL,"
	"  cmdline TEXT, version TEXT, env_json TEXT, options_json TEXT,"
	"  seed INTEGER NOT NULL," /* uint64 stored as its int64 bit pattern */
	"  tsc_hz REAL NOT NULL,"
	"  complete INTEGER NOT NULL,"
	"  stored INTEGER NOT NULL);" /* unix seconds it was written (import time) */
	"CREATE TABLE config ("
	"  session_id INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  idx INTEGER NOT NULL,"
	"  workload TEXT, workload_args TEXT, monitor TEXT, variant TEXT, unit TEXT,"
	"  expected_events INTEGER NOT NULL,"
	"  PRIMARY KEY (session_id, idx));"
	"CREATE TABLE run_sample ("
	"  session_id INTEGER NOT NULL, config_idx INTEGER NOT NULL, seq INTEGER NOT NULL,"
	"  block INTEGER NOT NULL, ord INTEGER NOT NULL, warmup INTEGER NOT NULL,"
	"  failed INTEGER NOT NULL, wait_status INTEGER NOT NULL, fail_reason TEXT NOT NULL,"
	"  scale REAL NOT NULL, wall_ns INTEGER NOT NULL, user_ns INTEGER NOT NULL,"
	"  sys_ns INTEGER NOT NULL, maxrss_kb INTEGER NOT NULL, minflt INTEGER NOT NULL,"
	"  majflt INTEGER NOT NULL, nvcsw INTEGER NOT NULL, nivcsw INTEGER NOT NULL,"
	"  has_report INTEGER NOT NULL, events INTEGER NOT NULL, timed_ns INTEGER NOT NULL,"
	"  monitor_events INTEGER NOT NULL,"
	"  PRIMARY KEY (session_id, config_idx, seq),"
	"  FOREIGN KEY (session_id, config_idx) REFERENCES config(session_id, idx)"
	"    ON DELETE CASCADE);"
	"CREATE TABLE series ("
	"  session_id INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  idx INTEGER NOT NULL,"
	"  interface TEXT, op TEXT, events TEXT, nevents INTEGER NOT NULL, timer TEXT, note TEXT,"
	"  n INTEGER NOT NULL,"
	"  ns BLOB NOT NULL," /* n native doubles: every sample, raw */
	"  PRIMARY KEY (session_id, idx));",
	/* 1 -> 2 */
	"ALTER TABLE session ADD COLUMN kernel TEXT;"
	"UPDATE session SET kernel = json_extract(env_json, '$.fields.\"kernel.release\"')"
	"  WHERE json_valid(env_json);"
	"CREATE INDEX session_started ON session(started);"
	"CREATE INDEX config_workload ON config(workload);"
	"CREATE INDEX config_monitor ON config(monitor);",
	/* 2 -> 3: how busy the machine was around each run (NULL: not recorded) */
	"ALTER TABLE run_sample ADD COLUMN other_cpu_ns INTEGER;"
	"ALTER TABLE run_sample ADD COLUMN steal_ns INTEGER;",
	/* 3 -> 4: run --threads and --placement (0 and NULL where not varied) */
	"ALTER TABLE config ADD COLUMN threads INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE config ADD COLUMN placement TEXT;",
	/* 4 -> 5: probes: did the kernel optimize the run's uprobe (1, 0; NULL: unknown) */
	"ALTER TABLE run_sample ADD COLUMN optimized INTEGER;",
	/*
	 * 5 -> 6: how each run ended (stats/outcome.h): whose failure it was ('none',
	 * 'program', 'tool'; NULL: not recorded, derived when read), the workload's
	 * check of its own result (1 ok, 0 bad; NULL: none reported), the monitor's
	 * note on the run (NULL: none)
	 */
	"ALTER TABLE run_sample ADD COLUMN fault TEXT;"
	"ALTER TABLE run_sample ADD COLUMN self_check INTEGER;"
	"ALTER TABLE run_sample ADD COLUMN note TEXT;",
	/*
	 * 6 -> 7: run --metric and a workload's figures: what each is (better: 1
	 * higher, -1 lower, 0 not known) and each run's value (no row: the run gave
	 * none); run --service: its CPU time during each run (NULL: no service).
	 */
	"CREATE TABLE metric ("
	"  session_id INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  idx INTEGER NOT NULL, name TEXT NOT NULL, unit TEXT NOT NULL, better INTEGER NOT NULL,"
	"  PRIMARY KEY (session_id, idx));"
	"CREATE TABLE run_metric ("
	"  session_id INTEGER NOT NULL, config_idx INTEGER NOT NULL, seq INTEGER NOT NULL,"
	"  metric_idx INTEGER NOT NULL, value REAL NOT NULL,"
	"  PRIMARY KEY (session_id, config_idx, seq, metric_idx),"
	"  FOREIGN KEY (session_id, config_idx, seq) REFERENCES run_sample(session_id, config_idx, seq)"
	"    ON DELETE CASCADE);"
	"ALTER TABLE run_sample ADD COLUMN service_user_ns INTEGER;"
	"ALTER TABLE run_sample ADD COLUMN service_sys_ns INTEGER;",
	/* 7 -> 8: calibrate's cost tables (store/costs_sqlite.c); a NULL figure: not measured */
	"CREATE TABLE cost_table ("
	"  id INTEGER PRIMARY KEY,"
	"  created INTEGER NOT NULL, level TEXT NOT NULL, version TEXT, host TEXT, kernel TEXT,"
	"  cpu TEXT, env_json TEXT, seconds REAL, complete INTEGER NOT NULL,"
	"  stored INTEGER NOT NULL);"
	"CREATE TABLE cost_entry ("
	"  table_id INTEGER NOT NULL REFERENCES cost_table(id) ON DELETE CASCADE,"
	"  idx INTEGER NOT NULL,"
	"  subject TEXT NOT NULL, kind TEXT NOT NULL, event TEXT NOT NULL, status TEXT NOT NULL,"
	"  ns REAL, lo REAL, hi REAL, df REAL,"
	"  workload TEXT, method TEXT, why TEXT, session_id INTEGER,"
	"  PRIMARY KEY (table_id, idx));"
	"CREATE INDEX cost_table_created ON cost_table(created);",
	/*
	 * 8 -> 9: the placement each cost was measured under ("unpinned", "cpu=0");
	 * an older table's entries were all measured as its table says (cpu).
	 */
	"ALTER TABLE cost_entry ADD COLUMN placement TEXT;"
	"UPDATE cost_entry SET placement = (SELECT CASE WHEN coalesce(t.cpu, '') = ''"
	"  THEN 'unpinned' ELSE 'cpu=' || t.cpu END FROM cost_table t WHERE t.id = table_id);",
};

_Static_assert(ARRAY_SIZE(migrations) == PCOST_DB_SCHEMA_VERSION, "one migration per version");

static int db_errno(int rc)
{
	switch (rc & 0xff) {
	case SQLITE_OK:
		return 0;
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return -EBUSY;
	case SQLITE_READONLY:
	case SQLITE_PERM:
		return -EROFS;
	case SQLITE_FULL:
		return -ENOSPC;
	case SQLITE_CORRUPT:
	case SQLITE_NOTADB:
		return -EBADMSG;
	case SQLITE_NOMEM:
		return -ENOMEM;
	case SQLITE_CANTOPEN:
		return -ENOENT;
	case SQLITE_CONSTRAINT:
		return -EEXIST;
	default:
		return -EIO;
	}
}

int pcost_db_fail(struct pcost_db *db, int rc, const char *what)
{
	const char *msg = db->h ? sqlite3_errmsg(db->h) : sqlite3_errstr(rc);
	int sys = db->h ? sqlite3_system_errno(db->h) : 0;

	/* An I/O error is often a full disk or a read-only filesystem underneath. */
	if ((rc & 0xff) == SQLITE_IOERR && sys == ENOSPC)
		rc = SQLITE_FULL;
	else if ((rc & 0xff) == SQLITE_IOERR && (sys == EROFS || sys == EACCES || sys == EPERM))
		rc = SQLITE_READONLY;
	switch (rc & 0xff) {
	case SQLITE_CORRUPT:
	case SQLITE_NOTADB:
		snprintf(db->err, sizeof(db->err), "%s: '%s' is corrupt or not a database (%s)",
			 what, db->path, msg);
		break;
	case SQLITE_READONLY:
		snprintf(db->err, sizeof(db->err), "%s: '%s' is read-only (%s)", what, db->path,
			 msg);
		break;
	case SQLITE_FULL:
		snprintf(db->err, sizeof(db->err), "%s: the disk holding '%s' is full", what,
			 db->path);
		break;
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		snprintf(db->err, sizeof(db->err),
			 "%s: '%s' stayed locked by another process for %d s", what, db->path,
			 PCOST_DB_BUSY_MS / 1000);
		break;
	default:
		snprintf(db->err, sizeof(db->err), "%s: %s", what, msg);
	}
	return db_errno(rc);
}

int pcost_db_exec(struct pcost_db *db, const char *sql, const char *what)
{
	int rc = sqlite3_exec(db->h, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : pcost_db_fail(db, rc, what);
}

int pcost_db_prepare(struct pcost_db *db, const char *sql, sqlite3_stmt **st)
{
	int rc = sqlite3_prepare_v2(db->h, sql, -1, st, NULL);

	return rc == SQLITE_OK ? 0 : pcost_db_fail(db, rc, "could not read the store");
}

const char *pcost_db_error(const struct pcost_db *db)
{
	return db->err;
}

int pcost_db_path(const char *explicit_path, char *buf, size_t len)
{
	const char *e = getenv("PROBECOST_DB"), *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");
	int n;

	if (explicit_path && *explicit_path)
		n = snprintf(buf, len, "%s", explicit_path);
	else if (e && *e)
		n = snprintf(buf, len, "%s", e);
	/* XDG Base Directory spec: a relative $XDG_DATA_HOME is invalid, ignore it. */
	else if (xdg && xdg[0] == '/')
		n = snprintf(buf, len, "%s/probecost/probecost.db", xdg);
	else if (home && *home)
		n = snprintf(buf, len, "%s/.local/share/probecost/probecost.db", home);
	else
		return -ENOENT;
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* mkdir -p of path's directory; directories we create are 0700 (XDG spec). */
static int make_parents(const char *path)
{
	char dir[PATH_MAX];
	char *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = '\0';
	for (char *p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0700) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(dir, 0700) && errno != EEXIST)
		return -errno;
	return 0;
}

static int get_pragma_int(struct pcost_db *db, const char *sql, int *out)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db->h, sql, -1, &st, NULL);

	*out = 0;
	if (rc != SQLITE_OK)
		return pcost_db_fail(db, rc, "could not read the store");
	rc = sqlite3_step(st);
	*out = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE
		       ? 0
		       : pcost_db_fail(db, rc, "could not read the store");
}

/* Inside one write transaction: recognise the file, then step it up to our schema. */
static int migrate(struct pcost_db *db)
{
	int version, app, ntables, rc;

	if ((rc = get_pragma_int(db, "PRAGMA user_version", &version)) ||
	    (rc = get_pragma_int(db, "PRAGMA application_id", &app)) ||
	    (rc = get_pragma_int(db, "SELECT count(*) FROM sqlite_master", &ntables)))
		return rc;
	if ((app != 0 && app != PCOST_DB_APP_ID) || (version == 0 && ntables > 0)) {
		snprintf(
			db->err, sizeof(db->err),
			"'%s' is an SQLite database of another program, not probecost's; use another --db",
			db->path);
		return -EBADMSG;
	}
	if (version > PCOST_DB_SCHEMA_VERSION) {
		snprintf(db->err, sizeof(db->err),
			 "'%s' has schema version %d, newer than this probecost reads (%d); "
			 "upgrade probecost or use another --db",
			 db->path, version, PCOST_DB_SCHEMA_VERSION);
		return -EPROTO;
	}
	if (version == PCOST_DB_SCHEMA_VERSION)
		return 0;
	if (!db->writable) {
		snprintf(db->err, sizeof(db->err),
			 "'%s' has the older schema version %d and is read-only, so it cannot be "
			 "migrated to %d; make it writable once",
			 db->path, version, PCOST_DB_SCHEMA_VERSION);
		return -EROFS;
	}
	for (int v = version; v < PCOST_DB_SCHEMA_VERSION; v++)
		if ((rc = pcost_db_exec(db, migrations[v], "could not migrate the store")))
			return rc;
	char sql[96];

	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d; PRAGMA application_id = %d;",
		 PCOST_DB_SCHEMA_VERSION, PCOST_DB_APP_ID);
	return pcost_db_exec(db, sql, "could not migrate the store");
}

/* The directory of path is one we may create files in (SQLite's -wal and -shm). */
static bool dir_writable(const char *path)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	bool ok;

	if (!slash)
		ok = !access(".", W_OK);
	else if (slash == dir)
		ok = !access("/", W_OK);
	else {
		*slash = '\0';
		ok = !access(dir, W_OK);
	}
	free(dir);
	return ok;
}

/*
 * Switching a fresh file to WAL needs its exclusive lock, and SQLite answers
 * SQLITE_BUSY at once, without the busy handler, when that would deadlock with
 * another opener's write (two processes creating one store: 2 in 1,600 opens
 * here). Wait for it as for any lock: retry until PCOST_DB_BUSY_MS.
 */
static int wal_on(struct pcost_db *db)
{
	pcost_ns t0 = pcost_now_ns();
	int rc;

	for (;;) {
		rc = sqlite3_exec(db->h, "PRAGMA journal_mode = WAL", NULL, NULL, NULL);
		if ((rc & 0xff) != SQLITE_BUSY && (rc & 0xff) != SQLITE_LOCKED)
			break;
		if (pcost_now_ns() - t0 >= (pcost_ns)PCOST_DB_BUSY_MS * 1000000)
			break;
		usleep(5000);
	}
	return rc == SQLITE_OK ? 0 : pcost_db_fail(db, rc, "could not open the store");
}

static int sqlite_open(const char *path, enum pcost_db_mode mode, struct pcost_db **out, char *err,
		       size_t errlen)
{
	struct pcost_db *db = xcalloc(1, sizeof(*db));
	struct stat st;
	int flags, rc, fd, shared;

	*out = NULL;
	db->ops = &pcost_sqlite_ops;
	db->copy_undo = -1;
	snprintf(db->path, sizeof(db->path), "%s", path);
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		rc = -EISDIR;
		snprintf(db->err, sizeof(db->err),
			 "'%s' is a directory: give --db a store file in it", path);
		goto fail;
	}
	/* Never through a link another user planted (fs.protected_symlinks is 0 in many containers). */
	if ((shared = pcost_shared_dir_check(path, db->err, sizeof(db->err))) < 0) {
		rc = shared;
		goto fail;
	}
	if (mode == PCOST_DB_WRITE) {
		if ((rc = make_parents(path))) {
			snprintf(db->err, sizeof(db->err),
				 "could not create the directory of '%s': %s", path, strerror(-rc));
			goto fail;
		}
		/* Create it ourselves so the file is 0600 whatever sqlite's default. */
		fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | (shared ? O_NOFOLLOW : 0), 0600);
		if (fd < 0 && errno == ELOOP) {
			rc = -EPERM;
			snprintf(db->err, sizeof(db->err),
				 "'%s' is a symbolic link: give --db the store's own path", path);
			goto fail;
		}
		if (fd < 0) {
			rc = errno == EACCES || errno == EROFS || errno == EPERM ? -EROFS : -errno;
			snprintf(db->err, sizeof(db->err), "could not open '%s' for writing: %s",
				 path, strerror(errno));
			goto fail;
		}
		close(fd);
		db->writable = true;
	} else {
		if (access(path, F_OK)) {
			rc = -ENOENT;
			snprintf(db->err, sizeof(db->err), "no store at '%s' yet", path);
			goto fail;
		}
		db->writable = !access(path, W_OK) && dir_writable(path);
	}
reopen:
	flags = db->writable ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY | SQLITE_OPEN_URI;
	if (shared)
		flags |= SQLITE_OPEN_NOFOLLOW;
	if (db->writable) {
		rc = sqlite3_open_v2(path, &db->h, flags, NULL);
	} else {
		char *uri = pcost_sqlite_readonly_uri(db, path);

		if (!uri) {
			rc = -EROFS;
			goto fail;
		}
		rc = sqlite3_open_v2(uri, &db->h, flags, NULL);
		free(uri);
	}
	if (rc != SQLITE_OK) {
		rc = pcost_db_fail(db, rc, "could not open the store");
		goto fail;
	}
	sqlite3_extended_result_codes(db->h, 1);
	sqlite3_busy_timeout(db->h, PCOST_DB_BUSY_MS);
	if (db->writable && sqlite3_db_readonly(db->h, "main") == 1) {
		rc = -EROFS;
		snprintf(db->err, sizeof(db->err), "'%s' is read-only", path);
		goto fail;
	}
	/* BEGIN IMMEDIATE takes the write lock now: two processes migrating queue up. */
	rc = pcost_db_exec(db, db->writable ? "BEGIN IMMEDIATE" : "BEGIN",
			   "could not open the store");
	if (!rc) {
		rc = migrate(db);
		if (rc)
			sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
		else
			rc = pcost_db_exec(db, "COMMIT", "could not migrate the store");
	}
	if (rc)
		goto fail;
	if (db->writable) {
		/* WAL: readers never block the writer; NORMAL sync is durable at checkpoints
		 * and never corrupts (sqlite.org/wal.html). */
		if ((rc = wal_on(db)) || (rc = pcost_db_exec(db, "PRAGMA synchronous = NORMAL",
							     "could not open the store")))
			goto fail;
	}
	if ((rc = pcost_db_exec(db, "PRAGMA foreign_keys = ON", "could not open the store")))
		goto fail;
	*out = db;
	return 0;
fail:
	/* Read on a full disk: SQLite finds no room for its -shm; read it as a read-only store. */
	if (rc == -ENOSPC && mode != PCOST_DB_WRITE && db->writable) {
		sqlite3_close(db->h);
		db->h = NULL;
		db->writable = false;
		db->err[0] = '\0';
		goto reopen;
	}
	snprintf(err, errlen, "%s", db->err);
	if (db->h)
		sqlite3_close(db->h);
	pcost_sqlite_readonly_release(db);
	free(db);
	return rc < 0 ? rc : -EIO;
}

static void sqlite_close(struct pcost_db *db)
{
	sqlite3_close(db->h);
	pcost_sqlite_readonly_release(db);
	free(db);
}

static int sqlite_schema_version(struct pcost_db *db)
{
	int v = -1;

	get_pragma_int(db, "PRAGMA user_version", &v);
	return v;
}

const struct pcost_db_ops pcost_sqlite_ops = {
	.name = "sqlite",
	.open = sqlite_open,
	.close = sqlite_close,
	.schema_version = sqlite_schema_version,
	.begin_session = pcost_sqlite_begin_session,
	.store_config = pcost_sqlite_store_config,
	.store_series = pcost_sqlite_store_series,
	.finish_session = pcost_sqlite_finish_session,
	.import = pcost_sqlite_import,
	.load = pcost_sqlite_load,
	.latest = pcost_sqlite_latest,
	.list = pcost_sqlite_list,
	.store_costs = pcost_sqlite_store_costs,
	.load_costs = pcost_sqlite_load_costs,
};

/* A URL names a server's backend; anything else is an SQLite file. */
int pcost_db_open(const char *where, enum pcost_db_mode mode, struct pcost_db **out, char *err,
		  size_t errlen)
{
	const struct pcost_db_ops *ops = pcost_pg_is_url(where) ? &pcost_pg_ops : &pcost_sqlite_ops;

	return ops->open(where, mode, out, err, errlen);
}

void pcost_db_close(struct pcost_db *db)
{
	if (db)
		db->ops->close(db);
}

int pcost_db_schema_version(struct pcost_db *db)
{
	return db->ops->schema_version(db);
}

int pcost_db_begin_session(struct pcost_db *db, struct pcost_session *s)
{
	return db->ops->begin_session(db, s);
}

int pcost_db_store_config(struct pcost_db *db, const struct pcost_session *s, size_t i, size_t from)
{
	return db->ops->store_config ? db->ops->store_config(db, s, i, from) : 0;
}

int pcost_db_store_series(struct pcost_db *db, const struct pcost_session *s, size_t i)
{
	return db->ops->store_series ? db->ops->store_series(db, s, i) : 0;
}

int pcost_db_finish_session(struct pcost_db *db, const struct pcost_session *s)
{
	return db->ops->finish_session(db, s);
}

int pcost_db_import(struct pcost_db *db, struct pcost_session *s, size_t n)
{
	return db->ops->import(db, s, n);
}

int pcost_db_load(struct pcost_db *db, int64_t id, struct pcost_session *s)
{
	return db->ops->load(db, id, s);
}

int pcost_db_latest(struct pcost_db *db, int64_t *id)
{
	return db->ops->latest(db, id);
}

int pcost_db_list(struct pcost_db *db, const struct pcost_db_filter *f, struct pcost_db_row **rows,
		  size_t *n)
{
	return db->ops->list(db, f, rows, n);
}

int pcost_db_store_costs(struct pcost_db *db, struct pcost_cost_table *t)
{
	return db->ops->store_costs(db, t);
}

int pcost_db_load_costs(struct pcost_db *db, struct pcost_cost_table **out, size_t *n)
{
	return db->ops->load_costs(db, out, n);
}
