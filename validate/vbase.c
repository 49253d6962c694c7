/*
 * vbase.c - the idle baseline (vbase.h).
 */
#define _GNU_SOURCE
#include <math.h>
#include <string.h>
#include <time.h>

#include "expect.h"
#include "vbase.h"

int vbase_applies(const pmon_encoding_t *enc)
{
	pmon_pmu_info_t pi;
	if (enc->fixed)
		return 0;
	if (pmon_pmu_get(enc->pmu, &pi) == 0 && pi.box_type && strcmp(pi.box_type, "pcu") == 0)
		return 0;
	return strstr(enc->name, "CLOCKTICKS") == NULL;
}

static void idle_sleep(double ms)
{
	struct timespec ts = { (time_t)(ms / 1000), (long)(fmod(ms, 1000) * 1e6) };
	while (nanosleep(&ts, &ts) != 0)
		;
}

/* One idle window of ms: counts (v, by session index) and machine ns. */
static int idle_window(struct vctx *c, struct vevents *e, double ms, uint64_t *v, double *ns)
{
	int rc = pmon_session_start(e->s);
	uint64_t t0 = pmon_session_read_ns(e->s);
	if (rc == 0) {
		idle_sleep(ms);
		rc = pmon_session_stop(e->s, v);
	}
	if (rc != 0) {
		snprintf(c->err, sizeof(c->err), "idle window: %s (%s)", pmon_strerror(rc),
			 pmon_session_errmsg(e->s));
		return rc;
	}
	uint64_t t1 = pmon_session_read_ns(e->s);
	*ns = t1 > t0 ? (double)(t1 - t0) : 1;
	c->idle_windows++;
	c->idle_s += *ns * 1e-9;
	return 0;
}

int vbase_idle(struct vctx *c, struct vevents *e)
{
	uint64_t v[VEV_MAX], cnt[VEV_MAX] = { 0 };
	double lo[VEV_MAX], hi[VEV_MAX], total = 0, t;
	int any = 0;

	e->based = 0;
	e->idle_done = 1;
	for (int i = 0; i < e->n; i++) {
		any |= e->base[i];
		e->rate[i] = e->rate_sp[i] = 0;
		lo[i] = INFINITY;
		hi[i] = 0;
	}
	if (c->planning || !any || c->o.idle_ms <= 0 || !e->s)
		return 0;
	/* A probe of --idle-ms; when it counts anything, VBASE_WINDOWS
	 * windows of VBASE_LONG times as long measure the rate. */
	for (int w = 0; w <= VBASE_WINDOWS; w++) {
		int rc = idle_window(c, e, c->o.idle_ms * (w ? VBASE_LONG : 1), v, &t), counted = 0;
		if (rc)
			return rc;
		total += w ? t : 0;
		for (int i = 0; i < e->n; i++) {
			if (!e->base[i] || e->sidx[i] < 0)
				continue;
			uint64_t x = v[e->sidx[i]];
			counted |= x != 0;
			if (w == 0)
				continue;
			cnt[i] += x;
			lo[i] = fmin(lo[i], (double)x / t);
			hi[i] = fmax(hi[i], (double)x / t);
		}
		/* The first window counted nothing: no background. */
		if (w == 0 && !counted)
			break;
	}
	for (int i = 0; i < e->n; i++) {
		if (!e->base[i] || e->sidx[i] < 0 || cnt[i] == 0)
			continue;
		e->rate[i] = (double)cnt[i] / total;
		/* Each window's count is off its rate by less than a burst (the
		 * lines fall in whole, with the prefetchers on up to pf_burst at
		 * once), so the total by less than one a window. */
		e->rate_sp[i] = hi[i] - lo[i] + VBASE_WINDOWS * (double)pf_burst(&c->g) / total;
	}
	e->based = 1;
	return 0;
}

void vbase_scale(const struct vctx *c, struct vevents *e, uint64_t ns)
{
	for (int i = 0; i < e->n; i++) {
		e->bg[i] = e->rate[i] * (double)ns;
		int sub = e->based && c->o.brk != VB_BASELINE;
		e->bgsub[i] = sub ? e->bg[i] : 0;
		/* and the kernel window's own count, off by less than a burst:
		 * a background line that misses just before the window ends
		 * brings the lines the prefetchers fetch with it (pf_burst) */
		e->bgsp[i] = sub && e->rate[i] > 0 ? e->rate_sp[i] * (double)ns + (double)pf_burst(&c->g) : 0;
	}
}

static int any_based(const struct vevents *e, const int *idx, int n)
{
	for (int i = 0; i < n; i++)
		if (e->based && e->base[idx[i]])
			return 1;
	return 0;
}

void vbase_attach(struct vcheck *k, const struct vevents *e, const int *idx, int n, double per)
{
	k->bg_taken = any_based(e, idx, n);
	double bg = 0;
	for (int i = 0; i < n; i++)
		bg += e->bg[idx[i]];
	k->background = bg / per;
	k->bg_spread = vev_sum_bgsp(e, idx, n) / per;
	vcheck_eval(k);
}

void vbase_attach_quot(struct vcheck *k, const struct vevents *e, const int *num, const int *den,
		       int n)
{
	k->bg_taken = any_based(e, num, n) || any_based(e, den, n);
	double nr = vev_sum_raw(e, num, n), dr = vev_sum_raw(e, den, n);
	double nn = vev_sum(e, num, n, NULL), dn = vev_sum(e, den, n, NULL);
	double nb = 0, db = 0;
	for (int i = 0; i < n; i++) {
		nb += e->bg[num[i]];
		db += e->bg[den[i]];
	}
	/* In the check's unit: what the background moves the quotient by
	 * (raw less background-free), and the spread of the quotient. */
	double free_q = dr - db > 0 ? (nr - nb) / (dr - db) : NAN;
	k->background = dr > 0 && isfinite(free_q) ? nr / dr - free_q : 0;
	k->bg_spread = dn > 0 ? (vev_sum_bgsp(e, num, n) + fabs(nn / dn) * vev_sum_bgsp(e, den, n)) / dn
			      : 0;
	vcheck_eval(k);
}
