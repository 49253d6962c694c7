/*
 * vexp.c - expectations as data (building a set) and the runner that counts
 * them (vexp.h).
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vbase.h"
#include "vexp.h"
#include "vmetric.h"

void vx_init(struct vxset *x)
{
	memset(x, 0, sizeof(*x));
}

struct vxwin *vx_win(struct vxset *x)
{
	if (x->nw == VX_WIN)
		return NULL;
	struct vxwin *w = &x->w[x->nw++];
	memset(w, 0, sizeof(*w));
	w->wrap_ev = -1;
	return w;
}

int vx_ev(struct vxwin *w, int broken, const char *fmt, ...)
{
	va_list ap;
	if (w->nev == VEV_MAX)
		return -1;
	va_start(ap, fmt);
	vsnprintf(w->ev[w->nev].name, sizeof(w->ev[w->nev].name), fmt, ap);
	va_end(ap);
	w->ev[w->nev].broken = broken;
	return w->nev++;
}

static struct vxck *ck_new(struct vxwin *w, enum vx_kind kind, const int *ev, int n)
{
	if (w->nck == VX_CK || n > VX_IDX || n < 0)
		return NULL;
	struct vxck *k = &w->ck[w->nck++];
	memset(k, 0, sizeof(*k));
	k->kind = kind;
	k->n = n;
	k->per = 1;
	k->s_k = k->s_div = k->s_mul = 1;
	if (n)
		memcpy(k->ev, ev, sizeof(*ev) * (size_t)n);
	return k;
}

static void set_why(struct vxck *k, const char *why)
{
	snprintf(k->why, sizeof(k->why), "%s", why ? why : "");
}

/* The check's name from what's format and arguments, and its unit (NULL:
 * none). */
static void set_what(struct vxck *k, const char *unit, const char *what, va_list ap)
{
	vsnprintf(k->what, sizeof(k->what), what, ap);
	if (unit)
		snprintf(k->unit, sizeof(k->unit), "%s", unit);
}

struct vxck *vx_sum(struct vxwin *w, const int *ev, int n, double per, double expected,
		    struct vband b, const char *unit, const char *what, ...)
{
	struct vxck *k = ck_new(w, VX_SUM, ev, n);
	va_list ap;
	if (!k)
		return NULL;
	va_start(ap, what);
	set_what(k, unit, what, ap);
	va_end(ap);
	k->per = per;
	k->expected = expected;
	k->b = b;
	set_why(k, b.why);
	return k;
}

struct vxck *vx_zero(struct vxwin *w, const int *ev, int n, double per, double bound,
		     const char *why, const char *unit, const char *what, ...)
{
	struct vxck *k = ck_new(w, VX_ZERO, ev, n);
	va_list ap;
	if (!k)
		return NULL;
	va_start(ap, what);
	set_what(k, unit, what, ap);
	va_end(ap);
	k->per = per;
	k->bound = bound;
	set_why(k, why);
	return k;
}

struct vxck *vx_quot(struct vxwin *w, const int *num, const int *den, int n, double expected,
		     struct vband b, const char *unit, const char *what, ...)
{
	struct vxck *k = ck_new(w, VX_QUOT, num, n);
	va_list ap;
	if (!k)
		return NULL;
	memcpy(k->den, den, sizeof(*den) * (size_t)n);
	va_start(ap, what);
	set_what(k, unit, what, ap);
	va_end(ap);
	k->expected = expected;
	k->b = b;
	set_why(k, b.why);
	return k;
}

struct vxck *vx_diff(struct vxwin *w, const int *pos, int npos, const int *neg, int nneg,
		     double per, double expected, struct vband b, double bound, const char *unit,
		     const char *what, ...)
{
	struct vxck *k = nneg <= VX_IDX ? ck_new(w, VX_DIFF, pos, npos) : NULL;
	va_list ap;
	if (!k)
		return NULL;
	memcpy(k->den, neg, sizeof(*neg) * (size_t)nneg);
	k->nden = nneg;
	va_start(ap, what);
	set_what(k, unit, what, ap);
	va_end(ap);
	k->per = per;
	k->expected = expected;
	k->bound = bound;
	k->b = b;
	set_why(k, b.why);
	return k;
}

