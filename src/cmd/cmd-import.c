// SPDX-License-Identifier: MIT
/* cmd/cmd-import: read exported sessions into the store, validated, all or nothing. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/cmd-options.h"
#include "core/util.h"

static const char *const import_usage[] = { "import FILE|- [--db PATH|URL] [--check]", NULL };

/*
 * Refuse before reading what cannot be an export: not a regular file or a
 * pipe (a device such as /dev/zero, a directory), or a file larger than the
 * cap.  O_NONBLOCK: opening a FIFO nobody writes to does not hang.
 */
static int open_input(const char *path, char *err, size_t errlen)
{
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) : 0;
	struct stat st;

	if (fd < 0 || fstat(fd, &st) < 0) {
		snprintf(err, errlen, "could not read '%s': %s", path, strerror(errno));
		goto fail;
	}
	if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode) && !S_ISSOCK(st.st_mode)) {
		snprintf(err, errlen,
			 "refusing '%s': not a regular file or a pipe; nothing imported", path);
		errno = EINVAL;
		goto fail;
	}
	if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > PCOST_IMPORT_MAX_BYTES) {
		snprintf(err, errlen,
			 "refusing '%s': %lld bytes, larger than the %u MiB an export may be; "
			 "nothing imported",
			 path, (long long)st.st_size, PCOST_IMPORT_MAX_BYTES >> 20);
		errno = EFBIG;
		goto fail;
	}
	/* Blocking reads from here on (a FIFO's writer may come later). */
	if (fd && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0)
		goto fail;
	return fd;
fail:
	if (fd > 0)
		close(fd);
	return -errno;
}

/*
 * The whole input, at most PCOST_IMPORT_MAX_BYTES + 1 bytes; stops at the
 * first NUL byte (never in JSON text), so an endless stream of them is
 * refused after one read.  -EINVAL for a NUL (err says so), -errno else.
 */
static int slurp(int fd, const char *path, char **buf, size_t *len, char *err, size_t errlen)
{
	size_t cap = 1 << 16, n = 0;
	char *p = xmalloc(cap);

	for (;;) {
		ssize_t r;

		if (n == cap) {
			if (cap > PCOST_IMPORT_MAX_BYTES)
				break;
			cap *= 2;
			p = xrealloc(p, cap);
		}
		r = read(fd, p + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			snprintf(err, errlen, "could not read '%s': %s", path, strerror(e));
			free(p);
			return -e;
		}
		if (r == 0)
			break;
		if (memchr(p + n, '\0', (size_t)r)) {
			snprintf(err, errlen,
				 "refusing '%s': contains a NUL byte, not a JSON text; "
				 "nothing imported",
				 path);
			free(p);
			return -EINVAL;
		}
		n += (size_t)r;
	}
	*buf = p;
	*len = n;
	return 0;
}

int pcost_cli_read_export(const char *path, char **buf, size_t *len)
{
	char err[512];
	int fd, rc;

	if ((fd = open_input(path, err, sizeof(err))) < 0) {
		error("%s", err);
		/* A name that is no file is bad input; one that cannot be read, a failure. */
		return fd == -EINVAL || fd == -EFBIG || fd == -ENOENT || fd == -ENOTDIR
			       ? PCOST_EXIT_USAGE
			       : PCOST_EXIT_FAIL;
	}
	rc = slurp(fd, path, buf, len, err, sizeof(err));
	if (fd)
		close(fd);
	if (rc) {
		error("%s", err);
		return rc == -EINVAL ? PCOST_EXIT_USAGE : PCOST_EXIT_FAIL;
	}
	return 0;
}

int cmd_import(int argc, char **argv)
{
	bool check = false;
	struct pcost_store_opts o = {
		.args = "one file (or - for stdin)",
		.min_args = 1,
		.max_args = 1,
	};
	const struct pcost_option options[] = {
		OPT_BOOL(0, "check", &check, "validate only: write nothing"),
		OPT_STORE_DB(&o),
		OPT_END(),
	};
	struct pcost_parse p = {
		.cmd = "import",
		.usage = import_usage,
		.about =
			"Reads sessions written by 'probecost export' (one object or an array) into\n"
			"the store, with new ids.  Everything is validated first; a file with any\n"
			"error is refused whole and nothing is written.",
		.options = options,
	};
	const char *path;
	struct pcost_session *ss;
	struct pcost_db *db;
	char err[512];
	size_t len = 0, n;
	char *buf = NULL;
	int rc;

	if ((rc = pcost_store_opts_parse(&o, &p, argc, argv)))
		return rc == PCOST_OPTS_HELP ? 0 : rc;
	path = o.argv[0];
	if ((rc = pcost_cli_read_export(path, &buf, &len)))
		return rc;
	rc = pcost_sessions_from_text(buf, len, &ss, &n, err, sizeof(err));
	free(buf);
	if (rc) {
		error("refusing '%s': %s; nothing imported", path, err);
		return PCOST_EXIT_USAGE;
	}
	if (check) {
		printf("'%s': %zu valid session%s\n", path, n, n == 1 ? "" : "s");
	} else if (!(rc = pcost_cli_open_db(o.db, PCOST_DB_WRITE, &db))) {
		int64_t *old = xcalloc(n, sizeof(*old));

		for (size_t i = 0; i < n; i++)
			old[i] = ss[i].id;
		if (pcost_db_import(db, ss, n)) {
			rc = PCOST_EXIT_FAIL;
			error("%s; nothing imported", pcost_db_error(db));
		} else {
			for (size_t i = 0; i < n; i++)
				printf("imported session %lld as %lld (%s, %zu configurations, %zu series)\n",
				       (long long)old[i], (long long)ss[i].id,
				       pcost_session_kind_name(ss[i].kind), ss[i].nconfigs,
				       ss[i].nseries);
		}
		free(old);
		pcost_db_close(db);
	}
	for (size_t i = 0; i < n; i++)
		pcost_session_release(&ss[i]);
	free(ss);
	return rc;
}
