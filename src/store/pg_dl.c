// SPDX-License-Identifier: MIT
/*
 * pg_dl: libpq, loaded when a command first opens a PostgreSQL store
 * (core/dynlib.h: it and what it pulls in were 4.4 ms of every probecost
 * start, every workload run's included).  The store keeps calling libpq's own
 * names; they are defined here and forward to the loaded library.
 */
#include "store/pg_internal.h"

#include "core/dynlib.h"

static char no_text[] = "";

#define LIBPQ_FUNCS(F, V)                                                                          \
	F(PGconn *, PQconnectdbParams,                                                             \
	  (const char *const *keywords, const char *const *values, int expand_dbname),             \
	  (keywords, values, expand_dbname), NULL)                                                 \
	F(int, PQconnectionNeedsPassword, (const PGconn *conn), (conn), 0)                         \
	V(PQconninfoFree, (PQconninfoOption * opts), (opts))                                       \
	F(PQconninfoOption *, PQconninfoParse, (const char *conninfo, char **errmsg),              \
	  (conninfo, errmsg), NULL)                                                                \
	F(int, PQenterPipelineMode, (PGconn * conn), (conn), 0)                                    \
	F(char *, PQerrorMessage, (const PGconn *conn), (conn), no_text)                           \
	F(PGresult *, PQexec, (PGconn * conn, const char *query), (conn, query), NULL)             \
	F(PGresult *, PQexecParams,                                                                \
	  (PGconn * conn, const char *command, int n, const Oid *types, const char *const *values, \
	   const int *lengths, const int *formats, int result_format),                             \
	  (conn, command, n, types, values, lengths, formats, result_format), NULL)                \
	F(int, PQexitPipelineMode, (PGconn * conn), (conn), 0)                                     \
	V(PQfinish, (PGconn * conn), (conn))                                                       \
	V(PQfreemem, (void *ptr), (ptr))                                                           \
	F(PGresult *, PQgetResult, (PGconn * conn), (conn), NULL)                                  \
	F(int, PQgetisnull, (const PGresult *res, int row, int col), (res, row, col), 1)           \
	F(char *, PQgetvalue, (const PGresult *res, int row, int col), (res, row, col), no_text)   \
	F(int, PQntuples, (const PGresult *res), (res), 0)                                         \
	F(PGpipelineStatus, PQpipelineStatus, (const PGconn *conn), (conn), PQ_PIPELINE_OFF)       \
	F(int, PQpipelineSync, (PGconn * conn), (conn), 0)                                         \
	V(PQreset, (PGconn * conn), (conn))                                                        \
	F(char *, PQresultErrorField, (const PGresult *res, int field), (res, field), NULL)        \
	F(ExecStatusType, PQresultStatus, (const PGresult *res), (res), PGRES_FATAL_ERROR)         \
	F(int, PQsendQueryParams,                                                                  \
	  (PGconn * conn, const char *command, int n, const Oid *types, const char *const *values, \
	   const int *lengths, const int *formats, int result_format),                             \
	  (conn, command, n, types, values, lengths, formats, result_format), 0)                   \
	F(PQnoticeProcessor, PQsetNoticeProcessor,                                                 \
	  (PGconn * conn, PQnoticeProcessor proc, void *arg), (conn, proc, arg), NULL)             \
	F(ConnStatusType, PQstatus, (const PGconn *conn), (conn), CONNECTION_BAD)                  \
	F(unsigned char *, PQunescapeBytea, (const unsigned char *text, size_t *len), (text, len), \
	  NULL)                                                                                    \
	V(PQclear, (PGresult * res), (res))

PCOST_DL_LIBRARY(libpq, "libpq.so.5", "libpq5", LIBPQ_FUNCS)

const char *pcost_libpq_load(void)
{
	return dl_loaded() ? NULL : libpq.err;
}
