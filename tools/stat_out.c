#define _GNU_SOURCE
/*
 * stat_out.c - what `pmon stat` prints: text (perf stat's layout), CSV
 * (-x SEP), one JSON document (--json) and an SVG timeline (--svg), from the
 * metric set's values; and `pmon list --metrics`.
 *
 * A row is one item (metric or raw event) at one scope: the machine (-a), a
 * socket (the default) or a box (--per-box, where the metric has per-box
 * values; per-socket metrics stay per socket).  A value counted part of the
 * time (several passes taking turns) is an estimate and says its share,
 * "(50.00%)"; a value that cannot be computed (no request to average over)
 * is "n/a" (null in JSON).
 */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "stat.h"

static const char *const scope_names[] = { "box", "socket", "machine" };

/* A row's scope: socket -1 = machine, pmu -1 = the socket. */
struct row {
	int item, socket, pmu;
};

typedef void (*row_fn)(struct stat_ctx *c, int what, const struct row *r, void *arg);

/* Every row of the current aggregation, in item order. */
static void each_row(struct stat_ctx *c, int what, row_fn fn, void *arg)
{
	for (int i = 0; i < pmon_mset_item_count(c->set); i++) {
		pmon_mset_item_t it;
		pmon_mset_item_get(c->set, i, &it);
		if (c->o->aggr == AGGR_MACHINE) {
			fn(c, what, &(struct row){ i, -1, -1 }, arg);
			continue;
		}
		for (int s = 0; s < c->nsock; s++) {
			double v;
			if (c->o->aggr == AGGR_BOX && it.scope == PMON_METRIC_BOX) {
				for (int p = 0; p < pmon_pmu_count(); p++) {
					pmon_pmu_info_t pi;
					pmon_pmu_get(p, &pi);
					if (it.box_type && !strcmp(pi.box_type, it.box_type) &&
					    pmon_mset_value(c->set, what, i, s, p, &v, NULL) != PMON_ENODEV)
						fn(c, what, &(struct row){ i, s, p }, arg);
				}
			} else if (pmon_mset_value(c->set, what, i, s, -1, &v, NULL) != PMON_ENODEV) {
				fn(c, what, &(struct row){ i, s, -1 }, arg);
			}
		}
	}
}

static void scope_label(const struct row *r, char *buf, size_t len)
{
	pmon_pmu_info_t pi;
	if (r->socket < 0)
		snprintf(buf, len, "all");
	else if (r->pmu >= 0 && !pmon_pmu_get(r->pmu, &pi))
		snprintf(buf, len, "S%d/%s", r->socket, pi.name);
	else
		snprintf(buf, len, "S%d", r->socket);
}

/* The value as text in the unit's precision; "n/a" when there is none. */
static void value_text(int rc, double v, const char *unit, char *buf, size_t len)
{
	if (rc)
		snprintf(buf, len, "n/a");
	else if (!strcmp(unit, "count") || !strcmp(unit, "bytes"))
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.3f", v);
}

struct text_arg {
	double t;
	int interval;
};

static void text_row(struct stat_ctx *c, int what, const struct row *r, void *arg)
{
	const struct text_arg *ta = arg;
	pmon_mset_item_t it;
	double v, share = 1;
	char scope[96], val[64], pct[32] = "";
	pmon_mset_item_get(c->set, r->item, &it);
	int rc = pmon_mset_value(c->set, what, r->item, r->socket, r->pmu, &v, &share);
	scope_label(r, scope, sizeof(scope));
	value_text(rc, v, it.unit, val, sizeof(val));
	if (share < 1)
		snprintf(pct, sizeof(pct), "  (%.2f%%)", share * 100);
	if (c->o->sep) {
		const char *x = c->o->sep;
		if (ta->interval)
			fprintf(c->out, "%.6f%s", ta->t, x);
		fprintf(c->out, "%s%s%s%s", scope, x, it.name, x);
		if (rc)
			fprintf(c->out, "n/a");
		else
			fprintf(c->out, "%.9g", v);
		fprintf(c->out, "%s%s%s%.2f\n", x, it.unit, x, share * 100);
		return;
	}
	if (ta->interval)
		fprintf(c->out, "%12.6f  ", ta->t);
	/* the unit padded only when a share follows: no trailing blank */
	/* no value, no unit: "n/a", not "n/a ns" */
	if (rc && !pct[0])
		fprintf(c->out, "  %-22s %-30s %16s\n", scope, it.name, val);
	else
		fprintf(c->out, pct[0] ? "  %-22s %-30s %16s %-5s%s\n" : "  %-22s %-30s %16s %s%s\n",
			scope, it.name, val, it.unit, pct);
}

