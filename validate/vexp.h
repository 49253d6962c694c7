/*
 * vexp.h - an experiment's expectations as data, and the one runner that
 * counts them.
 *
 * A generation's expectations (validate/gen_*.c) are pure functions of the
 * kernel's parameters and the machine's geometry: they fill a struct vxset
 * with the events to count and the checks to make, in windows (one kernel
 * run each).  They touch no machine.  vx_run() is the runner every
 * generation shares: it programs each window's events, runs the kernel
 * (the experiment's callback) inside the window and makes the checks, in
 * the order the set lists them.  A second generation adds its expectation
 * functions, not a copy of the runner.
 */
#ifndef PMON_VALIDATE_VEXP_H
#define PMON_VALIDATE_VEXP_H

#include "vrun.h"

#define VX_WIN 4          /* windows of a set */
#define VX_CK 64          /* checks of a window */
#define VX_IDX 16         /* events of one check (or of one metric term) */

enum vx_kind {
	VX_SUM,      /* sum of ev / per against expected within b */
	VX_ZERO,     /* sum of ev / per at most bound (expected 0); why */
	VX_QUOT,     /* sum of ev / sum of den against expected within b */
	VX_SKIP,     /* nskip checks skipped, reason why (whole text) */
	VX_SKIPM,    /* skipped, the reason with the measured sum of ev / per:
			"KNAME WHAT: not checked (measured V per hop): WHY" */
	VX_METRIC,   /* metric (pmon/metric.h) over terms t[0..nt) against expected */
	VX_WRAP,     /* VX_SUM of ev[0] read as libpmon totals it across the
			counter's wrap (--break=wrap presets it near the top) */
	VX_SKIPM2,   /* skipped, the reason with two measured sums (ev, den[0..nden)):
			"KNAME WHAT: not checked (measured A / B lines, WHY" */
	VX_DIFF,     /* (sum of ev - sum of den[0..nden)) / per against expected
			within b, or, expected 0, within +-bound (an identity
			between counts) */
	VX_CLOCK,    /* sum of ev against hz x mult x the window's length (the
			kernel's wall time; the window's ms while planning), within
			clock_band of that length and the session's (silicon's
			with hw) widened by
			+-tol; why, when set, is the band's */
};

/* A metric's term: the sum of events ev[0..n) of window win (-1: the
 * check's own), divided by per when per > 0. */
struct vxterm {
	int win;
	int ev[VX_IDX];
	int n;
	double per;
};

struct vxck {
	enum vx_kind kind;
	char what[96];
	char unit[16];
	int ev[VX_IDX], n;       /* events of the window (indexes into its ev[]) */
	int den[VX_IDX];         /* VX_QUOT: n denominators; VX_DIFF: nden subtracted */
	int nden;
	double per, expected, bound;
	struct vband b;          /* lo, hi (its why is why) */
	char why[320];
	int nskip;               /* VX_SKIP: checks it stands for */
	/* VX_METRIC */
	const char *metric;
	char where[40];
	struct vxterm t[4];
	int nt;
	int over_s;              /* expected per second: expected / (s_k x seconds) / s_div x s_mul
				    (in the order the formula's arithmetic takes) */
	double s_k, s_div, s_mul;
	double tol_lo_s, tol_hi_s; /* the band widened by tol / seconds (clocks started apart) */
	char nosec[160];         /* the FAIL's cause when the window has no machine time (the
				    metric has no value) */
	double hz, mult, tol;    /* VX_CLOCK */
	int hw;
};

struct vxev {
	char name[PMON_MAX_NAME];
	int broken;              /* deliberately mis-programmed (a --break) */
};

/* One window: its events, its checks, and how the runner runs it. */
struct vxwin {
	struct vxev ev[VEV_MAX];
	int nev;
	struct vxck ck[VX_CK];
	int nck;
	int clean;               /* caches cleaned (written back, dropped) before the window */
	int flush;               /* dirty lines written back inside the window */
	int timed;               /* metrics read the window's time (else 1 s stands in) */
	uint64_t units;          /* the kernel's amount for this window (hops, elements) */
	int wrap_ev;             /* --break=wrap: the event preset near its top (-1: none) */
	uint64_t wrap_top;       /* how far below the top */
	int tag;                 /* the kernel's own selector of what to run */
	char kname[40];          /* the window's kernel name for its checks (empty: the run's) */
	double ms;               /* its length when the kernel waits (vx_sleep) */
};

