/*
 * vrepeat.c - running each window N times and checking the median
 * (vrepeat.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vrepeat.h"

void vrepeat_save(const struct vctx *c, struct vrep_saved *s)
{
	memcpy(s->skips, c->skips, sizeof(s->skips));
	s->nskips = c->nskips;
	s->nskipped = c->nskipped;
	s->nnotes = c->nnotes;
}

/* A run record of check x's values, its pointers shared with x. */
static void run_of(const struct vcheck *x, struct vrunrec *r)
{
	r->expected = x->expected;
	r->measured = x->measured;
	r->background = x->background;
	r->bg_spread = x->bg_spread;
	r->counts = x->counts;
	r->ncounts = x->ncounts;
	r->broken = x->broken;
	r->pass = x->pass;
	r->refused = x->refused;
}

/* Move check x's values into a run record (x keeps no pointer to them). */
static void take_run(struct vcheck *x, struct vrunrec *r)
{
	run_of(x, r);
	x->counts = NULL;
	x->ncounts = 0;
	x->refused = NULL;
}

static int add_run(struct vcheck *k, struct vcheck *x, int cap)
{
	if (!k->runs) {
		k->runs = calloc((size_t)cap, sizeof(*k->runs));
		if (!k->runs)
			return -1;
		/* The first run's own values, copied: k keeps its own. */
		struct vrunrec *r = &k->runs[k->nruns++];
		run_of(k, r);
		r->counts = NULL;
		r->ncounts = 0;
		if (k->ncounts && (r->counts = malloc(sizeof(uint64_t) * (size_t)k->ncounts))) {
			memcpy(r->counts, k->counts, sizeof(uint64_t) * (size_t)k->ncounts);
			r->ncounts = k->ncounts;
		}
		r->refused = k->refused ? strdup(k->refused) : NULL;
	}
	if (k->nruns == cap)
		return 0;
	take_run(x, &k->runs[k->nruns++]);
	return 0;
}

/* Same kernel and event.  Not inlined: inlined into the merge loop, GCC 12
 * -O2 with the sanitizers warns of a read past the array it cannot prove
 * (-Wstringop-overread). */
__attribute__((noinline)) static int same(const struct vcheck *a, const struct vcheck *b)
{
	return strncmp(a->kernel, b->kernel, sizeof(a->kernel)) == 0 &&
	       strncmp(a->event, b->event, sizeof(a->event)) == 0;
}

static struct vcheck *match(struct vchecks *cs, size_t first, size_t from, size_t hint,
			    const struct vcheck *x)
{
	if (hint < from && same(&cs->v[hint], x))
		return &cs->v[hint];
	for (size_t i = first; i < from; i++)
		if (same(&cs->v[i], x))
			return &cs->v[i];
	return NULL;
}

int vrepeat_merge(struct vctx *c, size_t first, size_t from, const struct vrep_saved *s)
{
	int rc = 0;
	for (size_t j = from; j < c->checks.n; j++) {
		struct vcheck *x = &c->checks.v[j];
		struct vcheck *k = match(&c->checks, first, from, first + (j - from), x);
		if (k && add_run(k, x, c->o.repeat) != 0) {
			snprintf(c->err, sizeof(c->err), "--repeat: out of memory");
			rc = -1;
		}
	}
	/* Drop the run's checks (what they own, then the slots). */
	struct vchecks tail = { c->checks.v + from, c->checks.n - from, 0 };
	for (size_t j = 0; j < tail.n; j++) {
		free(tail.v[j].events);
		free(tail.v[j].refused);
		free(tail.v[j].counts);
		free(tail.v[j].known);
		free(tail.v[j].runs);
	}
	c->checks.n = from;
	memcpy(c->skips, s->skips, sizeof(c->skips));
	c->nskips = s->nskips;
	c->nskipped = s->nskipped;
	c->nnotes = s->nnotes;
	return rc;
}

/* What the runs are ordered by: the ratio measured / expected (each run
 * has its own expected value when it depends on the window's time), or the
 * value of a check that expects 0. */
static double key(const struct vcheck *k, const struct vrunrec *r)
{
	if (k->tol_kind == VTOL_ABS)
		return r->measured;
	return r->expected ? r->measured / r->expected : NAN;
}

/* NaN (no value) sorts above every number. */
static int above(double a, double b)
{
	return isnan(a) ? !isnan(b) : !isnan(b) && a > b;
}

int vrepeat_median(const struct vcheck *k)
{
	int order[256], n = k->nruns < 256 ? k->nruns : 256;
	if (n <= 0)
		return -1;
	for (int i = 0; i < n; i++) {
		int j = i;
		while (j > 0 && above(key(k, &k->runs[order[j - 1]]), key(k, &k->runs[i]))) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = i;
	}
	return order[(n - 1) / 2];
}

void vrepeat_finish(struct vctx *c, size_t first)
{
	for (size_t i = first; i < c->checks.n; i++) {
		struct vcheck *k = &c->checks.v[i];
		int m = vrepeat_median(k);
		if (m < 0)
			continue;
		double lo = INFINITY, hi = -INFINITY;
		int broken = 0;
		for (int r = 0; r < k->nruns; r++) {
			double x = key(k, &k->runs[r]);
			if (isfinite(x)) {
				lo = fmin(lo, x);
				hi = fmax(hi, x);
			}
			broken |= k->runs[r].broken;
		}
		struct vrunrec *r = &k->runs[m];
		/* In the check's unit: the ratios' spread times the median
		 * run's expected value (a check that expects 0: its values'). */
		double sp = hi >= lo ? hi - lo : 0;
		k->spread = k->tol_kind == VTOL_ABS ? sp : sp * fabs(r->expected);
		k->expected = r->expected;
		k->measured = r->measured;
		k->background = r->background;
		k->bg_spread = r->bg_spread;
		k->broken = broken;
		if (r->counts && r->ncounts == k->ncounts)
			memcpy(k->counts, r->counts, sizeof(uint64_t) * (size_t)r->ncounts);
		free(k->refused);
		k->refused = r->refused ? strdup(r->refused) : NULL;
		vcheck_eval(k);
	}
}
