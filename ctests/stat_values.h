/*
 * stat_values.h - reading `pmon stat --json`'s values in the tests that run
 * the tool (test_stat, test_stat_nhm).
 */
#ifndef PMON_STAT_VALUES_H
#define PMON_STAT_VALUES_H

#include <math.h>
#include <string.h>

#include <jansson.h>

/* The value of name at socket in a JSON values array; NAN if absent, -1 if
 * null (no value: nothing behind it). */
static inline double stat_jvalue(json_t *vals, const char *name, int socket)
{
	size_t i;
	json_t *v;
	json_array_foreach(vals, i, v) {
		if (strcmp(json_string_value(json_object_get(v, "name")), name) ||
		    json_integer_value(json_object_get(v, "socket")) != socket)
			continue;
		json_t *x = json_object_get(v, "value");
		return json_is_null(x) ? -1 : json_number_value(x);
	}
	return NAN;
}

#endif