struct vxset {
	struct vxwin w[VX_WIN];
	int nw;
	char notes[4][200];      /* progress lines for the runner to print */
	int nnotes;
	char err[256];           /* an expectation that could not be formed */
};

/* ----------------------------------------------- building a set (pure) */
/* Start a set / a window (returned, cleared, wrap_ev -1). */
void vx_init(struct vxset *x);
struct vxwin *vx_win(struct vxset *x);
/* An event by name (printf format); its index in the window, -1 when full. */
int vx_ev(struct vxwin *w, int broken, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Checks (NULL when the window is full); what is a printf format. */
struct vxck *vx_sum(struct vxwin *w, const int *ev, int n, double per, double expected,
		    struct vband b, const char *unit, const char *what, ...)
	__attribute__((format(printf, 8, 9)));
struct vxck *vx_zero(struct vxwin *w, const int *ev, int n, double per, double bound,
		     const char *why, const char *unit, const char *what, ...)
	__attribute__((format(printf, 8, 9)));
struct vxck *vx_quot(struct vxwin *w, const int *num, const int *den, int n, double expected,
		     struct vband b, const char *unit, const char *what, ...)
	__attribute__((format(printf, 8, 9)));
struct vxck *vx_diff(struct vxwin *w, const int *pos, int npos, const int *neg, int nneg,
		     double per, double expected, struct vband b, double bound, const char *unit,
		     const char *what, ...) __attribute__((format(printf, 11, 12)));
struct vxck *vx_skip(struct vxwin *w, int nskip, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
struct vxck *vx_skipm(struct vxwin *w, const int *ev, int n, double per, int nskip,
		      const char *why, const char *what, ...) __attribute__((format(printf, 7, 8)));
struct vxck *vx_skipm2(struct vxwin *w, const int *a, int na, const int *b, int nb, int nskip,
		       const char *why, const char *what, ...) __attribute__((format(printf, 8, 9)));
struct vxck *vx_clock(struct vxwin *w, const int *ev, int n, double hz, double mult, double tol,
		      int hw, const char *why, const char *unit, const char *what, ...)
	__attribute__((format(printf, 10, 11)));
struct vxck *vx_metric(struct vxwin *w, const char *metric, const char *where,
		       const struct vxterm *t, int nt, double expected, struct vband b);
/* A progress note. */
void vx_note(struct vxset *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A term of this window's events. */
struct vxterm vx_term(const int *ev, int n);
/* Checks of a set (skips count as their nskip): what a run makes of it. */
int vx_count(const struct vxset *x);

/* ------------------------------------------------------ the runner */
/* The kernel of the experiment: run(c, arg, w) inside window w (its units
 * and tag say what); arrs[0..narrs) are cleaned before a window with clean
 * and written back inside one with flush. */
struct vxkern {
	int (*run)(struct vctx *c, void *arg, const struct vxwin *w);
	void *arg;
	struct karr *const *arrs;
	int narrs;
};
/* What a run measured of its windows, for progress lines. */
struct vxres {
	double t0[VX_WIN], t1[VX_WIN];   /* kernel start and end (ns, CLOCK_MONOTONIC) */
	double seconds[VX_WIN];          /* machine time of each timed window */
};
/* Count the set's windows with kernel k and make their checks, as kname.
 * A window without events runs nothing (its checks are skips).  Each
 * window's events are released once no later window's metric reads them.
 * 0, or an error (c->err set). */
int vx_run(struct vctx *c, const char *kname, const struct vxset *x, const struct vxkern *k,
	   struct vxres *res);
/* A kernel that waits the window's ms (nothing while planning), and the
 * wait itself. */
int vx_sleep(struct vctx *c, void *arg, const struct vxwin *w);
void vx_wait_ms(double ms);
/* A set to fill (cleared), or NULL with c->err naming what (out of memory). */
struct vxset *vx_new(struct vctx *c, const char *what);
/* Run set x that a generation's expectation filled (made: what it returned)
 * with kernel k (vx_run), and free it.  made not 0: x->err is the error
 * (c->err), nothing runs.  0, or an error (c->err set). */
int vx_go(struct vctx *c, const char *kname, struct vxset *x, int made, const struct vxkern *k,
	  struct vxres *res);

#endif
