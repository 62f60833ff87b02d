// SPDX-License-Identifier: MIT
/*
 * test_store_pg: what the PostgreSQL backend decides without a server: which
 * --db values are URLs, and that a password never reaches a message or a
 * stored command line.  The server itself is exercised by t310-store-postgres.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "store/backend.h"

static void test_is_url(void **st)
{
	assert_true(pcost_pg_is_url("postgresql://h/db"));
	assert_true(pcost_pg_is_url("postgres://"));
	assert_false(pcost_pg_is_url("postgresql:/h/db"));
	assert_false(pcost_pg_is_url("/var/lib/p.db"));
	assert_false(pcost_pg_is_url("./postgresql://x"));
	assert_false(pcost_pg_is_url(NULL));
}

static void redacts(const char *url, const char *want)
{
	char buf[256];

	pcost_pg_redact_url(url, buf, sizeof(buf));
	assert_string_equal(buf, want);
}

static void test_redact(void **st)
{
	redacts("postgresql://h:5432/db", "postgresql://h:5432/db");
	redacts("postgresql://u@h/db", "postgresql://u@h/db");
	redacts("postgresql://u:pw@h/db", "postgresql://u:***@h/db");
	/* libpq ends the userinfo at the first '@' before a '/': '?' and ':' are the password's. */
	redacts("postgresql://u:a?b:c@h/db", "postgresql://u:***@h/db");
	redacts("postgres://u:pw@[::1]:5/db?sslmode=require",
		"postgres://u:***@[::1]:5/db?sslmode=require");
	redacts("postgresql:///db?host=/run/pg&password=x&user=u",
		"postgresql:///db?host=/run/pg&password=***&user=u");
	redacts("postgresql://u:pw@h/db?password=x", "postgresql://u:***@h/db?password=***");
	/* Only a parameter named password, not one that ends so. */
	redacts("postgresql://h/db?sslpassword=x", "postgresql://h/db?sslpassword=x");
	redacts("postgresql://h/db/u:x@y", "postgresql://h/db/u:x@y");
	/* Not a URL at all: nothing before a leading password= is read. */
	redacts("password=x", "password=x");
}

static void test_redact_truncates(void **st)
{
	char buf[16];

	pcost_pg_redact_url("postgresql://u:pw@host.example/db", buf, sizeof(buf));
	assert_string_equal(buf, "postgresql://u:");
}

static void test_mask_cmdline(void **st)
{
	char *m;

	m = pcost_pg_mask_password("probecost run --db 'postgresql://u:pw@h/db?x=1' -w null",
				   "postgresql://u:pw@h/db?x=1");
	assert_string_equal(m, "probecost run --db 'postgresql://u:***@h/db?x=1' -w null");
	free(m);
	/* A quote in the password is how pcost_join_argv writes it, '\''. */
	m = pcost_pg_mask_password("probecost run '--db=postgresql://u:p'\\''w@h/db'",
				   "postgresql://u:p'w@h/db");
	assert_string_equal(m, "probecost run '--db=postgresql://u:***@h/db'");
	free(m);
	assert_null(pcost_pg_mask_password("probecost run --db postgresql://h/db",
					   "postgresql://h/db"));
	assert_null(pcost_pg_mask_password("probecost run --db /p.db", "/p.db"));
	assert_null(pcost_pg_mask_password(NULL, "postgresql://u:pw@h/db"));
}

static void test_bad_url_refused(void **st)
{
	struct pcost_db *db = (void *)1;
	char err[512];

	assert_int_equal(pcost_db_open("postgresql://u:s3cret@h/db?bogus=1", PCOST_DB_READ, &db,
				       err, sizeof(err)),
			 -EINVAL);
	assert_null(db);
	assert_non_null(
		strstr(err, "'postgresql://u:***@h/db?bogus=1' is not a valid PostgreSQL URL"));
	assert_null(strstr(err, "s3cret"));
	assert_null(strchr(err, '\n'));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_is_url),		 cmocka_unit_test(test_redact),
		cmocka_unit_test(test_redact_truncates), cmocka_unit_test(test_mask_cmdline),
		cmocka_unit_test(test_bad_url_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
