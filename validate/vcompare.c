/*
 * vcompare.c - comparing two reports (vcompare.h).
 */
#include <math.h>
#include <string.h>

#include <jansson.h>

#include "vcompare.h"

static const char *str(json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));
	return s ? s : "";
}

/* The check's ratio (measured/expected), or measured/high for a check
 * that expects 0; NAN when absent. */
static double ratio(json_t *c)
{
	json_t *r = json_object_get(c, "ratio");
	if (json_is_number(r))
		return json_number_value(r);
	json_t *m = json_object_get(c, "measured"), *h = json_object_get(c, "high");
	if (json_is_number(m) && json_is_number(h) && json_number_value(h) > 0)
		return json_number_value(m) / json_number_value(h);
	return json_is_number(m) && json_number_value(m) == 0 ? 0 : NAN;
}

/* The check's spread as a ratio (spread / expected). */
static double spread(json_t *c)
{
	json_t *s = json_object_get(c, "spread"), *e = json_object_get(c, "expected");
	double ev = json_is_number(e) ? fabs(json_number_value(e)) : 0;
	if (!json_is_number(s) || json_number_value(s) <= 0)
		return 0;
	if (ev > 0)
		return json_number_value(s) / ev;
	json_t *h = json_object_get(c, "high");
	return json_is_number(h) && json_number_value(h) > 0 ? json_number_value(s) / json_number_value(h) : 0;
}

static json_t *find(json_t *checks, json_t *k)
{
	size_t i;
	json_t *c;
	json_array_foreach(checks, i, c)
		if (!strcmp(str(c, "kernel"), str(k, "kernel")) && !strcmp(str(c, "event"), str(k, "event")))
			return c;
	return NULL;
}

static json_t *load(const char *path)
{
	json_error_t err;
	json_t *j = json_load_file(path, 0, &err);
	if (!j)
		fprintf(stderr, "pmon-validate: --compare: %s:%d: %s\n", path, err.line, err.text);
	else if (!json_is_array(json_object_get(j, "checks"))) {
		fprintf(stderr, "pmon-validate: --compare: %s: not a pmon-validate report (no checks)\n", path);
		json_decref(j);
		j = NULL;
	}
	return j;
}

int vcompare(FILE *out, const char *a, const char *b)
{
	json_t *ja = load(a), *jb = ja ? load(b) : NULL;
	if (!ja || !jb) {
		json_decref(ja);
		return 2;
	}
	json_t *ca = json_object_get(ja, "checks"), *cb = json_object_get(jb, "checks"), *x;
	size_t i, both = 0, flipped = 0, moved = 0, only_a = 0, only_b = 0;
	json_array_foreach(ca, i, x) {
		json_t *y = find(cb, x);
		if (!y) {
			fprintf(out, "only in A: %s %s (%s)\n", str(x, "kernel"), str(x, "event"),
				str(x, "result"));
			only_a++;
			continue;
		}
		both++;
		double ra = ratio(x), rb = ratio(y);
		double sp = fmax(spread(x), spread(y));
		if (strcmp(str(x, "result"), str(y, "result"))) {
			fprintf(out, "flipped: %s %s: %s -> %s (ratio %.6g -> %.6g)\n", str(x, "kernel"),
				str(x, "event"), str(x, "result"), str(y, "result"), ra, rb);
			flipped++;
		} else if (isfinite(ra) != isfinite(rb) ||
			   (isfinite(ra) && fabs(rb - ra) > sp + 1e-12 * fmax(fabs(ra), 1))) {
			fprintf(out, "moved: %s %s: ratio %.6g -> %.6g (%+.3g%%, spread %.3g%%)\n",
				str(x, "kernel"), str(x, "event"), ra, rb,
				isfinite(ra) && ra != 0 ? 100 * (rb - ra) / ra : NAN, 100 * sp);
			moved++;
		}
	}
	json_array_foreach(cb, i, x)
		if (!find(ca, x)) {
			fprintf(out, "only in B: %s %s (%s)\n", str(x, "kernel"), str(x, "event"),
				str(x, "result"));
			only_b++;
		}
	fprintf(out, "compare: %zu checks in both: %zu flipped, %zu moved beyond their spread; %zu only "
		"in A, %zu only in B\n", both, flipped, moved, only_a, only_b);
	json_decref(ja);
	json_decref(jb);
	return flipped || moved || only_a || only_b ? 1 : 0;
}