struct vxck *vx_skip(struct vxwin *w, int nskip, const char *fmt, ...)
{
	struct vxck *k = ck_new(w, VX_SKIP, NULL, 0);
	va_list ap;
	if (!k)
		return NULL;
	va_start(ap, fmt);
	vsnprintf(k->why, sizeof(k->why), fmt, ap);
	va_end(ap);
	k->nskip = nskip;
	return k;
}

struct vxck *vx_skipm(struct vxwin *w, const int *ev, int n, double per, int nskip,
		      const char *why, const char *what, ...)
{
	struct vxck *k = ck_new(w, VX_SKIPM, ev, n);
	va_list ap;
	if (!k)
		return NULL;
	va_start(ap, what);
	set_what(k, NULL, what, ap);
	va_end(ap);
	k->per = per;
	k->nskip = nskip;
	set_why(k, why);
	return k;
}

struct vxck *vx_skipm2(struct vxwin *w, const int *a, int na, const int *b, int nb, int nskip,
		       const char *why, const char *what, ...)
{
	struct vxck *k = nb <= VX_IDX ? ck_new(w, VX_SKIPM2, a, na) : NULL;
	va_list ap;
	if (!k)
		return NULL;
	memcpy(k->den, b, sizeof(*b) * (size_t)nb);
	k->nden = nb;
	va_start(ap, what);
	set_what(k, NULL, what, ap);
	va_end(ap);
	k->nskip = nskip;
	set_why(k, why);
	return k;
}

struct vxck *vx_clock(struct vxwin *w, const int *ev, int n, double hz, double mult, double tol,
		      int hw, const char *why, const char *unit, const char *what, ...)
{
	char name[sizeof(w->ck[0].what)];
	va_list ap;
	va_start(ap, what);
	vsnprintf(name, sizeof(name), what, ap);
	va_end(ap);
	/* a sum whose expected count the window's length gives */
	struct vxck *k = vx_sum(w, ev, n, 1, 0, (struct vband){ 0, 0, why }, unit, "%s", name);
	if (k) {
		k->kind = VX_CLOCK;
		k->hz = hz;
		k->mult = mult;
		k->tol = tol;
		k->hw = hw;
	}
	return k;
}

struct vxck *vx_metric(struct vxwin *w, const char *metric, const char *where,
		       const struct vxterm *t, int nt, double expected, struct vband b)
{
	struct vxck *k = ck_new(w, VX_METRIC, NULL, 0);
	if (!k || nt > 4)
		return NULL;
	k->metric = metric;
	snprintf(k->where, sizeof(k->where), "%s", where);
	memcpy(k->t, t, sizeof(*t) * (size_t)nt);
	k->nt = nt;
	k->expected = expected;
	k->b = b;
	set_why(k, b.why);
	return k;
}

void vx_note(struct vxset *x, const char *fmt, ...)
{
	va_list ap;
	if (x->nnotes == (int)(sizeof(x->notes) / sizeof(x->notes[0])))
		return;
	va_start(ap, fmt);
	vsnprintf(x->notes[x->nnotes++], sizeof(x->notes[0]), fmt, ap);
	va_end(ap);
}

struct vxterm vx_term(const int *ev, int n)
{
	struct vxterm t;
	memset(&t, 0, sizeof(t));
	t.win = -1;
	t.n = n > VX_IDX ? VX_IDX : n;
	memcpy(t.ev, ev, sizeof(*ev) * (size_t)t.n);
	return t;
}

