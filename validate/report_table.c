/*
 * report_table.c - the table of checks on stdout.  Every column is as wide
 * as its widest cell (at least its usual width), so large values keep the
 * columns aligned.
 */
#include <math.h>
#include <string.h>

#include "report.h"

static void num(char *buf, size_t len, double v, const char *unit)
{
	if (strcmp(unit, "per hop") == 0 || strcmp(unit, "per line") == 0 || fabs(v) < 100)
		snprintf(buf, len, "%.4f", v);
	else
		snprintf(buf, len, "%.0f", v);
}

enum { T_KERNEL, T_EVENT, T_EXP, T_MEAS, T_RATIO, T_TOL, T_N };

/* The cells of check k (of the header when k is NULL). */
static void cells(const struct vcheck *k, char cell[T_N][352])
{
	static const char *const head[T_N] = { "kernel", "event", "expected", "measured", "ratio",
					       "tolerance" };
	if (!k) {
		for (int i = 0; i < T_N; i++)
			snprintf(cell[i], sizeof(cell[i]), "%s", head[i]);
		return;
	}
	double ratio = vcheck_ratio(k);
	snprintf(cell[T_KERNEL], sizeof(cell[0]), "%s", k->kernel);
	snprintf(cell[T_EVENT], sizeof(cell[0]), "%s", k->event);
	if (k->tol_kind == VTOL_ABS)
		snprintf(cell[T_EXP], sizeof(cell[0]), "0");
	else
		num(cell[T_EXP], sizeof(cell[0]), k->expected, k->unit);
	num(cell[T_MEAS], sizeof(cell[0]), k->measured, k->unit);
	if (isfinite(ratio))
		snprintf(cell[T_RATIO], sizeof(cell[0]), "%.4f", ratio);
	else
		snprintf(cell[T_RATIO], sizeof(cell[0]), "-");
	vcheck_tol_text(k, cell[T_TOL], sizeof(cell[0]));
}

/* Display width: UTF-8 continuation bytes (the ± of a tolerance) take no
 * column. */
static int width(const char *s)
{
	int w = 0;
	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

/* s in a field of w columns, left- or right-aligned. */
static void field(FILE *out, const char *s, int w, int left)
{
	int pad = w - width(s);
	if (!left)
		fprintf(out, "%*s", pad > 0 ? pad : 0, "");
	fputs(s, out);
	if (left)
		fprintf(out, "%*s", pad > 0 ? pad : 0, "");
	fputc(' ', out);
}

void report_table(FILE *out, const struct vctx *c)
{
	static const int minw[T_N] = { 22, 40, 14, 14, 7, 12 };
	static const int left[T_N] = { 1, 1, 0, 0, 0, 1 };
	char cell[T_N][352];
	int w[T_N];

	memcpy(w, minw, sizeof(w));
	for (size_t i = 0; i < c->checks.n; i++) {
		cells(&c->checks.v[i], cell);
		for (int j = 0; j < T_N; j++)
			if (width(cell[j]) > w[j])
				w[j] = width(cell[j]);
	}
	for (size_t i = 0; i <= c->checks.n; i++) {
		const struct vcheck *k = i ? &c->checks.v[i - 1] : NULL;
		cells(k, cell);
		for (int j = 0; j < T_N; j++)
			field(out, cell[j], w[j], left[j]);
		if (!k)
			fprintf(out, "result\n");
		else if (k->known)
			fprintf(out, "KNOWN (%s)%s\n", k->known, k->broken ? " (broken on purpose)" : "");
		else
			fprintf(out, "%s%s%s\n", k->pass ? "PASS" : "FAIL",
				k->refused ? " (event not counted)" : "",
				k->broken ? " (broken on purpose)" : "");
	}
}

void report_refused(FILE *out, const struct vctx *c)
{
	for (size_t i = 0; i < c->checks.n; i++) {
		const char *r = c->checks.v[i].refused;
		size_t n = 0, j;
		if (!r)
			continue;
		for (j = 0; j < i && !(c->checks.v[j].refused && !strcmp(c->checks.v[j].refused, r)); j++)
			;
		if (j < i)
			continue;
		for (j = i; j < c->checks.n; j++)
			n += c->checks.v[j].refused && !strcmp(c->checks.v[j].refused, r);
		fprintf(out, "FAIL (%zu check%s): not counted: %s\n", n, n > 1 ? "s" : "", r);
	}
}

/* The box type of an event name: "snbep_unc_imc0::..." is imc, a core
 * PMU's ("snb_ep::OFFCORE_RESPONSE_0...") is core. */
static void box_type(const char *name, char *buf, size_t len)
{
	const char *sep = strstr(name, "::"), *p = name;
	size_t n;
	if (!sep) {
		snprintf(buf, len, "?");
		return;
	}
	if (strncmp(name, "snbep_unc_", 10) != 0) {
		snprintf(buf, len, "core");
		return;
	}
	p = name + 10;
	n = (size_t)(sep - p);
	while (n > 0 && p[n - 1] >= '0' && p[n - 1] <= '9')
		n--;
	snprintf(buf, len, "%.*s", (int)n, p);
}

/* Does check k count an event of box type t? */
static int uses_box(const struct vcheck *k, const char *t)
{
	char name[PMON_MAX_NAME], bt[32];
	for (const char *p = k->events; p && *p;) {
		size_t n = strcspn(p, ";");
		snprintf(name, sizeof(name), "%.*s", (int)n, p);
		box_type(name, bt, sizeof(bt));
		if (!strcmp(bt, t))
			return 1;
		p += n + (p[n] == ';');
	}
	return 0;
}

void report_boxes(FILE *out, const struct vctx *c)
{
	static const char *const types[] = { "cbo", "ha", "imc", "qpi", "r2pcie", "r3qpi", "ubo",
					     "pcu", "core" };
	for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
		size_t n = 0, pass = 0, known = 0;
		for (size_t i = 0; i < c->checks.n; i++) {
			const struct vcheck *k = &c->checks.v[i];
			if (!uses_box(k, types[t]))
				continue;
			n++;
			pass += k->pass;
			known += !k->pass && k->known;
		}
		fprintf(out, "box %-7s %4zu checks, %4zu passed, %4zu failed, %4zu known%s\n", types[t], n,
			pass, n - pass - known, known, n ? "" : "  (not validated by this run)");
	}
}
