/*
 * vplan.h - the suite's plan: the experiments run once with nothing
 * counted or fed, before any kernel runs, so that every event they will use
 * is asked of the backend first (the pre-check) and every check they will
 * make is known: --list prints them, and a kernel that makes fewer checks
 * in the run than in its plan FAILs (a check is never lost silently).
 */
#ifndef PMON_VALIDATE_VPLAN_H
#define PMON_VALIDATE_VPLAN_H

#include <stdio.h>

#include "vrun.h"

/* One step of the suite: an experiment and what it runs. */
struct vstep {
	enum vkernel k;
	int (*fn)(struct vctx *c);
	const char *what;
};

/* Run every step of c->o.kernels in plan mode: the checks go to c->plan,
 * step i's from c->plan.v[pfirst[i]]; planned[i] counts step i's checks
 * and skipped checks (the page table, known once pages are touched, may
 * turn a chase check into a skip or back: the sum stays);
 * c->checks and the skips are left empty.  0, or the first step's error
 * (c->err says). */
int vplan_make(struct vctx *c, const struct vstep *steps, int nsteps, int *planned,
	       size_t *pfirst);
/* Print the plan: one line per check (kernel, event, expected, tolerance,
 * events it counts), the skips, and the events the backend refuses. */
void vplan_print(FILE *out, const struct vctx *c);
/* After a step made checks c->checks.v[first..n) and skipped skipped: when
 * fewer in all than its plan's (planned, from c->plan.v[pfirst]), a FAIL
 * check naming the step and the first planned check that is missing. */
void vplan_guard(struct vctx *c, const struct vstep *st, size_t first, int skipped, size_t pfirst,
		 int planned);
/* Events of the plan the backend refused (distinct), printed to out with
 * the pre-check's verdict; returns how many. */
int vplan_refused(FILE *out, const struct vctx *c);

#endif
