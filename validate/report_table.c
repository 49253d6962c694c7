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

enum { T_KERNEL, T_EVENT, T_EXP, T_MEAS, T_RATIO, T_TOL, T_BG, T_SPREAD, T_N };

/* The cells of check k (of the header when k is NULL). */
static void cells(const struct vcheck *k, char cell[T_N][352])
{
	static const char *const head[T_N] = { "kernel", "event", "expected", "measured", "ratio",
					       "tolerance", "background", "spread" };
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
	/* The idle baseline subtracted and its spread (added to the
	 * tolerance), and --repeat's spread, in the check's unit. */
	if (k->bg_taken) {
		char a[64], b[64];
		num(a, sizeof(a), k->background, k->unit);
		num(b, sizeof(b), k->bg_spread, k->unit);
		snprintf(cell[T_BG], sizeof(cell[0]), "%s±%s", a, b);
	} else {
		snprintf(cell[T_BG], sizeof(cell[0]), "-");
	}
	num(cell[T_SPREAD], sizeof(cell[0]), k->spread, k->unit);
}

/* Columns shown: background only when some check has one, spread only
 * with --repeat. */
static int shown(const struct vctx *c, int j)
{
	if (j == T_SPREAD)
		return c->o.repeat > 1;
	if (j != T_BG)
		return 1;
	for (size_t i = 0; i < c->checks.n; i++)
		if (c->checks.v[i].bg_taken && (c->checks.v[i].background || c->checks.v[i].bg_spread))
			return 1;
	return 0;
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
	static const int minw[T_N] = { 22, 40, 14, 14, 7, 12, 12, 8 };
	static const int left[T_N] = { 1, 1, 0, 0, 0, 1, 0, 0 };
	char cell[T_N][352];
	int w[T_N], show[T_N];
	for (int j = 0; j < T_N; j++)
		show[j] = shown(c, j);

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
			if (show[j])
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
 * PMU's ("snb_ep::OFFCORE_RESPONSE_0...", "nhm::...") is core, another
 * uncore PMU's its catalogue box type ("nhm_unc::..." is nhm_unc). */
void report_box_type(const char *name, char *buf, size_t len)
{
	const char *sep = strstr(name, "::"), *p = name;
	char pmu[PMON_MAX_NAME];
	pmon_pmu_info_t pi;
	size_t n;
	if (!sep) {
		snprintf(buf, len, "?");
		return;
	}
	if (strncmp(name, "snbep_unc_", 10) != 0) {
		snprintf(pmu, sizeof(pmu), "%.*s", (int)(sep - name), name);
		int i = pmon_pmu_find(pmu);
		if (i >= 0 && pmon_pmu_get(i, &pi) == PMON_OK && !pi.per_cpu)
			snprintf(buf, len, "%s", pi.box_type);
		else
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
		report_box_type(name, bt, sizeof(bt));
		if (!strcmp(bt, t))
			return 1;
		p += n + (p[n] == ';');
	}
	return 0;
}

/* Each generation's box types, as report_box_type names them. */
static const char *const snbep_boxes[] = { "cbo", "ha", "imc", "qpi", "r2pcie", "r3qpi", "ubo", "pcu",
					   "core" };
static const char *const nhm_boxes[] = { "nhm_unc", "core" };
static const char *const wsm_boxes[] = { "wsm_unc", "core" };
static const struct {
	const char *const *types;
	int n;
} gen_boxes[] = {
	[VG_SNBEP] = { snbep_boxes, sizeof(snbep_boxes) / sizeof(snbep_boxes[0]) },
	[VG_NHMEP] = { nhm_boxes, sizeof(nhm_boxes) / sizeof(nhm_boxes[0]) },
	[VG_WSMEP] = { wsm_boxes, sizeof(wsm_boxes) / sizeof(wsm_boxes[0]) },
};

int report_box_types(const struct vctx *c, const char *const **types)
{
	int ng = (int)(sizeof(gen_boxes) / sizeof(gen_boxes[0]));
	int g = c->g.gen >= 0 && c->g.gen < ng ? c->g.gen : VG_SNBEP;
	*types = gen_boxes[g].types;
	return gen_boxes[g].n;
}

const char *report_box_unvalidated(const char *type)
{
	if (!strcmp(type, "r2pcie"))
		return "no kernel drives PCIe traffic (the suite's kernels move memory between cores, "
		       "sockets and DRAM only), so no R2PCIe count has an expected value";
	return NULL;
}

void report_box_count(const struct vctx *c, const char *type, size_t *n, size_t *pass, size_t *known)
{
	*n = *pass = *known = 0;
	for (size_t i = 0; i < c->checks.n; i++) {
		const struct vcheck *k = &c->checks.v[i];
		if (!uses_box(k, type))
			continue;
		++*n;
		*pass += k->pass;
		*known += !k->pass && k->known;
	}
}

void report_boxes(FILE *out, const struct vctx *c)
{
	const char *const *types;
	int nt = report_box_types(c, &types);
	for (int t = 0; t < nt; t++) {
		size_t n, pass, known;
		const char *why = report_box_unvalidated(types[t]);
		report_box_count(c, types[t], &n, &pass, &known);
		fprintf(out, "box %-7s %4zu checks, %4zu passed, %4zu failed, %4zu known", types[t],
			n, pass, n - pass - known, known);
		if (!n && why)
			fprintf(out, "  (not validated: %s)\n", why);
		else
			fprintf(out, "%s\n", n ? "" : "  (not validated by this run)");
	}
}

void report_baseline(FILE *out, const struct vctx *c)
{
	size_t sub = 0;
	for (size_t i = 0; i < c->checks.n; i++)
		sub += c->checks.v[i].bg_taken && c->checks.v[i].background != 0;
	if (c->o.idle_ms <= 0)
		fprintf(out, "idle baseline: none (--idle-ms=0)\n");
	else
		fprintf(out, "idle baseline: %d idle windows, %.2f s of machine time; background %s in "
			"%zu checks\n", c->idle_windows, c->idle_s,
			c->o.brk == VB_BASELINE ? "measured, NOT subtracted (--break=baseline)," : "subtracted",
			sub);
	if (c->o.repeat > 1)
		fprintf(out, "repeat: every window run %d times, the median checked, spread = largest - "
			"smallest\n", c->o.repeat);
}
