/* SPDX-License-Identifier: MIT */
/*
 * columns: each stored table described once, for the files of src/store/ only.
 * A table is a list of columns: its SQL name and type, the C field (or a hook
 * that computes it), its key in the JSON export, the rule of NULL / null and
 * the range an import takes.  The SQLite writer and reader (write.c, read.c,
 * costs_sqlite.c), the PostgreSQL ones (pg_rows.c, costs_pg.c) and the JSON
 * export and import (session_json.c, costs_json.c) walk these lists; what a
 * row has besides its columns (its keys, an array of samples, a blob of
 * timings) stays with the code of that table.
 *
 * The CREATE TABLE text is not made from here: a store's schema is its
 * history of migrations (db.c, pg.c).  test_store_columns checks that a new
 * store's columns are these, with these types and NOT NULLs, in both backends.
 *
 * A column's value travels through struct pcost_val: NULL, an integer, a real
 * or a text.  pcost_col_get() makes it from the C field by the column's rules;
 * pcost_col_set() puts one back.  A backend converts values to and from its
 * own representation by the column's SQL type only.
 */
#ifndef PCOST_STORE_COLUMNS_H
#define PCOST_STORE_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Caps an import takes, each far above anything probecost measures. */
#define PCOST_MAX_EXACT_INT 9007199254740992.0 /* 2^53: a JSON number holds it exactly */
#define PCOST_MAX_NAME_LEN 256		       /* workload, monitor, unit, interface... */
#define PCOST_MAX_TEXT_LEN 65536	       /* events, note */
#define PCOST_MAX_ARGV_LEN (8u << 20)	       /* cmdline, workload_args: a whole argv, quoted */
#define PCOST_MAX_COST_TEXT (4096 + 1)	       /* a cost table's texts (with the NUL) */

/* How the C field is held. */
enum pcost_col_c {
	PCOST_C_TEXT,  /* char *, malloc'd; NULL is NULL */
	PCOST_C_CHARS, /* char[size], NUL-terminated (a longer value is cut) */
	PCOST_C_BOOL,  /* bool */
	PCOST_C_INT,   /* a signed integer of size bytes */
	PCOST_C_UINT,  /* an unsigned one; 64 bits keep their bit pattern in SQL's int64 */
	PCOST_C_REAL,  /* double */
	PCOST_C_TRI,   /* int8_t: 1 yes, -1 no, 0 not known (NULL, and absent from JSON) */
	PCOST_C_HOOK,  /* hook->get and hook->set make and take the value */
};

/* The column's SQL type: SQLite's declared type / PostgreSQL's. */
enum pcost_sql_type {
	PCOST_SQL_BIGINT, /* INTEGER / bigint */
	PCOST_SQL_INT,	  /* INTEGER / integer */
	PCOST_SQL_BOOL,	  /* INTEGER 0 or 1 / boolean; true or false in JSON */
	PCOST_SQL_REAL,	  /* REAL / double precision */
	PCOST_SQL_TEXT,	  /* TEXT / text */
};

/* How the value is written in JSON, where not as its SQL value. */
enum pcost_json_form {
	PCOST_JSON_PLAIN,   /* null, a number (exact), true/false (BOOL), a string */
	PCOST_JSON_DECIMAL, /* an unsigned 64-bit integer as a decimal string (a double loses it) */
	PCOST_JSON_OBJECT,  /* a text holding a JSON object, as the object (a text that is not
			     * one stays a string); read back as compact text */
	PCOST_JSON_HOOK,    /* hook->get_json / set_json: the value a word, null */
};

/*
 * Flags of a column: its rule of NULL (SQL) and null (JSON), and where it goes.
 *   NOT_NULL    SQL: NOT NULL (a TEXT without it is NULL where the pointer is)
 *   EMPTY_NULL  CHARS: "" is NULL
 *   NAN_NULL    REAL: a value not finite (not measured) is NULL
 *   ZERO_NULL   INT: 0 (none) is NULL
 *   JSON_OPT    JSON: absent where NULL (and where 0, with JSON_ZERO); an import
 *               reads absent or null as not recorded
 *   JSON_STRICT JSON: never null (a TEXT that SQL lets be NULL, a word)
 *   WRITE_ONLY  SQL: written, never read back (a value computed when written)
 *   ROWID       SQL: the row's id, the store's to give: SQLite assigns it,
 *               PostgreSQL's INSERT of a session names it; never selected
 */
#define PCOST_COL_NOT_NULL (1u << 0)
#define PCOST_COL_EMPTY_NULL (1u << 1)
#define PCOST_COL_NAN_NULL (1u << 2)
#define PCOST_COL_ZERO_NULL (1u << 3)
#define PCOST_COL_JSON_OPT (1u << 4)
#define PCOST_COL_JSON_ZERO (1u << 5)
#define PCOST_COL_JSON_STRICT (1u << 6)
#define PCOST_COL_WRITE_ONLY (1u << 7)
#define PCOST_COL_ROWID (1u << 8)

