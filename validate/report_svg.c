/*
 * report_svg.c - the chart: one row per check, measured/expected on a
 * linear axis around 1, the tolerance band shaded behind the point, PASS
 * green, FAIL red and KNOWN orange.  Failures come first, then the checks
 * grouped by kernel and box (a heading line per group); the axis' labels
 * repeat every AXIS_EVERY lines and at the bottom, so a long page stays
 * readable.  A check whose expected value is 0 plots 1 + measured
 * (its unit: per hop, per line or lines) against the band [1, 1 + bound].
 * Points beyond the axis sit at its edge as a triangle, with the value.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define ROW 16
#define LABEL_W 500
#define PLOT_W 420
#define RES_W 60
#define TOP 64
#define XMIN 0.8
#define XMAX 1.2
#define AXIS_EVERY 40      /* tick labels again every so many lines */

double report_plot_ratio(const struct vcheck *k)
{
	if (k->tol_kind == VTOL_ABS)
		return 1 + k->measured;
	return vcheck_ratio(k);
}

static double xpos(double r)
{
	if (r < XMIN)
		r = XMIN;
	if (r > XMAX)
		r = XMAX;
	return LABEL_W + (r - XMIN) / (XMAX - XMIN) * PLOT_W;
}

static void esc(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

/* The order of the chart: failures first (FAIL, then KNOWN, then PASS),
 * then by kernel (in the run's order), then by the box of the check's first
 * event, then as run. */
struct row {
	size_t i;
	int rank, kernel;
	char box[16];
};

static int rank(const struct vcheck *k)
{
	return k->pass ? 2 : k->known ? 1 : 0;
}

static int row_cmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	if (x->rank != y->rank)
		return x->rank - y->rank;
	if (x->kernel != y->kernel)
		return x->kernel - y->kernel;
	int c = strcmp(x->box, y->box);
	if (c)
		return c;
	return x->i < y->i ? -1 : x->i > y->i;
}

static void first_box(const struct vcheck *k, char *buf, size_t len)
{
	char name[PMON_MAX_NAME];
	snprintf(name, sizeof(name), "%.*s", k->events ? (int)strcspn(k->events, ";") : 0,
		 k->events ? k->events : "");
	if (!name[0])
		snprintf(buf, len, "-");
	else
		report_box_type(name, buf, len);
}

/* Tick labels of the axis at y (repeated every AXIS_EVERY rows). */
static void axis_labels(FILE *f, double y)
{
	for (int t = 0; t <= 8; t++) {
		double r = XMIN + t * (XMAX - XMIN) / 8;
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#444\">%.2f</text>\n",
			xpos(r), y, r);
	}
}

