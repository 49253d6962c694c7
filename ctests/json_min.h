/*
 * json_min.h - a minimal JSON reader for Intel's perfmon event files.
 *
 * Those files are an object {"Header": {...}, "Events": [ {...}, ... ]} (or
 * a bare array of objects) whose event objects hold only string values.
 * json_load() reads the array of the given key (or the top-level array) into
 * records of key/value strings; nested objects or arrays inside a record, and
 * the Header, are skipped.  String escapes \" \\ \/ \n \t \uXXXX (ASCII) are
 * decoded; numbers, true, false and null are kept as their text.
 */
#ifndef PMON_CTESTS_JSON_MIN_H
#define PMON_CTESTS_JSON_MIN_H

#include <stddef.h>

struct json_kv {
	char *key;
	char *val;
};

struct json_rec {
	struct json_kv *kv;
	int nkv;
};

struct json_doc {
	struct json_rec *recs;
	int nrecs;
};

/* Load the array under key (NULL: the top-level value must be the array).
 * Returns 0, or -1 with a message in err (file missing, syntax error). */
int json_load(const char *path, const char *key, struct json_doc *doc, char *err, size_t errlen);
void json_free(struct json_doc *doc);

/* The value of key in a record, or NULL. */
const char *json_get(const struct json_rec *r, const char *key);

#endif