int vx_count(const struct vxset *x)
{
	int n = 0;
	for (int i = 0; i < x->nw; i++)
		for (int j = 0; j < x->w[i].nck; j++)
			n += x->w[i].ck[j].kind == VX_SKIP || x->w[i].ck[j].kind == VX_SKIPM ||
			     x->w[i].ck[j].kind == VX_SKIPM2 ?
				x->w[i].ck[j].nskip : 1;
	return n;
}

/* ------------------------------------------------------ the runner */

struct vxlive {
	struct vevents e[VX_WIN];
	int idx[VX_WIN][VEV_MAX];
	int on[VX_WIN];
};

static void map(const struct vxlive *L, int win, const int *ev, int n, int *out)
{
	for (int i = 0; i < n; i++)
		out[i] = L->idx[win][ev[i]];
}

/* An identity between counts: (sum of pos - sum of neg) / per. */
static void diff(struct vctx *c, struct vevents *e, const char *kname, const struct vxck *k,
		 const int *pos, const int *neg, struct vband b)
{
	int all[2 * VX_IDX];
	for (int i = 0; i < k->n; i++)
		if (pos[i] < 0)
			return;
	for (int i = 0; i < k->nden; i++)
		if (neg[i] < 0)
			return;
	double m = (vev_sum(e, pos, k->n, NULL) - vev_sum(e, neg, k->nden, NULL)) / k->per;
	struct vcheck *v = k->expected != 0 ?
		vcheck_rel(&c->checks, kname, k->what, k->unit, k->expected, m, b.lo, b.hi, b.why) :
		vcheck_abs(&c->checks, kname, k->what, k->unit, fabs(m), k->bound, k->why);
	if (!v)
		return;
	v->per = k->per;
	memcpy(all, pos, sizeof(*pos) * (size_t)k->n);
	memcpy(all + k->n, neg, sizeof(*neg) * (size_t)k->nden);
	vcheck_events(v, e, all, k->n + k->nden);
}

/* The window's length: the kernel's wall time, ns; the session's, from
 * just before its start to just after its stop, bounds it above. */
static void clock_check(struct vctx *c, struct vevents *e, const char *kname, const struct vxck *k,
			const int *idx, double ns)
{
	struct vband b = clock_band(ns, e->outer1 - e->outer0, k->hw);
	if (k->tol > 0) {
		b.lo -= k->tol;
		b.hi += k->tol;
	}
	if (k->why[0])
		b.why = k->why;
	vcheck_sum(c, e, kname, k->what, k->unit, idx, k->n, 1, clock_expect(k->hz, ns) * k->mult, b);
}