int report_svg(const char *path, const struct vctx *c, char *why, size_t len)
{
	size_t n = c->checks.n, failed = vchecks_failed(&c->checks), known = vchecks_known(&c->checks);
	struct row *rows = calloc(n ? n : 1, sizeof(*rows));
	if (!rows) {
		snprintf(why, len, "chart: out of memory");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		const struct vcheck *k = &c->checks.v[i];
		rows[i].i = i;
		rows[i].rank = rank(k);
		rows[i].kernel = (int)i;
		for (size_t j = 0; j < i; j++)
			if (!strcmp(c->checks.v[j].kernel, k->kernel)) {
				rows[i].kernel = rows[j].kernel;
				break;
			}
		first_box(k, rows[i].box, sizeof(rows[i].box));
	}
	qsort(rows, n, sizeof(*rows), row_cmp);
	/* Lines: a group heading where the result, kernel or box changes, an
	 * axis line every AXIS_EVERY lines, and the checks. */
	size_t lines = 0;
	for (size_t r = 0; r < n; r++) {
		if (!r || rows[r].rank != rows[r - 1].rank || rows[r].kernel != rows[r - 1].kernel ||
		    strcmp(rows[r].box, rows[r - 1].box))
			lines++;
		lines++;
	}
	lines += lines / AXIS_EVERY;
	FILE *f = fopen(path, "w");
	if (!f) {
		free(rows);
		snprintf(why, len, "cannot write %s", path);
		return -1;
	}
	int w = LABEL_W + PLOT_W + RES_W + 20, h = TOP + (int)lines * ROW + 40;

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans Mono, monospace\" font-size=\"11\">\n",
		w, h, w, h);
	fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	fprintf(f, "<text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">pmon validate: "
		"measured / expected per check (%s backend) - %zu passed, %zu failed, %zu known</text>\n",
		pmon_machine_backend(c->m), n - failed - known, failed, known);
	fprintf(f, "<text x=\"10\" y=\"38\" fill=\"#555\">failures first, then by kernel and box; "
		"shaded: tolerance band; green dot PASS, red FAIL, orange KNOWN; checks expecting 0 plot "
		"1 + measured</text>\n");
	/* Grid over the whole height, labels at the top. */
	for (int t = 0; t <= 8; t++) {
		double x = xpos(XMIN + t * (XMAX - XMIN) / 8);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\"/>\n", x,
			TOP - 6, x, TOP + (int)lines * ROW, t == 4 ? "#444" : "#ddd");
	}
	axis_labels(f, TOP - 10);
	size_t line = 0;
	for (size_t r = 0; r < n; r++) {
		const struct vcheck *k = &c->checks.v[rows[r].i];
		if (!r || rows[r].rank != rows[r - 1].rank || rows[r].kernel != rows[r - 1].kernel ||
		    strcmp(rows[r].box, rows[r - 1].box)) {
			double y = TOP + (double)line++ * ROW;
			fprintf(f, "<text x=\"6\" y=\"%.1f\" font-weight=\"bold\" fill=\"#333\">", y + 12);
			esc(f, k->kernel);
			fprintf(f, " - %s - %s</text>\n", rows[r].box, vcheck_result(k));
			if (line % AXIS_EVERY == AXIS_EVERY - 1)
				axis_labels(f, TOP + (double)line++ * ROW + 12);
		}
		double y = TOP + (double)line++ * ROW;
		double lo = k->tol_kind == VTOL_ABS ? 1 : k->lo;
		double hi = k->tol_kind == VTOL_ABS ? 1 + k->hi : k->hi;
		double x0 = xpos(lo), x1 = xpos(hi), rr = report_plot_ratio(k);
		const char *col = k->pass ? "#1a9641" : k->known ? "#e08214" : "#d7191c";

		fprintf(f, "<g class=\"check\" data-kernel=\"");
		esc(f, k->kernel);
		fprintf(f, "\" data-box=\"%s\" data-result=\"%s\">\n", rows[r].box, vcheck_result(k));
		if (line % 2)
			fprintf(f, "<rect x=\"0\" y=\"%.1f\" width=\"%d\" height=\"%d\" fill=\"#f6f6f6\"/>\n",
				y, w, ROW);
		fprintf(f, "<text x=\"18\" y=\"%.1f\">", y + 12);
		esc(f, k->event);
		fputs("</text>\n", f);
		if (x1 - x0 < 2) {
			x0 -= 1;
			x1 = x0 + 2;
		}
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"%s\" "
			"fill-opacity=\"0.35\"/>\n", x0, y + 2, x1 - x0, ROW - 4,
			k->pass ? "#a6d96a" : "#fdae61");
		double x = xpos(isfinite(rr) ? rr : XMAX);
		if (!isfinite(rr) || rr < XMIN || rr > XMAX) {
			int right = !isfinite(rr) || rr > XMAX;
			fprintf(f, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\" fill=\"%s\"/>\n",
				x + (right ? 6 : -6), y + 8, x, y + 3, x, y + 13, col);
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" fill=\"%s\">%.3g</text>\n",
				x + (right ? -4 : 4), y + 12, right ? "end" : "start", col, rr);
		} else {
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>\n", x, y + 8, col);
		}
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" fill=\"%s\" font-weight=\"bold\">%s</text>\n</g>\n",
			LABEL_W + PLOT_W + 12, y + 12, col, vcheck_result(k));
		if (line % AXIS_EVERY == AXIS_EVERY - 1)
			axis_labels(f, TOP + (double)line++ * ROW + 12);
	}
	axis_labels(f, TOP + (double)line * ROW + 12);
	fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#555\">measured / expected</text>\n",
		xpos(1), TOP + (int)line * ROW + 28);
	fputs("</svg>\n", f);
	free(rows);
	if (fclose(f) != 0) {
		snprintf(why, len, "error writing %s", path);
		return -1;
	}
	return 0;
}
