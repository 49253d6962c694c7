/*
 * vspec.h - a counting window's expectations given as a table.  Each row is
 * one event over a set of boxes (every CBo of a socket, both QPI links,
 * every iMC channel, both R3QPI links, or one box) of one socket or CPU, and
 * what the kernel should make it count per unit (a round, a line); it
 * becomes the window's events and one check on the sum over its boxes
 * (vexp.h).  Pure: a generation's expectations (gen_*.c) write their
 * windows so, the one runner (vx_run) counts them.
 */
#ifndef PMON_VALIDATE_VSPEC_H
#define PMON_VALIDATE_VSPEC_H

#include "vexp.h"

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

/* What the rows of a window share: the run's --break, the machine (hw:
 * silicon, whose band is hwb, its why saying what moves the count there),
 * the kernel's units and their name. */
struct vspec_on {
	enum vbreak brk;
	int hw;
	struct vband hwb;
	double units;
	const char *unit;
};

/* Add rows[0..n) to window w of set x: each row's events over its boxes
 * (under the row's --break its bfmt instead, marked broken) and one check
 * per row: the sum over its boxes / units against want.  0, or -1 when the
 * window is full (x->err says so). */
int vspec_add(const struct vgeom *g, struct vxset *x, struct vxwin *w, const struct vspec *rows,
	      int n, const struct vspec_on *on);

/* A new window of set x, named kname (its checks' kernel), tag and clean
 * (vxwin), with rows[0..n) added.  0, or -1 (x->err). */
int vspec_win(const struct vgeom *g, struct vxset *x, const char *kname, int tag, int clean,
	      const struct vspec *rows, int n, const struct vspec_on *on);

#endif
