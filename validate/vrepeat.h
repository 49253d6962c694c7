/*
 * vrepeat.h - --repeat N: every step (and so every counting window) runs N
 * times; each check keeps the value of every run, and the check is made on
 * the median run: the runs ordered by their ratio measured / expected (a
 * check that expects 0: by its value; each run keeps its own expected
 * value, which may depend on the window's time), the middle one for odd N,
 * the lower of the two middle ones for even N, so that the value checked
 * is one run's and the expected value, raw counts, background and verdict
 * shown are that run's.  The spread is the largest minus the smallest ratio
 * times the median run's expected value (a check that expects 0: the
 * largest minus the smallest value), in the check's unit, reported in the
 * table and the JSON ("spread", and every run's value in "runs") and used
 * by --compare.  Runs 2..N match the first
 * run's checks by kernel and event; a check a later run lacks keeps the
 * runs it has, one only a later run makes is dropped (the plan's guard
 * counts the first run's).  Skips and notes of runs 2..N are not counted
 * again.
 */
#ifndef PMON_VALIDATE_VREPEAT_H
#define PMON_VALIDATE_VREPEAT_H

#include "vrun.h"

struct vrep_saved {
	struct vskip skips[64];
	int nskips, nskipped, nnotes;
};

/* Before run 2..N of a step: what must not be counted again. */
void vrepeat_save(const struct vctx *c, struct vrep_saved *s);
/* After run 2..N whose checks are c->checks.v[from..n): put them beside
 * the first run's checks (those from first), drop them, restore the skips
 * and notes.  0, or -1 out of memory (c->err). */
int vrepeat_merge(struct vctx *c, size_t first, size_t from, const struct vrep_saved *s);
/* After the last run: each check of the step from first gets its median,
 * spread and that run's counts, and is evaluated again. */
void vrepeat_finish(struct vctx *c, size_t first);
/* The median run of k (index into k->runs), as described above; -1 none. */
int vrepeat_median(const struct vcheck *k);

#endif
