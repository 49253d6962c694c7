/* vmetric.c - derived metrics checked on the kernels (vmetric.h). */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmon/metric.h>

#include "vmetric.h"

double vmetric_seconds(const struct vevents *e, uint64_t start_ns)
{
	uint64_t end = e->s ? pmon_session_read_ns(e->s) : start_ns;
	return end > start_ns ? (double)(end - start_ns) * 1e-9 : 0;
}

/* --break=metric: the formula with its first number doubled. */
static int broken_value(int metric, const double *counts, double seconds, double *out)
{
	pmon_metric_info_t mi;
	pmon_metric_event_t me;
	const char *names[PMON_METRIC_MAX_EVENTS + 1];
	double vals[PMON_METRIC_MAX_EVENTS + 1];
	char f[256];
	pmon_metric_get(metric, &mi);
	for (int k = 0; k < mi.nevents; k++) {
		pmon_metric_event_get(metric, k, &me);
		names[k] = me.label;
		vals[k] = counts[k];
	}
	names[mi.nevents] = "SECONDS";
	vals[mi.nevents] = seconds;
	const char *p = mi.formula;
	while (*p && !isdigit((unsigned char)*p))
		p++;
	snprintf(f, sizeof(f), "%.*s2 * %s", (int)(p - mi.formula), mi.formula, p);
	return pmon_metric_eval(f, names, vals, mi.nevents + 1, out, NULL, 0);
}

struct vcheck *vcheck_metric(struct vctx *c, struct vevents *e, const char *kernel, const char *metric,
			     const char *where, const struct vmterm *terms, int nterms, double seconds,
			     double expected, struct vband b)
{
	/* the machine's generation's metric of this name (each generation
	 * has its MEM_BW_READS); without a machine, the first one's */
	int mi = c->m ? pmon_machine_metric_find(c->m, metric, NULL, 0) : pmon_metric_find(metric), nall = 0;
	pmon_metric_info_t info;
	double counts[PMON_METRIC_MAX_EVENTS] = { 0 }, v = NAN;
	/* the idle baseline (vbase.h): each term raw, without the background
	 * measured, and the background's spread */
	double rawt[PMON_METRIC_MAX_EVENTS] = { 0 }, free_[PMON_METRIC_MAX_EVENTS] = { 0 };
	double sp[PMON_METRIC_MAX_EVENTS] = { 0 };
	int based = 0;
	const char *names[2 * VEV_MAX];
	uint64_t raw[2 * VEV_MAX];
	int broken = 0;
	const char *refused = NULL;
	char what[96];
	if (mi < 0 || pmon_metric_get(mi, &info) || info.nevents != nterms || nterms > 4) {
		snprintf(c->err, sizeof(c->err), "metric %s: not declared as %d events", metric, nterms);
		return NULL;
	}
	for (int k = 0; k < nterms; k++) {
		for (int i = 0; i < terms[k].n; i++)
			if (terms[k].idx[i] < 0)
				return NULL;          /* an event skipped (not modeled, absent) */
		struct vevents *w = terms[k].e ? terms[k].e : e;
		counts[k] = vev_sum(w, terms[k].idx, terms[k].n, &broken);
		rawt[k] = vev_sum_raw(w, terms[k].idx, terms[k].n);
		free_[k] = rawt[k] - vev_sum_bg(w, terms[k].idx, terms[k].n);
		sp[k] = vev_sum_bgsp(w, terms[k].idx, terms[k].n);
		for (int i = 0; i < terms[k].n; i++)
			based |= w->based && w->base[terms[k].idx[i]];
		if (terms[k].per > 0) {
			counts[k] /= terms[k].per;
			rawt[k] /= terms[k].per;
			free_[k] /= terms[k].per;
			sp[k] /= terms[k].per;
		}
		for (int i = 0; i < terms[k].n && nall < 2 * VEV_MAX; i++) {
			int j = terms[k].idx[i];
			if (w->refused[j] && !refused)
				refused = w->refused[j];
			names[nall] = w->name[j];
			raw[nall++] = w->val[j];
		}
	}
	int rc = c->o.brk == VB_METRIC ? broken_value(mi, counts, seconds, &v)
				       : pmon_metric_compute(mi, counts, seconds, &v);
	if (rc)
		v = NAN;                      /* no value: the check fails, never passes */
	snprintf(what, sizeof(what), "%s %s", metric, where);
	struct vcheck *k = expected == 0 ? vcheck_abs(&c->checks, kernel, what, info.unit, v, b.hi, b.why)
		: vcheck_rel(&c->checks, kernel, what, info.unit, expected, v, b.lo, b.hi, b.why);
	if (!k)
		return NULL;
	/* the events of every window, their raw counts, broken and refused */
	free(k->counts);
	k->counts = malloc(sizeof(*k->counts) * (size_t)(nall > 0 ? nall : 1));
	k->ncounts = k->counts ? nall : 0;
	if (k->counts)
		memcpy(k->counts, raw, sizeof(*raw) * (size_t)nall);
	(void)vcheck_set_events(k, names, nall);
	if (refused)
		vcheck_refuse(k, refused);
	if (broken || (c->o.brk == VB_METRIC && expected != 0))
		k->broken = 1;
	/* The idle baseline (vbase.h): what it moved the value by, and the
	 * value's spread, each term's background spread in turn. */
	k->bg_taken = based;
	if (based && isfinite(v)) {
		double x, y;
		if (pmon_metric_compute(mi, rawt, seconds, &x) == 0 &&
		    pmon_metric_compute(mi, free_, seconds, &y) == 0)
			k->background = x - y;
		for (int t = 0; t < nterms; t++) {
			double save = counts[t];
			counts[t] = save + sp[t];
			if (sp[t] > 0 && pmon_metric_compute(mi, counts, seconds, &x) == 0)
				k->bg_spread += fabs(x - v);
			counts[t] = save;
		}
		vcheck_eval(k);
	}
	return k;
}