static void check(struct vctx *c, const char *kname, struct vxlive *L, int wi,
		  const struct vxck *k, double seconds, double ns, uint64_t handled)
{
	struct vevents *e = &L->e[wi];
	int idx[VX_IDX], den[VX_IDX];
	struct vband b = { k->b.lo, k->b.hi, k->why };

	if (k->kind != VX_SKIP && k->kind != VX_METRIC)
		map(L, wi, k->ev, k->n, idx);
	switch (k->kind) {
	case VX_SUM:
		vcheck_sum(c, e, kname, k->what, k->unit, idx, k->n, k->per, k->expected, b);
		break;
	case VX_ZERO:
		vcheck_zero(c, e, kname, k->what, k->unit, idx, k->n, k->per, k->bound, k->why);
		break;
	case VX_QUOT:
		map(L, wi, k->den, k->n, den);
		vcheck_quot(c, e, kname, k->what, k->unit, idx, den, k->n, k->expected, b);
		break;
	case VX_SKIPM2:
		map(L, wi, k->den, k->nden, den);
		for (int i = 0; i < k->n; i++)
			if (idx[i] < 0)
				return;
		for (int i = 0; i < k->nden; i++)
			if (den[i] < 0)
				return;
		vskip_n(c, k->nskip, "%s %s: not checked (measured %.0f / %.0f lines, %s", kname, k->what,
			vev_sum(e, idx, k->n, NULL), vev_sum(e, den, k->nden, NULL), k->why);
		break;
	case VX_DIFF:
		map(L, wi, k->den, k->nden, den);
		diff(c, e, kname, k, idx, den, b);
		break;
	case VX_SKIP:
		vskip_n(c, k->nskip, "%s", k->why);
		break;
	case VX_CLOCK:
		clock_check(c, e, kname, k, idx, ns);
		break;
	case VX_SKIPM:
		for (int i = 0; i < k->n; i++)
			if (idx[i] < 0)
				return;
		vskip_n(c, k->nskip, "%s %s: not checked (measured %.4g per hop): %s", kname, k->what,
			vev_sum(e, idx, k->n, NULL) / k->per, k->why);
		break;
	case VX_WRAP: {
		/* the same counter as libpmon totals it across the wrap */
		if (idx[0] < 0)
			break;
		uint64_t naive = e->val[idx[0]];
		e->val[idx[0]] = handled;
		e->broken[idx[0]] = 0;
		vcheck_sum(c, e, kname, k->what, k->unit, idx, 1, k->per, k->expected, b);
		e->val[idx[0]] = naive;
		e->broken[idx[0]] = 1;
		break;
	}
	case VX_METRIC: {
		int tidx[4][VX_IDX];
		struct vmterm t[4];
		for (int i = 0; i < k->nt; i++) {
			int tw = k->t[i].win < 0 ? wi : k->t[i].win;
			map(L, tw, k->t[i].ev, k->t[i].n, tidx[i]);
			t[i] = (struct vmterm){ tidx[i], k->t[i].n, k->t[i].win < 0 ? NULL : &L->e[tw],
						k->t[i].per };
		}
		if (seconds <= 0) {
			/* Known only once the window ran: the metric has no value,
			 * the check fails and says why. */
			char why[sizeof(k->nosec) + 64];
			snprintf(why, sizeof(why), "%s (machine time 0 s: no value)", k->nosec);
			b.why = why;
			struct vcheck *r = vcheck_metric(c, e, kname, k->metric, k->where, t, k->nt, 0,
							 k->over_s ? NAN : k->expected, b);
			if (r) {
				r->measured = NAN;
				vcheck_eval(r);
			}
			break;
		}
		double want = k->expected;
		if (k->over_s)
			want = want / (k->s_k * seconds) / k->s_div * k->s_mul;
		b.lo -= k->tol_lo_s / seconds;
		b.hi += k->tol_hi_s / seconds;
		vcheck_metric(c, e, kname, k->metric, k->where, t, k->nt, seconds, want, b);
		break;
	}
	}
}

/* The last window whose metrics read window i's events (i itself if none). */
static int last_use(const struct vxset *x, int i)
{
	int last = i;
	for (int j = i + 1; j < x->nw; j++)
		for (int k = 0; k < x->w[j].nck; k++)
			for (int t = 0; t < x->w[j].ck[k].nt; t++)
				if (x->w[j].ck[k].t[t].win == i)
					last = j;
	return last;
}

static void release(const struct vxset *x, struct vxlive *L, int upto)
{
	for (int i = 0; i < x->nw; i++)
		if (L->on[i] && last_use(x, i) <= upto) {
			vev_free(&L->e[i]);
			L->on[i] = 0;
		}
}

