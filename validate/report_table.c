/*
 * report_table.c - the table of checks on stdout.
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

void report_table(FILE *out, const struct vctx *c)
{
	fprintf(out, "%-22s %-40s %14s %14s %7s %-12s %s\n", "kernel", "event", "expected",
		"measured", "ratio", "tolerance", "result");
	for (size_t i = 0; i < c->checks.n; i++) {
		const struct vcheck *k = &c->checks.v[i];
		char e[32], m[32], r[16], t[32];
		double ratio = vcheck_ratio(k);

		if (k->tol_kind == VTOL_ABS)
			snprintf(e, sizeof(e), "0");
		else
			num(e, sizeof(e), k->expected, k->unit);
		num(m, sizeof(m), k->measured, k->unit);
		if (isfinite(ratio))
			snprintf(r, sizeof(r), "%.4f", ratio);
		else
			snprintf(r, sizeof(r), "-");
		vcheck_tol_text(k, t, sizeof(t));
		fprintf(out, "%-22s %-40s %14s %14s %7s %-12s %s%s\n", k->kernel, k->event, e, m, r, t,
			k->pass ? "PASS" : "FAIL", k->broken ? " (broken on purpose)" : "");
	}
}
