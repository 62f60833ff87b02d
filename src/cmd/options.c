// SPDX-License-Identifier: MIT
/* store_cli: open the store and name sessions the same way in every store command. */
#include "cmd/options.h"

#include <errno.h>
#include <limits.h>
#include <string.h>

#include "core/util.h"

int pcost_cli_open_db(const char *db_opt, enum pcost_db_mode mode, struct pcost_db **db)
{
	char path[PATH_MAX], err[PATH_MAX + 1024];
	int rc;

	if (pcost_db_path(db_opt, path, sizeof(path))) {
		error("no store path: give --db PATH or set PROBECOST_DB, XDG_DATA_HOME or HOME");
		return PCOST_EXIT_USAGE;
	}
	rc = pcost_db_open(path, mode, db, err, sizeof(err));
	if (rc == -ENOENT) {
		error("%s; run a measurement first or give --db PATH", err);
		return PCOST_EXIT_FAIL;
	}
	if (rc) {
		error("%s", err);
		/* Not a store of ours, a bad URL, credentials refused: the input is wrong. */
		return rc == -EBADMSG || rc == -EPROTO || rc == -EINVAL || rc == -EKEYREJECTED ?
			       PCOST_EXIT_USAGE :
			       PCOST_EXIT_FAIL;
	}
	return 0;
}

int pcost_cli_session_id(struct pcost_db *db, const char *arg, int64_t *id)
{
	uint64_t v;

	if (!strcmp(arg, "last") || !strcmp(arg, "latest")) {
		if (pcost_db_latest(db, id)) {
			error("%s", pcost_db_error(db));
			return PCOST_EXIT_FAIL;
		}
		return 0;
	}
	if (pcost_parse_u64(arg, 1, INT64_MAX, &v) || strpbrk(arg, "kMG"))
		return usage_error("'%s' is not a session id (a number from 'probecost history', or 'last')",
				   arg);
	*id = (int64_t)v;
	return 0;
}

int pcost_cli_load(struct pcost_db *db, const char *arg, struct pcost_session *s)
{
	int64_t id;
	int rc = pcost_cli_session_id(db, arg, &id);

	if (rc)
		return rc;
	rc = pcost_db_load(db, id, s);
	if (rc) {
		error("%s", pcost_db_error(db));
		return PCOST_EXIT_FAIL;
	}
	return 0;
}

int pcost_cli_load_from(const char *db_opt, const char *arg, struct pcost_session *s)
{
	struct pcost_db *db;
	int rc = pcost_cli_open_db(db_opt, PCOST_DB_READ, &db);

	if (rc)
		return rc;
	rc = pcost_cli_load(db, arg, s);
	pcost_db_close(db);
	return rc;
}