static int window(struct vctx *c, const char *kname, const struct vxset *x, int wi,
		  const struct vxkern *k, struct vxlive *L, struct vxres *res)
{
	const struct vxwin *w = &x->w[wi];
	struct vevents *e = &L->e[wi];
	int rc;

	vev_init(e, c->m);
	L->on[wi] = 1;
	for (int i = 0; i < w->nev; i++) {
		int j = vadd(c, e, kname, "%s", w->ev[i].name);
		if (j == -2)
			return -1;
		if (w->ev[i].broken && j >= 0)
			vev_mark_broken(e, j);
		L->idx[wi][i] = j;
	}
	int wrap = w->wrap_ev >= 0 && L->idx[wi][w->wrap_ev] >= 0;
	uint64_t handled = 0;
	/* The idle windows before the preset (they start the counters). */
	if (wrap && (rc = vbase_idle(c, e)))
		return rc;
	if (wrap && (rc = vbreak_wrap_preset(c, e, L->idx[wi][w->wrap_ev], w->wrap_top))) {
		snprintf(c->err, sizeof(c->err), "breakage wrap: preset: %s", pmon_strerror(rc));
		return rc;
	}
	if (w->clean && (rc = vwin_clean(c, k->arrs, k->narrs)))
		return rc;
	if ((rc = vwin_start(c, e, &res->t0[wi])))
		return rc;
	uint64_t m0 = w->timed && e->s ? pmon_session_read_ns(e->s) : 0;
	if ((rc = k->run(c, k->arg, w)) ||
	    (rc = vwin_stop(c, e, w->flush, w->flush ? k->arrs : NULL, w->flush ? k->narrs : 0,
			    &res->t1[wi])))
		return rc;
	if (wrap && (rc = vbreak_wrap_apply(c, e, L->idx[wi][w->wrap_ev], &handled))) {
		snprintf(c->err, sizeof(c->err), "breakage wrap: read: %s", pmon_strerror(rc));
		return rc;
	}
	double sec = c->planning || !w->timed ? 1 : vmetric_seconds(e, m0);
	res->seconds[wi] = sec;
	double ns = c->planning && w->ms > 0 ? w->ms * 1e6 : res->t1[wi] - res->t0[wi];
	for (int i = 0; i < w->nck; i++)
		check(c, kname, L, wi, &w->ck[i], sec, ns, handled);
	return 0;
}

int vx_run(struct vctx *c, const char *kname, const struct vxset *x, const struct vxkern *k,
	   struct vxres *res)
{
	struct vxlive *L = calloc(1, sizeof(*L));
	struct vxres dummy;
	int rc = 0;

	if (!L) {
		snprintf(c->err, sizeof(c->err), "%s: out of memory", kname);
		return -1;
	}
	if (!res)
		res = &dummy;
	memset(res, 0, sizeof(*res));
	for (int i = 0; i < x->nnotes; i++)
		vprogress(c, "%s\n", x->notes[i]);
	for (int wi = 0; wi < x->nw && rc == 0; wi++) {
		const struct vxwin *w = &x->w[wi];
		const char *kn = w->kname[0] ? w->kname : kname;
		if (w->nev == 0) {
			for (int i = 0; i < w->nck; i++)
				check(c, kn, L, wi, &w->ck[i], 0, 0, 0);
		} else {
			rc = window(c, kn, x, wi, k, L, res);
		}
		release(x, L, rc ? VX_WIN : wi);
	}
	release(x, L, VX_WIN);
	free(L);
	return rc;
}

struct vxset *vx_new(struct vctx *c, const char *what)
{
	struct vxset *x = calloc(1, sizeof(*x));
	if (!x)
		snprintf(c->err, sizeof(c->err), "%s: out of memory", what);
	return x;
}

int vx_go(struct vctx *c, const char *kname, struct vxset *x, int made, const struct vxkern *k,
	  struct vxres *res)
{
	int rc = -1;
	if (made != 0)
		snprintf(c->err, sizeof(c->err), "%s", x->err);
	else
		rc = vx_run(c, kname, x, k, res);
	free(x);
	return rc;
}

void vx_wait_ms(double ms)
{
	struct timespec ts = { (time_t)(ms / 1000), (long)((ms - 1000 * (time_t)(ms / 1000)) * 1e6) };
	nanosleep(&ts, NULL);
}

int vx_sleep(struct vctx *c, void *arg, const struct vxwin *w)
{
	(void)arg;
	if (!c->planning)
		vx_wait_ms(w->ms);
	return 0;
}
