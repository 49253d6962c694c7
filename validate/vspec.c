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

