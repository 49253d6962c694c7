/*
 * report_svg.c - the chart: one row per check, measured/expected on a
 * linear axis around 1, the tolerance band shaded behind the point, PASS
 * green and FAIL red.  A check whose expected value is 0 plots 1 + measured
 * (its unit: per hop, per line or lines) against the band [1, 1 + bound].
 * Points beyond the axis sit at its edge as a triangle, with the value.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

#define ROW 16
#define LABEL_W 500
#define PLOT_W 420
#define RES_W 60
#define TOP 64
#define XMIN 0.8
#define XMAX 1.2

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

int report_svg(const char *path, const struct vctx *c, char *why, size_t len)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		snprintf(why, len, "cannot write %s", path);
		return -1;
	}
	size_t n = c->checks.n, failed = vchecks_failed(&c->checks);
	int w = LABEL_W + PLOT_W + RES_W + 20, h = TOP + (int)n * ROW + 40;

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans Mono, monospace\" font-size=\"11\">\n",
		w, h, w, h);
	fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	fprintf(f, "<text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">pmon validate: "
		"measured / expected per check (%s backend) - %zu passed, %zu failed</text>\n",
		pmon_machine_backend(c->m), n - failed, failed);
	fprintf(f, "<text x=\"10\" y=\"38\" fill=\"#555\">shaded: tolerance band; "
		"green dot PASS, red dot FAIL; checks expecting 0 plot 1 + measured</text>\n");
	/* Axis and grid. */
	for (int t = 0; t <= 8; t++) {
		double r = XMIN + t * (XMAX - XMIN) / 8;
		double x = xpos(r);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\"/>\n", x,
			TOP - 6, x, TOP + (int)n * ROW, t == 4 ? "#444" : "#ddd");
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.2f</text>\n", x, TOP - 10, r);
	}
	for (size_t i = 0; i < n; i++) {
		const struct vcheck *k = &c->checks.v[i];
		double y = TOP + (double)i * ROW;
		double lo = k->tol_kind == VTOL_ABS ? 1 : k->lo;
		double hi = k->tol_kind == VTOL_ABS ? 1 + k->hi : k->hi;
		double x0 = xpos(lo), x1 = xpos(hi), r = report_plot_ratio(k);
		const char *col = k->pass ? "#1a9641" : "#d7191c";

		if (i % 2)
			fprintf(f, "<rect x=\"0\" y=\"%.1f\" width=\"%d\" height=\"%d\" fill=\"#f6f6f6\"/>\n",
				y, w, ROW);
		fprintf(f, "<text x=\"6\" y=\"%.1f\">", y + 12);
		esc(f, k->kernel);
		fputs("</text>\n", f);
		fprintf(f, "<text x=\"178\" y=\"%.1f\">", y + 12);
		esc(f, k->event);
		fputs("</text>\n", f);
		if (x1 - x0 < 2) {
			x0 -= 1;
			x1 = x0 + 2;
		}
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"%s\" "
			"fill-opacity=\"0.35\"/>\n", x0, y + 2, x1 - x0, ROW - 4,
			k->pass ? "#a6d96a" : "#fdae61");
		double x = xpos(isfinite(r) ? r : XMAX);
		if (!isfinite(r) || r < XMIN || r > XMAX) {
			int right = !isfinite(r) || r > XMAX;
			fprintf(f, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\" fill=\"%s\"/>\n",
				x + (right ? 6 : -6), y + 8, x, y + 3, x, y + 13, col);
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" fill=\"%s\">%.3g</text>\n",
				x + (right ? -4 : 4), y + 12, right ? "end" : "start", col, r);
		} else {
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>\n", x, y + 8, col);
		}
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" fill=\"%s\" font-weight=\"bold\">%s</text>\n",
			LABEL_W + PLOT_W + 12, y + 12, col, k->pass ? "PASS" : "FAIL");
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#555\">measured / expected</text>\n",
		xpos(1), TOP + (int)n * ROW + 24);
	fputs("</svg>\n", f);
	if (fclose(f) != 0) {
		snprintf(why, len, "error writing %s", path);
		return -1;
	}
	return 0;
}
