/*
 * vplan.c - the plan of the suite's checks (vplan.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vplan.h"

int vplan_make(struct vctx *c, const struct vstep *steps, int nsteps, int *planned,
	       size_t *pfirst)
{
	int rc = 0;
	c->planning = 1;
	for (int i = 0; i < nsteps && rc == 0; i++) {
		size_t before = c->checks.n;
		planned[i] = 0;
		pfirst[i] = before;
		if (!((c->o.kernels >> steps[i].k) & 1))
			continue;
		int sk = c->nskipped;
		rc = steps[i].fn(c);
		planned[i] = (int)(c->checks.n - before) + (c->nskipped - sk);
	}
	c->planning = 0;
	/* The plan's checks move to c->plan; the run starts afresh. */
	vchecks_free(&c->plan);
	c->plan = c->checks;
	memset(&c->checks, 0, sizeof(c->checks));
	c->plan_skipped = c->nskipped;
	c->nskipped = 0;
	c->nskips = 0;
	c->nrefused = 0;
	c->brk_hits = 0;
	return rc;
}

void vplan_print(FILE *out, const struct vctx *c)
{
	for (size_t i = 0; i < c->plan.n; i++) {
		const struct vcheck *k = &c->plan.v[i];
		char tol[32];
		vcheck_tol_text(k, tol, sizeof(tol));
		fprintf(out, "%-24s %-48s expected %-12.6g %-14s %s%s\n", k->kernel, k->event,
			k->expected, tol, k->events ? k->events : "",
			k->refused ? "  [REFUSED: FAILs]" : "");
	}
}

int vplan_refused(FILE *out, const struct vctx *c)
{
	int n = 0;
	for (size_t i = 0; i < c->plan.n; i++) {
		const char *r = c->plan.v[i].refused;
		size_t j;
		if (!r)
			continue;
		for (j = 0; j < i && !(c->plan.v[j].refused && !strcmp(c->plan.v[j].refused, r)); j++)
			;
		if (j < i)
			continue;
		n++;
		if (out)
			fprintf(out, "pmon-validate: pre-check: %s: its checks FAIL\n", r);
	}
	return n;
}

/* Is the planned check p among c->checks.v[first..)?  GCC 12's -O2 sanitizer
 * build (make check-asan) warns here of a strcmp "reading from a region of
 * size 0" on a path it cannot rule out (a false positive: both strings are
 * NUL-terminated arrays of a live vcheck); the warning is off for this
 * function alone. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overread"
static int made(const struct vctx *c, size_t first, const struct vcheck *p)
{
	for (size_t i = first; i < c->checks.n; i++)
		if (!strcmp(c->checks.v[i].kernel, p->kernel) && !strcmp(c->checks.v[i].event, p->event))
			return 1;
	return 0;
}
#pragma GCC diagnostic pop

void vplan_guard(struct vctx *c, const struct vstep *st, size_t first, int skipped, size_t pfirst,
		 int planned)
{
	size_t n = c->checks.n - first + (size_t)skipped;
	char what[96], missing[160] = "", why[160];
	if ((int)n >= planned)
		return;
	/* Name the first check of the step's plan that did not happen. */
	for (size_t i = pfirst; i < c->plan.n && !missing[0]; i++)
		if (!made(c, first, &c->plan.v[i]))
			snprintf(missing, sizeof(missing), "%s %s", c->plan.v[i].kernel, c->plan.v[i].event);
	snprintf(what, sizeof(what), "checks made or skipped, of %d planned", planned);
	snprintf(why, sizeof(why), "a check of the plan was lost%s%.120s", missing[0] ? ": " : "",
		 missing);
	vcheck_rel(&c->checks, vkernel_name[st->k], what, "checks", planned, (double)n, 1, INFINITY,
		   why);
}
