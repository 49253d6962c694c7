/*
 * vspec.c - a counting window's expectations given as a table (vspec.h).
 */
#include "vspec.h"

static int boxes(const struct vgeom *g, enum vsbox b)
{
	switch (b) {
	case VS_CBO: return g->cores;
	case VS_LINK: case VS_R3: return 2;
	case VS_CH: return g->channels;
	default: return 1;
	}
}

static int row(const struct vgeom *g, struct vxwin *w, const struct vspec *s,
	       const struct vspec_on *on)
{
	int broken = s->bfmt && on->brk == s->brk && s->brk != VB_NONE;
	const char *fmt = broken ? s->bfmt : s->fmt;
	int nb = boxes(g, s->box), idx[VX_IDX];
	if (nb > VX_IDX)
		return -1;
	for (int b = 0; b < nb; b++)
		if ((idx[b] = s->box == VS_ONE ? vx_ev(w, broken, fmt, s->arg)
					       : vx_ev(w, broken, fmt, b, s->arg)) < 0)
			return -1;
	struct vband b = s->b.why ? s->b : (struct vband){ 1, 1,
		"the documented protocol (doc/memory-model.md) applied to the kernel: exact" };
	if (on->hw)
		b = on->hwb;
	if (s->want > 0)
		return vx_sum(w, idx, nb, on->units, s->want, b, on->unit, "%s", s->what) ? 0 : -1;
	return vx_zero(w, idx, nb, on->units, on->hw ? 0.05 : 0,
		       on->hw ? "silicon: no such traffic by the kernel; other activity adds a little"
			      : "the documented protocol makes none of this traffic",
		       on->unit, "%s", s->what) ? 0 : -1;
}

int vspec_add(const struct vgeom *g, struct vxset *x, struct vxwin *w, const struct vspec *rows,
	      int n, const struct vspec_on *on)
{
	for (int r = 0; r < n; r++)
		if (row(g, w, &rows[r], on)) {
			snprintf(x->err, sizeof(x->err), "%s: more events or checks than a window holds",
				 rows[r].what);
			return -1;
		}
	return 0;
}

int vspec_win(const struct vgeom *g, struct vxset *x, const char *kname, int tag, int clean,
	      const struct vspec *rows, int n, const struct vspec_on *on)
{
	struct vxwin *w = vx_win(x);
	if (!w) {
		snprintf(x->err, sizeof(x->err), "%s: more windows than a set holds", kname);
		return -1;
	}
	snprintf(w->kname, sizeof(w->kname), "%s", kname);
	w->tag = tag;
	w->clean = clean;
	return vspec_add(g, x, w, rows, n, on);
}

/* The table run at once (the experiments not yet moved to vx_run). */
int vspec_window(struct vctx *c, const char *kname, const struct vspec *rows, int n, double units,
		 const char *unit, struct vband hwb, int (*prep)(struct vctx *c, void *arg),
		 int (*run)(struct vctx *c, void *arg), void *arg)
{
	struct vevents e;
	int idx[16][8], rc = 0;
	double t0, t1;

	if (n > 16) {
		snprintf(c->err, sizeof(c->err), "%s: more than 16 rows in one window", kname);
		return -1;
	}
	vev_init(&e, c->m);
	for (int r = 0; r < n; r++) {
		const struct vspec *s = &rows[r];
		int broken = s->bfmt && c->o.brk == s->brk && s->brk != VB_NONE;
		const char *fmt = broken ? s->bfmt : s->fmt;
		for (int b = 0; b < boxes(&c->g, s->box); b++) {
			if (s->box == VS_ONE)
				idx[r][b] = vadd(c, &e, kname, fmt, s->arg);
			else
				idx[r][b] = vadd(c, &e, kname, fmt, b, s->arg);
			if (idx[r][b] == -2) {
				vev_free(&e);
				return -1;
			}
			if (broken && idx[r][b] >= 0)
				vev_mark_broken(&e, idx[r][b]);
		}
	}
	if (prep && (rc = prep(c, arg)) != 0) {
		vev_free(&e);
		return rc;
	}
	if ((rc = vwin_start(c, &e, &t0)) == 0 && (rc = run(c, arg)) == 0)
		rc = vwin_stop(c, &e, 0, NULL, 0, &t1);
	if (rc == 0) {
		for (int r = 0; r < n; r++) {
			const struct vspec *s = &rows[r];
			struct vband b = s->b.why ? s->b : (struct vband){ 1, 1,
				"the documented protocol (doc/memory-model.md) applied to the kernel: exact" };
			if (c->hw)
				b = hwb;
			if (s->want > 0)
				vcheck_sum(c, &e, kname, s->what, unit, idx[r], boxes(&c->g, s->box), units,
					   s->want, b);
			else
				vcheck_zero(c, &e, kname, s->what, unit, idx[r], boxes(&c->g, s->box), units,
					    c->hw ? 0.05 : 0,
					    c->hw ? "silicon: no such traffic by the kernel; other activity "
						    "adds a little"
						  : "the documented protocol makes none of this traffic");
		}
	}
	vev_free(&e);
	return rc;
}
