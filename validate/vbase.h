/*
 * vbase.h - the idle baseline: before a kernel window, idle windows count
 * the same events with nothing running, so that the background of events
 * that count a whole socket (another program, the OS, the emulated
 * machine's load= and noise=) can be taken out of the kernel's counts.
 *
 * Which events take one: every event that counts traffic, uncore and core
 * alike.  The core PMU's offcore responses too: pmon counts a CPU, in every
 * privilege level, not a thread, so the kernel thread's CPU counts whatever
 * else runs there (the OS; the emulated machine's noise= is issued by each
 * socket's first CPU), and an idle window of that CPU measures it.  Not the
 * events that count time (fixed counters, CLOCKTICKS, the PCU's frequency
 * bands and C-state occupancy): the idle window counts them as much as the
 * kernel's, and they are checked against the window's time.
 *
 * How: a probe window of --idle-ms; when no event counted anything in it,
 * there is no background (nothing is subtracted, no spread: the quiet
 * default shape pays one short window).  Otherwise VBASE_WINDOWS windows of
 * VBASE_LONG x --idle-ms (machine time read at each start and stop):
 * rate = their counts over their total time; background = rate x the
 * kernel window's machine time, subtracted from the count; spread =
 * (largest - smallest window rate + VBASE_WINDOWS bursts over the total
 * time, each window's count being off its rate by less than a burst) x the
 * kernel window's time + 1 burst (the kernel window's own), added to the
 * check's tolerance on both sides (a burst: the lines one background
 * reference that misses brings at once, 1 with the prefetchers off, 23 with
 * all four on: pf_burst, expect.h; ratio checks: spread / expected; checks
 * that expect 0: above the bound and as far below 0).  The background is
 * reported per check ("background", "background_spread" in the JSON, a
 * column of the table when any is not 0), in the check's unit: how far the
 * subtraction moved the value.
 *
 * What it cannot take out: interference.  Background lines that evict the
 * kernel's (a shared core's L1/L2, the inclusive LLC's back-invalidations),
 * or kernel lines that the background finds in the caches, change the
 * kernel's own counts; an idle window cannot see that.
 */
#ifndef PMON_VALIDATE_VBASE_H
#define PMON_VALIDATE_VBASE_H

#include "vrun.h"

#define VBASE_WINDOWS 3
#define VBASE_LONG 10

/* 1 when an idle baseline applies to the event (above). */
int vbase_applies(const pmon_encoding_t *enc);
/* The idle windows for e's events that take a baseline (none when no event
 * does, when --idle-ms=0, or while planning): e->rate, e->rate_sp.
 * 0, or an error with c->err. */
int vbase_idle(struct vctx *c, struct vevents *e);
/* After the kernel window of ns machine time: e->bg, e->bgsub, e->bgsp. */
void vbase_scale(const struct vctx *c, struct vevents *e, uint64_t ns);
/* Attach the background and its spread of a check on the sum of events
 * idx[0..n) divided by per (or of the quotient num/den when den) and
 * evaluate it again. */
void vbase_attach(struct vcheck *k, const struct vevents *e, const int *idx, int n, double per);
void vbase_attach_quot(struct vcheck *k, const struct vevents *e, const int *num, const int *den,
		       int n);

#endif
