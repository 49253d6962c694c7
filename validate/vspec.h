/*
 * vspec.h - a counting window given as a table.  Each row is one event over
 * a set of boxes (every CBo of a socket, both QPI links, every iMC channel,
 * both R3QPI links, or one box) of one socket or CPU, and what the kernel
 * should make it count per unit (a round, a line); it becomes one check on
 * the sum over its boxes.  The kernels of exp_share.c, exp_dram.c and
 * exp_power.c describe their windows so.
 */
#ifndef PMON_VALIDATE_VSPEC_H
#define PMON_VALIDATE_VSPEC_H

#include "vrun.h"

enum vsbox { VS_ONE, VS_CBO, VS_LINK, VS_CH, VS_R3 };

/* A row's band: exact (the documented protocol). */
#define VS_EXACT { 0, 0, NULL }

struct vspec {
	enum vsbox box;
	const char *fmt;         /* VS_ONE: one %d (arg); else two: the box, then arg */
	int arg;                 /* socket, or CPU for core events */
	double want;             /* expected per unit; 0: at most the zero bound */
	const char *what;        /* the check's event text */
	struct vband b;          /* emulated band (b.why NULL: exact, the documented protocol) */
	enum vbreak brk;         /* under this --break, bfmt is programmed instead */
	const char *bfmt;
};

/* Add the rows' events, prep(c, arg) before the window (if not NULL: e.g.
 * clean the caches), run(c, arg) inside it, and make one check
 * per row: sum over its boxes / units against want.  hwb: the band on
 * silicon (its why says what moves the count there).  0, or an error
 * (c->err set). */
int vspec_window(struct vctx *c, const char *kname, const struct vspec *rows, int n, double units,
		 const char *unit, struct vband hwb, int (*prep)(struct vctx *c, void *arg),
		 int (*run)(struct vctx *c, void *arg), void *arg);

#endif