static json_t *row_json(struct stat_ctx *c, int what, const struct row *r)
{
	pmon_mset_item_t it;
	pmon_pmu_info_t pi;
	double v, share = 1;
	pmon_mset_item_get(c->set, r->item, &it);
	int rc = pmon_mset_value(c->set, what, r->item, r->socket, r->pmu, &v, &share);
	json_t *o = json_pack("{s:s, s:s, s:o, s:s, s:f, s:b}", "name", it.name, "scope",
			      r->socket < 0 ? "machine" : r->pmu >= 0 ? "box" : "socket", "value",
			      rc ? json_null() : json_real(v), "unit", it.unit, "counted", share,
			      "estimate", share < 1);
	if (o && r->socket >= 0)
		json_object_set_new(o, "socket", json_integer(r->socket));
	if (o && r->pmu >= 0 && !pmon_pmu_get(r->pmu, &pi))
		json_object_set_new(o, "box", json_string(pi.name));
	return o;
}

static void json_row(struct stat_ctx *c, int what, const struct row *r, void *arg)
{
	json_array_append_new((json_t *)arg, row_json(c, what, r));
}

/* The SVG's sample: each item's value per socket (NaN-free: n/a is -1). */
static void svg_sample(struct stat_ctx *c, double t)
{
	int ni = pmon_mset_item_count(c->set), per = ni * c->nsock;
	if (c->nsamples == c->cap) {
		int cap = c->cap ? c->cap * 2 : 64;
		double *tt = realloc(c->svg_t, sizeof(double) * (size_t)cap);
		if (!tt)
			return;
		c->svg_t = tt;
		double *vv = realloc(c->svg_v, sizeof(double) * (size_t)cap * (size_t)per);
		if (!vv)
			return;
		c->svg_v = vv;
		c->cap = cap;
	}
	c->svg_t[c->nsamples] = t;
	for (int i = 0; i < ni; i++)
		for (int s = 0; s < c->nsock; s++) {
			double v;
			int rc = pmon_mset_value(c->set, PMON_MSET_INTERVAL, i, s, -1, &v, NULL);
			c->svg_v[(size_t)c->nsamples * (size_t)per + (size_t)(i * c->nsock + s)] = rc ? -1 : v;
		}
	c->nsamples++;
}

int stat_out_begin(struct stat_ctx *c)
{
	if (c->o->json) {
		json_t *cmd = json_array();
		for (char **a = c->o->cmd; *a; a++)
			json_array_append_new(cmd, json_string(*a));
		c->doc = json_pack("{s:s, s:s, s:o, s:s}", "version", PMON_VERSION_STRING, "backend",
				   pmon_machine_backend(c->m), "command", cmd, "aggregation",
				   c->o->aggr == AGGR_MACHINE ? "machine" : c->o->aggr == AGGR_BOX ? "box" : "socket");
		if (!c->doc) {
			fprintf(stderr, "pmon stat: out of memory\n");
			return 1;
		}
		if (c->o->interval_ms)
			json_object_set_new(c->doc, "intervals", c->intervals = json_array());
	}
	int np = pmon_mset_npasses(c->set);
	if (np > 1 && !c->o->json && !c->o->sep)
		fprintf(stderr, "pmon stat: %d passes take turns: the values are estimates, their share "
			"of the time in parentheses\n", np);
	return 0;
}

void stat_out_interval(struct stat_ctx *c)
{
	double dt = pmon_mset_seconds(c->set, PMON_MSET_INTERVAL);
	c->mtime += dt;
	if (c->o->svg_path)
		svg_sample(c, c->mtime);
	if (!c->o->interval_ms)
		return;
	if (c->o->json) {
		json_t *vals = json_array();
		each_row(c, PMON_MSET_INTERVAL, json_row, vals);
		json_array_append_new(c->intervals, json_pack("{s:f, s:f, s:o}", "time", c->mtime,
							      "seconds", dt, "values", vals));
		return;
	}
	struct text_arg ta = { c->mtime, 1 };
	each_row(c, PMON_MSET_INTERVAL, text_row, &ta);
	fflush(c->out);
}

