// SPDX-License-Identifier: MIT
/* test_store: the SQLite store: round trips, migrations, refusals, concurrency, the sink. */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "store/store.h"
#include "synth_session.h"

static char dir[64];
static char path[128];

static int setup(void **st)
{
	snprintf(dir, sizeof(dir), "/tmp/pcost-store-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/sub/dir/p.db", dir);
	return 0;
}

static int teardown(void **st)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? -1 : 0;
}

static struct pcost_db *open_ok(enum pcost_db_mode mode)
{
	struct pcost_db *db;
	char err[512];

	if (pcost_db_open(path, mode, &db, err, sizeof(err)))
		fail_msg("open: %s", err);
	return db;
}

static void raw_sql(const char *sql)
{
	sqlite3 *h;
	char *msg = NULL;

	assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
	if (sqlite3_exec(h, sql, NULL, NULL, &msg) != SQLITE_OK)
		fail_msg("sql: %s", msg);
	sqlite3_close(h);
}

static void fresh_file(void)
{
	char d[160];

	unlink(path);
	snprintf(d, sizeof(d), "%s-wal", path);
	unlink(d);
	snprintf(d, sizeof(d), "%s-shm", path);
	unlink(d);
}

/* Store s the way a measuring command does: samples in two flushes per config. */
static void store_like_sink(struct pcost_db *db, struct pcost_session *s)
{
	assert_int_equal(pcost_db_begin_session(db, s), 0);
	assert_true(s->id > 0);
	for (size_t i = 0; i < s->nconfigs; i++) {
		size_t n = s->configs[i].nsamples, half = n / 2;

		s->configs[i].nsamples = half;
		assert_int_equal(pcost_db_store_config(db, s, i, 0), 0);
		s->configs[i].nsamples = n;
		assert_int_equal(pcost_db_store_config(db, s, i, half), 0);
	}
	for (size_t i = 0; i < s->nseries; i++)
		assert_int_equal(pcost_db_store_series(db, s, i), 0);
	assert_int_equal(pcost_db_finish_session(db, s), 0);
}

