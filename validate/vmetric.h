/*
 * vmetric.h - the derived metrics of pmon/metric.h checked on the suite's
 * kernels: a metric is computed from a window's counts with the formula
 * `pmon stat` uses (pmon_metric_compute) over the window's time on the
 * machine's own clock, and compared with the value the kernel implies
 * (its bytes over the same time, the machine's documented latency).  With
 * --break=metric the formula is evaluated with its first constant doubled
 * (a wrong 64 B a line, a wrong ns conversion): every metric check fails.
 */
#ifndef PMON_VALIDATE_VMETRIC_H
#define PMON_VALIDATE_VMETRIC_H

#include "vrun.h"

/* Up to 4 events of a metric, each the sum of events idx[k][0..n[k]) of
 * the call's window, or of window e when set (a metric whose events need
 * different values of a shared filter is counted in two windows), divided
 * by per when set (each window's count per hop when their hops differ, as
 * pmon_mset scales each pass by its share of the time). */
struct vmterm {
	const int *idx;
	int n;
	struct vevents *e;
	double per;
};

/* The machine's time of a window's counts: from the session's reads. */
double vmetric_seconds(const struct vevents *e, uint64_t start_ns);

/* Check metric (by name) computed from terms[0..nterms) (its events in
 * order) over seconds against expected, in the metric's unit, within b
 * (expected 0: the value at most b.hi, in the unit).  The check's event
 * reads "<METRIC> <where>". */
struct vcheck *vcheck_metric(struct vctx *c, struct vevents *e, const char *kernel, const char *metric,
			     const char *where, const struct vmterm *terms, int nterms, double seconds,
			     double expected, struct vband b);

#endif