static void quote_cmd(struct stat_ctx *c, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = 0;
	for (char **a = c->o->cmd; *a && n < len; a++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", a == c->o->cmd ? "" : " ", *a);
}

static void status_text(const struct stat_status *st, char *buf, size_t len)
{
	if (st->signaled)
		snprintf(buf, len, "killed by signal %d (%s)", st->sig, strsignal(st->sig));
	else if (st->exited)
		snprintf(buf, len, "exited with status %d", st->code);
	else
		snprintf(buf, len, "still running");
}

static int write_svg(struct stat_ctx *c);

int stat_out_end(struct stat_ctx *c, const struct stat_status *st)
{
	double mt = pmon_mset_seconds(c->set, PMON_MSET_TOTAL);
	int emu = !strcmp(pmon_machine_backend(c->m), "sim"), rc = 0;
	char cmd[512], stx[96];
	quote_cmd(c, cmd, sizeof(cmd));
	status_text(st, stx, sizeof(stx));
	if (c->o->svg_path)
		rc = write_svg(c);
	if (c->o->json) {
		json_t *vals = json_array(), *status = json_pack("{s:b, s:b}", "exited", st->exited,
								  "interrupted", st->interrupted);
		each_row(c, PMON_MSET_TOTAL, json_row, vals);
		if (st->exited)
			json_object_set_new(status, "code", json_integer(st->code));
		if (st->signaled)
			json_object_set_new(status, "signal", json_integer(st->sig));
		json_object_set_new(c->doc, "machine_seconds", json_real(mt));
		json_object_set_new(c->doc, "emulated_time", json_boolean(emu));
		json_object_set_new(c->doc, "wall_seconds", json_real(st->wall));
		json_object_set_new(c->doc, "passes", json_integer(pmon_mset_npasses(c->set)));
		json_object_set_new(c->doc, "status", status);
		json_object_set_new(c->doc, "values", vals);
		if (json_dumpf(c->doc, c->out, JSON_INDENT(2) | JSON_PRESERVE_ORDER) == 0)
			fputc('\n', c->out);
		return rc;
	}
	if (c->o->sep) {
		if (!c->o->interval_ms) {
			struct text_arg ta = { 0, 0 };
			each_row(c, PMON_MSET_TOTAL, text_row, &ta);
		}
		const char *x = c->o->sep;
		fprintf(c->out, "all%smachine_seconds%s%.9g%ss%s100.00\n", x, x, mt, x, x);
		fprintf(c->out, "all%swall_seconds%s%.9g%ss%s100.00\n", x, x, st->wall, x, x);
		return rc;
	}
	fprintf(c->out, "\n Uncore counter stats for '%s' (%s, %s):\n\n", cmd,
		emu ? "emulated machine" : "this machine",
		c->o->aggr == AGGR_MACHINE ? "machine" : c->o->aggr == AGGR_BOX ? "per box" : "per socket");
	struct text_arg ta = { 0, 0 };
	each_row(c, PMON_MSET_TOTAL, text_row, &ta);
	fprintf(c->out, "\n  %14.6f seconds of machine time%s\n", mt,
		emu ? " (emulated: the machine's own clock, as the guide's SAMPLE_INTERVAL / TSC_SPEED)" : "");
	fprintf(c->out, "  %14.6f seconds wall clock\n", st->wall);
	fprintf(c->out, "  command %s\n\n", stx);
	return rc;
}

void stat_out_free(struct stat_ctx *c)
{
	json_decref(c->doc);
	c->doc = NULL;
	free(c->svg_t);
	free(c->svg_v);
	c->svg_t = c->svg_v = NULL;
}

/* ------------------------------------------------------------------ SVG */

static const char *const colours[] = { "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
				       "#8c564b", "#e377c2", "#17becf" };

static int write_svg(struct stat_ctx *c)
{
	int ni = pmon_mset_item_count(c->set), per = ni * c->nsock;
	const int W = 760, PH = 220, ML = 70, MR = 230, MT = 30;
	FILE *f;
	int fd = open(c->o->svg_path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		fprintf(stderr, "pmon stat: --svg %s: %s\n", c->o->svg_path, strerror(errno));
		return 1;
	}
	double tmax = c->nsamples ? c->svg_t[c->nsamples - 1] : 1;
	if (tmax <= 0)
		tmax = 1;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"font-family=\"sans-serif\" font-size=\"11\">\n", W, MT + c->nsock * (PH + 40));
	fprintf(f, "<text x=\"%d\" y=\"18\" font-size=\"13\">pmon stat: each item per socket over the "
		"machine's time (s), each line on its own scale</text>\n", ML);
	for (int s = 0; s < c->nsock; s++) {
		int y0 = MT + s * (PH + 40) + 10, pw = W - ML - MR;
		fprintf(f, "<text x=\"8\" y=\"%d\" font-size=\"12\">socket %d</text>\n", y0 + 12, s);
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
			"stroke=\"#999\"/>\n", ML, y0, pw, PH);
		fprintf(f, "<text x=\"%d\" y=\"%d\">0</text><text x=\"%d\" y=\"%d\" text-anchor=\"end\">"
			"%.3f s</text>\n", ML, y0 + PH + 14, ML + pw, y0 + PH + 14, tmax);
		for (int i = 0, shown = 0; i < ni; i++) {
			pmon_mset_item_t it;
			double vmax = 0;
			pmon_mset_item_get(c->set, i, &it);
			for (int k = 0; k < c->nsamples; k++) {
				double v = c->svg_v[(size_t)k * (size_t)per + (size_t)(i * c->nsock + s)];
				vmax = v > vmax ? v : vmax;
			}
			const char *col = colours[shown % 8];
			fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"%s\">%s (max %.3g %s)</text>\n", ML + pw + 8,
				y0 + 12 + 14 * shown, col, it.name, vmax, it.unit);
			shown++;
			fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"", col);
			for (int k = 0; k < c->nsamples; k++) {
				double v = c->svg_v[(size_t)k * (size_t)per + (size_t)(i * c->nsock + s)];
				double x = ML + pw * c->svg_t[k] / tmax;
				double y = y0 + PH - (vmax > 0 && v > 0 ? PH * v / vmax : 0);
				fprintf(f, "%.1f,%.1f ", x, y);
			}
			fprintf(f, "\"/>\n");
		}
	}
	fprintf(f, "</svg>\n");
	return fclose(f) ? 1 : 0;
}