static void test_roundtrip(void **st)
{
	static const enum pcost_session_kind kinds[] = { PCOST_SESSION_RUN, PCOST_SESSION_PROBES,
							 PCOST_SESSION_COUNTERS };
	struct pcost_db *db;
	struct stat sb;

	fresh_file();
	db = open_ok(PCOST_DB_WRITE);

	for (size_t k = 0; k < 3; k++) {
		struct pcost_session a, b;

		synth_session(&a, kinds[k], 7, 1.25);
		store_like_sink(db, &a);
		assert_int_equal(pcost_db_load(db, a.id, &b), 0);
		assert_sessions_equal(&a, &b);
		/* The store keeps doubles bit for bit. */
		for (size_t i = 0; i < a.nseries; i++)
			assert_memory_equal(a.series[i].ns, b.series[i].ns,
					    a.series[i].n * sizeof(double));
		assert_int_equal(b.id, a.id);
		pcost_session_release(&a);
		pcost_session_release(&b);
	}
	pcost_db_close(db);
	/* Safe modes: the file 0600, the directories we made 0700. */
	assert_int_equal(stat(path, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0600);
	snprintf(path + strlen(path) - 5, 6, "%s", "");
	assert_int_equal(stat(path, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0700);
	strcat(path, "/p.db");
}

static void test_incomplete_and_import(void **st)
{
	struct pcost_db *db;
	struct pcost_session a, b;
	int64_t latest;

	fresh_file();
	db = open_ok(PCOST_DB_WRITE);

	synth_session(&a, PCOST_SESSION_RUN, 4, 2.0);
	/* Interrupted after the first configuration. */
	assert_int_equal(pcost_db_begin_session(db, &a), 0);
	assert_int_equal(pcost_db_store_config(db, &a, 0, 0), 0);
	assert_int_equal(pcost_db_load(db, a.id, &b), 0);
	assert_false(b.complete);
	assert_int_equal(b.nconfigs, 1);
	assert_int_equal(b.configs[0].nsamples, 4);
	pcost_session_release(&b);

	/* Import: a new id, everything equal. */
	a.complete = true;
	assert_int_equal(pcost_db_import(db, &a, 1), 0);
	assert_int_equal(pcost_db_latest(db, &latest), 0);
	assert_int_equal(latest, a.id);
	assert_int_equal(pcost_db_load(db, a.id, &b), 0);
	assert_sessions_equal(&a, &b);
	pcost_session_release(&b);
	/* All or nothing: the second session fails (a trigger), the first is not kept. */
	{
		struct pcost_session two[2];
		int64_t before = latest;

		synth_session(&two[0], PCOST_SESSION_RUN, 2, 1.0);
		synth_session(&two[1], PCOST_SESSION_RUN, 2, 1.0);
		free(two[1].configs[1].workload);
		two[1].configs[1].workload = xstrdup("boom");
		raw_sql("CREATE TRIGGER boom BEFORE INSERT ON config WHEN NEW.workload = 'boom'"
			" BEGIN SELECT RAISE(ABORT, 'disk on fire'); END");
		assert_int_equal(pcost_db_import(db, two, 2), -EEXIST);
		assert_non_null(strstr(pcost_db_error(db), "disk on fire"));
		assert_int_equal(two[0].id, 0);
		assert_int_equal(pcost_db_latest(db, &latest), 0);
		assert_int_equal(latest, before);
		pcost_session_release(&two[0]);
		pcost_session_release(&two[1]);
	}
	assert_int_equal(pcost_db_load(db, 999, &b), -ENOENT);
	assert_non_null(strstr(pcost_db_error(db), "no session 999"));
	pcost_session_release(&a);
	pcost_db_close(db);
}

static void test_list_filters(void **st)
{
	struct pcost_db_filter f = { .kind = -1 };
	struct pcost_db_row *rows;
	struct pcost_session a;
	struct pcost_db *db;
	size_t n;

	fresh_file();
	db = open_ok(PCOST_DB_WRITE);

	synth_session(&a, PCOST_SESSION_RUN, 2, 1.1);
	a.started = 1000000;
	assert_int_equal(pcost_db_import(db, &a, 1), 0);
	pcost_session_release(&a);
	synth_session(&a, PCOST_SESSION_COUNTERS, 2, 1.1);
	a.started = 2000000;
	free(a.configs[1].monitor);
	a.configs[1].monitor = xstrdup("perf-stat");
	assert_int_equal(pcost_db_import(db, &a, 1), 0);
	pcost_session_release(&a);

	assert_int_equal(pcost_db_list(db, &f, &rows, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(rows[0].workloads, "pipe");
	assert_string_equal(rows[0].monitors, "none,strace");
	assert_string_equal(rows[0].kernel, "6.18.0");
	assert_int_equal(rows[0].nconfigs, 2);
	assert_int_equal(rows[0].nsamples, 4);
	assert_int_equal(rows[1].nseries, 2);
	pcost_db_rows_free(rows, n);

	f.monitor = "perf-stat";
	assert_int_equal(pcost_db_list(db, &f, &rows, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(rows[0].kind, PCOST_SESSION_COUNTERS);
	pcost_db_rows_free(rows, n);
	f.monitor = NULL;
	f.since = 1500000;
	assert_int_equal(pcost_db_list(db, &f, &rows, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(rows[0].started, 2000000);
	pcost_db_rows_free(rows, n);
	f.since = 0;
	f.until = 1500000;
	f.kind = PCOST_SESSION_COUNTERS;
	assert_int_equal(pcost_db_list(db, &f, &rows, &n), 0);
	assert_int_equal(n, 0);
	pcost_db_rows_free(rows, n);
	f.until = 0;
	f.kind = -1;
	f.kernel = "6.18";
	assert_int_equal(pcost_db_list(db, &f, &rows, &n), 0);
	assert_int_equal(n, 2);
	pcost_db_rows_free(rows, n);
	f.kernel = "5.";
	f.workload = "pipe";
	assert_int_equal(pcost_db_list(db, &f, &rows, &n), 0);
	assert_int_equal(n, 0);
	pcost_db_rows_free(rows, n);
	pcost_db_close(db);
}

/* The schema as probecost 0.1.0 wrote it (version 1), by hand. */
static const char v1_schema[] =
	"CREATE TABLE session (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, started INTEGER NOT NULL,"
	" cmdline TEXT, version TEXT, env_json TEXT, options_json TEXT, seed INTEGER NOT NULL,"
	" tsc_hz REAL NOT NULL, complete INTEGER NOT NULL, stored INTEGER NOT NULL);"
	"CREATE TABLE config (session_id INTEGER NOT NULL, idx INTEGER NOT NULL, workload TEXT,"
	" workload_args TEXT, monitor TEXT, variant TEXT, unit TEXT, expected_events INTEGER NOT NULL,"
	" PRIMARY KEY (session_id, idx));"
	"CREATE TABLE run_sample (session_id INTEGER NOT NULL, config_idx INTEGER NOT NULL,"
	" seq INTEGER NOT NULL, block INTEGER NOT NULL, ord INTEGER NOT NULL, warmup INTEGER NOT NULL,"
	" failed INTEGER NOT NULL, wait_status INTEGER NOT NULL, fail_reason TEXT NOT NULL,"
	" scale REAL NOT NULL, wall_ns INTEGER NOT NULL, user_ns INTEGER NOT NULL,"
	" sys_ns INTEGER NOT NULL, maxrss_kb INTEGER NOT NULL, minflt INTEGER NOT NULL,"
	" majflt INTEGER NOT NULL, nvcsw INTEGER NOT NULL, nivcsw INTEGER NOT NULL,"
	" has_report INTEGER NOT NULL, events INTEGER NOT NULL, timed_ns INTEGER NOT NULL,"
	" monitor_events INTEGER NOT NULL, PRIMARY KEY (session_id, config_idx, seq));"
	"CREATE TABLE series (session_id INTEGER NOT NULL, idx INTEGER NOT NULL, interface TEXT,"
	" op TEXT, events TEXT, nevents INTEGER NOT NULL, timer TEXT, note TEXT, n INTEGER NOT NULL,"
	" ns BLOB NOT NULL, PRIMARY KEY (session_id, idx));"
	"INSERT INTO session VALUES (7, 'run', 1700000000, 'probecost run', '0.1.0',"
	" '{\"fields\":{\"kernel.release\":\"6.1.0-old\"}}', NULL, 5, 0, 1, 1700000001);"
	"INSERT INTO config VALUES (7, 0, 'null', '', 'none', NULL, 'run', -1);"
	"INSERT INTO run_sample VALUES (7, 0, 0, 0, 0, 0, 0, 0, '', 1, 1234, 1, 2, 3, 4, 5, 6, 7,"
	" 1, 9, 10, -1);"
	"PRAGMA application_id = 1885565812;";

static void test_migrate_v1(void **st)
{
	struct pcost_db_filter f = { .kind = -1, .kernel = "6.1.0" };
	struct pcost_db_row *rows;
	struct pcost_session s;
	struct pcost_db *db;
	size_t n;

	fresh_file();
	raw_sql(v1_schema);
	raw_sql("PRAGMA user_version = 1");
	db = open_ok(PCOST_DB_READ);
	assert_int_equal(pcost_db_schema_version(db), PCOST_DB_SCHEMA_VERSION);
	assert_int_equal(pcost_db_load(db, 7, &s), 0);
	assert_int_equal(s.nconfigs, 1);
	assert_int_equal(s.configs[0].samples[0].wall_ns, 1234);
	assert_int_equal(s.configs[0].samples[0].monitor_events, -1);
	/* Columns later versions added: unknown, never a made-up value. */
	assert_false(s.configs[0].samples[0].has_busy);
	assert_int_equal(s.configs[0].samples[0].optimized, 0);
	assert_int_equal(s.configs[0].samples[0].fault, PCOST_FAULT_UNKNOWN);
	assert_int_equal(s.configs[0].samples[0].check, 0);
	assert_string_equal(s.configs[0].samples[0].note, "");
	assert_int_equal(s.configs[0].threads, 0);
	assert_null(s.configs[0].placement);
	pcost_session_release(&s);
	/* The column v2 added was filled from the old rows. */
	assert_int_equal(pcost_db_list(db, &f, &rows, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(rows[0].kernel, "6.1.0-old");
	pcost_db_rows_free(rows, n);
	pcost_db_close(db);
}

static void test_refusals(void **st)
{
	struct pcost_db *db;
	char err[512], want[96];
	int fd;

	/* Newer schema. */
	fresh_file();
	raw_sql("CREATE TABLE session (id INTEGER PRIMARY KEY); PRAGMA application_id = 1885565812;"
		" PRAGMA user_version = 99");
	assert_int_equal(pcost_db_open(path, PCOST_DB_WRITE, &db, err, sizeof(err)), -EPROTO);
	snprintf(want, sizeof(want), "schema version 99, newer than this probecost reads (%d)",
		 PCOST_DB_SCHEMA_VERSION);
	assert_non_null(strstr(err, want));
	assert_null(db);
	/* Another program's database. */
	fresh_file();
	raw_sql("CREATE TABLE t (x)");
	assert_int_equal(pcost_db_open(path, PCOST_DB_READ, &db, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "another program"));
	/* Garbage. */
	fresh_file();
	fd = open(path, O_WRONLY | O_CREAT, 0600);
	for (int i = 0; i < 64; i++)
		assert_int_equal(write(fd, "this is not sqlite at all!!!!!!\n", 32), 32);
	close(fd);
	assert_int_equal(pcost_db_open(path, PCOST_DB_WRITE, &db, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "is corrupt or not a database"));
	/* Missing for a reader. */
	fresh_file();
	assert_int_equal(pcost_db_open(path, PCOST_DB_READ, &db, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "no store at"));
	/* A path whose directory cannot be made. */
	assert_int_equal(
		pcost_db_open("/proc/self/nope/p.db", PCOST_DB_WRITE, &db, err, sizeof(err)) < 0,
		1);
	assert_non_null(strstr(err, "/proc/self/nope/p.db"));
}

/* Read-only: chmod for users, the immutable attribute for root (who ignores modes). */
static void test_read_only(void **st)
{
	struct pcost_session s;
	struct pcost_db *db;
	char err[512];
	int fd, flags = 0, rc;

	fresh_file();
	db = open_ok(PCOST_DB_WRITE);
	pcost_db_close(db);
	if (geteuid() == 0) {
		fd = open(path, O_RDONLY);
		if (ioctl(fd, FS_IOC_GETFLAGS, &flags) ||
		    (flags |= FS_IMMUTABLE_FL, ioctl(fd, FS_IOC_SETFLAGS, &flags))) {
			close(fd);
			skip();
		}
		close(fd);
	} else {
		assert_int_equal(chmod(path, 0400), 0);
	}
	rc = pcost_db_open(path, PCOST_DB_WRITE, &db, err, sizeof(err));
	/* Readers still work. */
	if (!rc || pcost_db_open(path, PCOST_DB_READ, &db, err, sizeof(err)) == 0)
		pcost_db_close(db);
	if (geteuid() == 0) {
		fd = open(path, O_RDONLY);
		flags &= ~FS_IMMUTABLE_FL;
		ioctl(fd, FS_IOC_SETFLAGS, &flags);
		close(fd);
	}
	assert_int_equal(rc, -EROFS);
	assert_non_null(strstr(err, "could not open"));

	/* The sink only warns, and the session is not marked stored. */
	setenv("PROBECOST_DB", "/proc/probecost-test.db", 1);
	synth_session(&s, PCOST_SESSION_RUN, 2, 1.0);
	pcost_sink_begin(&s, NULL, false);
	pcost_sink_config(&s, 0);
	pcost_sink_end(&s);
	assert_int_equal(s.id, 0);
	pcost_session_release(&s);
	unsetenv("PROBECOST_DB");
}

static void test_sink(void **st)
{
	struct pcost_session s, b;
	struct pcost_db *db;

	fresh_file();
	synth_session(&s, PCOST_SESSION_COUNTERS, 6, 1.5);
	pcost_sink_begin(&s, path, false);
	assert_true(s.id > 0);
	/* Flushes after every sample, as an interleaving runner does, and once before any. */
	for (size_t i = 0; i < s.nconfigs; i++) {
		size_t n = s.configs[i].nsamples;

		s.configs[i].nsamples = 0;
		pcost_sink_config(&s, i);
		for (size_t k = 1; k <= n; k++) {
			s.configs[i].nsamples = k;
			pcost_sink_config(&s, i);
			pcost_sink_config(&s, i); /* nothing new: no duplicate */
		}
	}
	db = open_ok(PCOST_DB_READ);
	assert_int_equal(pcost_db_load(db, s.id, &b), 0);
	assert_false(b.complete);
	assert_int_equal(b.nseries, 0);
	pcost_session_release(&b);
	for (size_t i = 0; i < s.nseries; i++)
		pcost_sink_series(&s, i);
	pcost_sink_series(&s, 0); /* twice: replaced, not duplicated nor refused */
	s.complete = true;
	pcost_sink_end(&s);
	assert_int_equal(pcost_db_load(db, s.id, &b), 0);
	assert_sessions_equal(&s, &b);
	pcost_session_release(&b);
	pcost_db_close(db);
	pcost_session_release(&s);

	/* --no-store. */
	synth_session(&s, PCOST_SESSION_RUN, 1, 1.0);
	pcost_sink_begin(&s, path, true);
	pcost_sink_end(&s);
	assert_int_equal(s.id, 0);
	pcost_session_release(&s);
}

/* Two processes storing sessions at once, configuration by configuration: both succeed. */
static void test_concurrent_writers(void **st)
{
	enum { PER_CHILD = 15 };
	struct pcost_db_filter f = { .kind = -1 };
	struct pcost_db_row *rows;
	struct pcost_db *db;
	pid_t pid[2];
	size_t n;

	fresh_file();
	for (int c = 0; c < 2; c++) {
		pid[c] = fork();
		assert_true(pid[c] >= 0);
		if (pid[c] == 0) {
			for (int k = 0; k < PER_CHILD; k++) {
				struct pcost_session s;
				struct pcost_db *d;
				char err[512];

				synth_session(&s, PCOST_SESSION_RUN, 5, 1.0 + c);
				if (pcost_db_open(path, PCOST_DB_WRITE, &d, err, sizeof(err))) {
					fprintf(stderr, "child %d: %s\n", c, err);
					_exit(1);
				}
				if (pcost_db_begin_session(d, &s))
					_exit(2);
				for (size_t i = 0; i < s.nconfigs; i++)
					if (pcost_db_store_config(d, &s, i, 0)) {
						fprintf(stderr, "child %d: %s\n", c,
							pcost_db_error(d));
						_exit(3);
					}
				s.complete = true;
				if (pcost_db_finish_session(d, &s))
					_exit(4);
				pcost_db_close(d);
				pcost_session_release(&s);
			}
			_exit(0);
		}
	}
	for (int c = 0; c < 2; c++) {
		int status;

		assert_int_equal(waitpid(pid[c], &status, 0), pid[c]);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
	}
	db = open_ok(PCOST_DB_READ);
	assert_int_equal(pcost_db_list(db, &f, &rows, &n), 0);
	assert_int_equal(n, 2 * PER_CHILD);
	for (size_t i = 0; i < n; i++) {
		assert_true(rows[i].complete);
		assert_int_equal(rows[i].nsamples, 10);
	}
	pcost_db_rows_free(rows, n);
	pcost_db_close(db);
}

/*
 * Four processes creating one fresh store at once, 150 times: every open
 * succeeds. The switch to WAL used to fail at once with "stayed locked" when it
 * met another opener's write (2 of 400 rounds here).
 */
static void test_concurrent_create(void **st)
{
	enum { ROUNDS = 150, OPENERS = 4 };
	int failed = 0;

	for (int r = 0; r < ROUNDS; r++) {
		pid_t pid[OPENERS];

		fresh_file();
		for (int c = 0; c < OPENERS; c++) {
			pid[c] = fork();
			assert_true(pid[c] >= 0);
			if (pid[c] == 0) {
				struct pcost_db *d;
				char err[512];

				if (pcost_db_open(path, PCOST_DB_WRITE, &d, err, sizeof(err))) {
					fprintf(stderr, "round %d, opener %d: %s\n", r, c, err);
					_exit(1);
				}
				pcost_db_close(d);
				_exit(0);
			}
		}
		for (int c = 0; c < OPENERS; c++) {
			int status;

			assert_int_equal(waitpid(pid[c], &status, 0), pid[c]);
			if (!WIFEXITED(status) || WEXITSTATUS(status))
				failed++;
		}
	}
	assert_int_equal(failed, 0);
}

static void test_path(void **st)
{
	char buf[256];

	unsetenv("PROBECOST_DB");
	setenv("XDG_DATA_HOME", "/x/data", 1);
	assert_int_equal(pcost_db_path(NULL, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/x/data/probecost/probecost.db");
	setenv("XDG_DATA_HOME", "relative", 1);
	setenv("HOME", "/home/u", 1);
	assert_int_equal(pcost_db_path(NULL, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/home/u/.local/share/probecost/probecost.db");
	setenv("PROBECOST_DB", "/e.db", 1);
	assert_int_equal(pcost_db_path(NULL, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/e.db");
	assert_int_equal(pcost_db_path("/given.db", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/given.db");
	assert_int_equal(pcost_db_path("/given.db", buf, 4), -ENAMETOOLONG);
	unsetenv("PROBECOST_DB");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_incomplete_and_import),
		cmocka_unit_test(test_list_filters),
		cmocka_unit_test(test_migrate_v1),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_read_only),
		cmocka_unit_test(test_sink),
		cmocka_unit_test(test_concurrent_writers),
		cmocka_unit_test(test_concurrent_create),
		cmocka_unit_test(test_path),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
