/*
 * vcheck.h - one validation check: an expected value computed from first
 * principles, the measured count, and a tolerance with its reason.
 */
#ifndef PMON_VALIDATE_CHECK_H
#define PMON_VALIDATE_CHECK_H

#include <stddef.h>
#include <stdint.h>

/* How the tolerance reads:
 *   REL  PASS when lo <= measured/expected <= hi (a band around 1)
 *   ABS  expected is 0: PASS when measured <= hi * per (per = the number
 *        the count is divided by in the display, e.g. hops) */
enum vtol_kind { VTOL_REL, VTOL_ABS };

/* One run of a check under --repeat. */
struct vrunrec {
	double expected, measured, background, bg_spread;
	uint64_t *counts;       /* malloc'd, ncounts of them */
	int ncounts;
	int broken, pass;
	char *refused;          /* malloc'd */
};

struct vcheck {
	char kernel[40];        /* "stream-copy", "chase-line-llc" */
	char event[96];         /* what was counted, e.g. "CAS_COUNT.RD s0 sum ch" */
	char unit[16];          /* "lines", "per hop", "cycles" */
	double expected;        /* in unit */
	double measured;        /* in unit */
	double per;             /* divisor applied to raw counts (1, or hops) */
	enum vtol_kind tol_kind;
	double lo, hi;          /* REL: ratio band; ABS: lo unused, hi the bound */
	char why[160];          /* reason for the expected value and tolerance */
	char *events;           /* the programmed event names it uses, ';'-separated, any
				   length (malloc'd, freed by vchecks_free; NULL: none) */
	int broken;             /* 1: an event it uses was deliberately mis-programmed */
	char *refused;          /* the backend refused an event it uses (not counted): why,
				   naming the event (malloc'd); the check FAILs */
	uint64_t *counts;       /* the raw count of each event of events, same order
				   (malloc'd, NULL: none) */
	int ncounts;
	double spread;          /* --repeat: the spread of the runs (unit; vrepeat.h) */
	struct vrunrec *runs;   /* --repeat: each run's values (malloc'd, vrepeat.h) */
	int nruns;
	double background;      /* what the idle baseline moved measured by (unit; vbase.h) */
	double bg_spread;       /* its spread, added to the tolerance on both sides (unit) */
	int bg_taken;           /* an idle baseline was taken for one of its events */
	char *known;            /* a FAIL matching an understood deviation: its reason
				   (malloc'd); counted as KNOWN, not failed */
	int pass;
};

struct vchecks {
	struct vcheck *v;
	size_t n, cap;
};

/* Append a check; returns it (evaluated) or NULL on allocation failure. */
struct vcheck *vcheck_rel(struct vchecks *cs, const char *kernel, const char *event,
			  const char *unit, double expected, double measured,
			  double lo, double hi, const char *why);
struct vcheck *vcheck_abs(struct vchecks *cs, const char *kernel, const char *event,
			  const char *unit, double measured, double bound, const char *why);
void vcheck_eval(struct vcheck *c);
double vcheck_ratio(const struct vcheck *c);     /* measured/expected, or NAN */
/* FAIL checks not KNOWN. */
size_t vchecks_failed(const struct vchecks *cs);
size_t vchecks_known(const struct vchecks *cs);
/* "PASS", "FAIL" or "KNOWN". */
const char *vcheck_result(const struct vcheck *c);
/* Set c->refused (the check FAILs). */
void vcheck_refuse(struct vcheck *c, const char *why);
void vchecks_free(struct vchecks *cs);
/* Set c->events to names[0..n) joined by ';', whole.  0, or -1 out of memory. */
int vcheck_set_events(struct vcheck *c, const char *const *names, int n);
/* "±1%", "-12.5%/+1%", "<= 0.01" */
void vcheck_tol_text(const struct vcheck *c, char *buf, size_t len);

#endif