/* --------------------------------------------------------- list --metrics */

static int metric_matches(const char *pattern, const pmon_metric_info_t *mi)
{
	if (!pattern)
		return 1;
	if (strpbrk(pattern, "*?["))
		return !fnmatch(pattern, mi->name, FNM_CASEFOLD) || !fnmatch(pattern, mi->group, FNM_CASEFOLD);
	return strcasestr(mi->name, pattern) || !strcasecmp(mi->group, pattern) ||
	       !strcasecmp(mi->generation, pattern);
}

static const char *const node_names[] = { "", "local", "remote", "all" };

int stat_list_metrics(const char *pattern, int json)
{
	json_t *groups = json ? json_array() : NULL;
	int shown = 0;
	const char *last_gen = NULL;
	for (int g = 0; g < pmon_metric_group_count(); g++) {
		/* a group is of one generation: its metrics of that one (several
		 * generations have a group mem_bw, each of its own metrics) */
		const char *gname, *gdesc, *ggen = pmon_metric_group_generation(g);
		json_t *jg = NULL, *jm = NULL;
		int header = 0;
		pmon_metric_group_get(g, &gname, &gdesc);
		for (int i = 0; i < pmon_metric_count(); i++) {
			pmon_metric_info_t mi;
			pmon_metric_get(i, &mi);
			if (strcmp(mi.group, gname) || strcmp(mi.generation, ggen) || !metric_matches(pattern, &mi))
				continue;
			shown++;
			if (json) {
				if (!jg) {
					jg = json_pack("{s:s, s:s, s:s, s:[]}", "name", gname, "desc", gdesc,
						       "generation", mi.generation, "metrics");
					json_array_append_new(groups, jg);
					jm = json_object_get(jg, "metrics");
				}
				json_t *evs = json_array();
				for (int k = 0; k < mi.nevents; k++) {
					pmon_metric_event_t me;
					pmon_metric_event_get(i, k, &me);
					json_t *je = json_pack("{s:s, s:s, s:s, s:i}", "label", me.label, "box_type",
							       me.box_type, "event", me.event, "pass", me.pass);
					if (me.nodes)
						json_object_set_new(je, "nodes", json_string(node_names[me.nodes]));
					json_array_append_new(evs, je);
				}
				json_array_append_new(jm, json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:i, s:o}",
					"name", mi.name, "desc", mi.desc, "formula", mi.formula, "unit", mi.unit,
					"scope", scope_names[mi.scope], "box_type", mi.box_type, "guide", mi.guide,
					"note", mi.note, "passes", mi.npasses, "events", evs));
				continue;
			}
			if (!last_gen || strcmp(last_gen, ggen))
				printf("%s== %s metrics ==\n", last_gen ? "\n" : "", mi.generation_title);
			last_gen = ggen;
			if (!header++)
				printf("%s  (%s)\n", gname, gdesc);
			printf("  %-30s %-7s per %-7s %s\n", mi.name, mi.unit, scope_names[mi.scope], mi.formula);
			printf("      %s\n", mi.desc);
			for (int k = 0; k < mi.nevents; k++) {
				pmon_metric_event_t me;
				pmon_metric_event_get(i, k, &me);
				printf("      %-5s = %s (%s)%s%s", me.label, me.event, me.box_type,
				       me.nodes ? " nf=" : "", node_names[me.nodes]);
				if (mi.npasses > 1)
					printf("  pass %d", me.pass);
				putchar('\n');
			}
			printf("      guide: %s\n", mi.guide);
			if (*mi.note)
				printf("      note: %s\n", mi.note);
		}
	}
	if (json) {
		json_t *doc = json_pack("{s:s, s:o}", "version", PMON_VERSION_STRING, "groups", groups);
		if (!shown)
			json_object_set_new(doc, "error", json_sprintf("no metric matches '%s'",
								       pattern ? pattern : ""));
		json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		putchar('\n');
		json_decref(doc);
	}
	if (!shown) {
		fprintf(stderr, "pmon: no metric matches '%s'\n", pattern ? pattern : "");
		return 1;
	}
	return 0;
}