/* A column's value: what crosses between the C field and a backend. */
struct pcost_val {
	enum { PCOST_VAL_NULL, PCOST_VAL_INT, PCOST_VAL_REAL, PCOST_VAL_TEXT } t;
	int64_t i;     /* INT: SQL's integer (a uint64's bit pattern) */
	double r;      /* REAL; INT: the C value as a number (a uint64 unsigned), for JSON */
	const char *s; /* TEXT */
	char *own;     /* TEXT a hook allocated: free it after use (pcost_val_release) */
};

/* What a computed column does (C_HOOK, JSON_HOOK); NULL members: as the plain rule. */
struct pcost_col_hook {
	void (*get)(const void *rec, struct pcost_val *v);
	/* -1: not a value the field takes (an unknown word); the field is then its default */
	int (*set)(void *rec, const struct pcost_val *v);
	/* The JSON value (JSON_HOOK), and back from a string or null. */
	void (*get_json)(const void *rec, struct pcost_val *v);
	int (*set_json)(void *rec, const struct pcost_val *v);
};

struct pcost_column {
	const char *sql;  /* SQL column; NULL: JSON only */
	const char *json; /* JSON key; NULL: SQL only */
	enum pcost_sql_type type;
	enum pcost_col_c c;
	enum pcost_json_form form;
	size_t off, size; /* the field: offsetof, sizeof */
	size_t has;	  /* 1 + offsetof the bool saying the field was recorded; 0: always */
	unsigned flags;
	double lo, hi;	  /* import: the range of a number; hi: the longest text (bytes, NUL in) */
	const char *bad;  /* import: what a value the hook refused is not */
	const char *dflt; /* SQL: what a NULL TEXT is written as (a NOT NULL column) */
	const struct pcost_col_hook *hook;
};

struct pcost_table {
	const char *name; /* SQL table */
	const char *keys; /* the key columns every INSERT names first ("session_id, idx") */
	size_t nkeys;
	const struct pcost_column *col;
	size_t n;
};

/* The stored tables (columns.c); rows of struct: */
extern const struct pcost_table pcost_session_cols;    /* pcost_session */
extern const struct pcost_table pcost_config_cols;     /* pcost_config */
extern const struct pcost_table pcost_sample_cols;     /* pcost_run_sample (run_sample) */
extern const struct pcost_table pcost_series_cols;     /* pcost_counter_series */
extern const struct pcost_table pcost_metric_cols;     /* pcost_session_metric (metric) */
extern const struct pcost_table pcost_cost_table_cols; /* pcost_cost_table */
extern const struct pcost_table pcost_cost_entry_cols; /* pcost_cost_entry */

#define pcost_for_each_col(c, t)                                                                   \
	for (const struct pcost_column *c = (t)->col; c < (t)->col + (t)->n; c++)

/* The column's value in rec by its rules (NULL where it says). */
void pcost_col_get(const struct pcost_column *c, const void *rec, struct pcost_val *v);
/* Put v into rec's field (and its has flag); -1 where a hook refused it. */
int pcost_col_set(const struct pcost_column *c, void *rec, const struct pcost_val *v);
/* The value JSON writes (JSON_HOOK's get_json, else pcost_col_get). */
void pcost_col_get_json(const struct pcost_column *c, const void *rec, struct pcost_val *v);
int pcost_col_set_json(const struct pcost_column *c, void *rec, const struct pcost_val *v);
void pcost_val_release(struct pcost_val *v);
/* Whether the column is in SQL's INSERT (every one but SQLite's row id). */
bool pcost_col_inserted(const struct pcost_column *c, bool with_rowid);
/* Whether a SELECT reads it back. */
bool pcost_col_selected(const struct pcost_column *c);

/*
 * "<verb> INTO name (keys, columns, extra) VALUES (?,...)", with $1... where
 * dollar (PostgreSQL); the row id among the columns where rowid, and nextra
 * more columns a hand-written hook binds after them.  Caller frees.
 */
char *pcost_sql_insert(const struct pcost_table *t, const char *verb, bool dollar, bool rowid,
		       const char *extra, size_t nextra);
/*
 * "SELECT lead, columns" and tail (" FROM ..."): the columns read back, after
 * lead (may be NULL); caller frees.
 */
char *pcost_sql_select(const struct pcost_table *t, const char *lead, const char *tail);
/* How many columns such a SELECT reads back (after its lead). */
size_t pcost_sql_nselected(const struct pcost_table *t);
/* Where column sql comes among the columns a SELECT reads back (after its lead); -1 none. */
int pcost_sql_position(const struct pcost_table *t, const char *sql);
/*
 * rec's columns of t as members of o, in the order of t: JSON_OPT ones left
 * out where not recorded (session_json.c).
 */
struct cJSON;
void pcost_json_add_cols(struct cJSON *o, const struct pcost_table *t, const void *rec);

/* The declared type SQLite's / PostgreSQL's schema gives the column. */
const char *pcost_sql_type_name(const struct pcost_column *c, bool pg);

#endif
